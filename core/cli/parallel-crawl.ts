/**
 * `crawlbench crawl --db NAME.db --parts K --model page|site --assign hash|FILE ...`: the
 * coordinator of a parallel crawl (core/parallel/coordinator.ts), reached from crawl-command.ts.
 */
import { existsSync } from 'node:fs';
import type { CrawlSettingsInput } from '../config/settings.js';
import { Crawler } from '../engine/crawler.js';
import { CrawlError, DISK_FULL_EXIT, ErrorCodes, badOption } from '../errors.js';
import { findIdMap, readAssignmentFile, type NewUrlRule } from '../parallel/assignment.js';
import { MAX_REPLICAS } from '../parallel/broker.js';
import { runCoordinator, type ParallelSummary } from '../parallel/coordinator.js';
import { accountLines } from '../parallel/exchange-account.js';
import { endWords } from './merge-command.js';
import { choiceFlag, intFlag, rangeFlag, waitFlag } from './args.js';
import { credentialsFromFlags, parallelShapeOfFlags, type PARALLEL_OPTIONS } from './parallel-flags.js';
import type { FlagsOf } from './args.js';

type ParallelFlags = FlagsOf<typeof PARALLEL_OPTIONS> & { db?: string; json?: boolean; quiet?: boolean };

export async function runParallelCrawl(flags: ParallelFlags, input: Partial<CrawlSettingsInput>, seeds: string[]): Promise<number> {
  const db = flags.db!;
  const { parts: k, model } = parallelShapeOfFlags(flags);
  if (!flags.assign) throw badOption('--assign', 'required with --parts: hash, or a part vector file');
  const newUrls: NewUrlRule = choiceFlag(flags, 'new-urls', ['discoverer', 'hash']) ?? 'discoverer';
  const replicas = rangeFlag(flags, 'replicas', (x) => Number.isInteger(x) && x >= 1 && x <= MAX_REPLICAS, `a number of copies from 1 to ${MAX_REPLICAS}`);
  if (replicas !== undefined && replicas > 1 && !flags.broker) {
    throw badOption('--replicas', `${replicas} copies need a NATS cluster: give one or more of its servers with --broker (the nats-server crawlbench starts is a single server)`);
  }
  const vector = flags.assign === 'hash' ? null : readAssignmentFile(flags.assign, findIdMap(flags.assign, flags.ids), k, model);
  // The same command resumes: a crawl that exists had its patterns checked when it was made (by this version or an earlier one).
  const settings = Crawler.plan({ ...input, seeds }, { stored: existsSync(db) });
  const quiet = !!flags.quiet || !!flags.json;
  const abort = new AbortController();
  const onSignal = () => abort.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const summary = await runCoordinator({
    db, settings, parts: k, model, vector, newUrls,
    ...(flags.broker ? { broker: flags.broker } : {}),
    ...(replicas !== undefined ? { replicas } : {}),
    credentials: credentialsFromFlags(flags),
    localWorkers: intFlag(flags, 'local-workers', 0) ?? k,
    ...(flags['nats-server'] ? { natsServer: flags['nats-server'] } : {}),
    ...(flags['predict-from'] ? { predictFrom: flags['predict-from'] } : {}),
    exchangeBatchMs: waitFlag(flags, 'exchange-batch') ?? 0,
    ...(input.maxPages !== undefined ? { maxPagesNow: input.maxPages } : {}),
    ...(input.maxDbSize !== undefined ? { maxDbSizeNow: input.maxDbSize } : {}),
    // Its flags too (the young generation's size): a worker started without them would start Node again to take them (bin/crawlbench.js).
    crawlbench: [process.execPath, ...process.execArgv.filter((a) => a.startsWith('--max-semi-space-size')), process.argv[1]!],
    note: (line) => process.stderr.write(line + '\n'),
    progress: (line) => (quiet ? undefined : process.stderr.write(line + '\n')),
    signal: abort.signal,
  })
    .catch((err: unknown) => {
      // A part's disk full paused the whole crawl: said as a crawl of one process says it, exit 3.
      if (!(err instanceof CrawlError) || err.code !== ErrorCodes.DISK_FULL) throw err;
      process.stdout.write(flags.json ? JSON.stringify({ state: 'paused', stopReason: 'disk-full', message: err.message }) + '\n' : `PAUSED: ${err.message}\n`);
      return DISK_FULL_EXIT;
    })
    .finally(() => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    });
  if (typeof summary === 'number') return summary;
  if (summary === null) {
    process.stdout.write(`paused: every worker committed its part; the same command resumes the crawl\n`);
    return 0;
  }
  if (flags.json) process.stdout.write(JSON.stringify(summary) + '\n');
  else process.stdout.write(parallelSummaryText(summary) + '\n');
  return 0;
}

export function parallelSummaryText(s: ParallelSummary): string {
  const m = s.merge;
  const lines = [
    `parallel crawl ${s.name}: ${m.parts} parts, ${endWords(m)}, merged into ${m.out} in ${s.seconds.toFixed(1)} s (broker ${s.broker}${s.replicas > 1 ? `, ${s.replicas} copies of the stream` : ''})`,
    `  pages fetched ${m.pagesFetched}, known ${m.pagesKnown}, links ${m.links}, sites ${m.sites}`,
    `  fetched by two workers: ${m.fetchedTwice}${m.fetchedTwiceSample.length > 0 ? ` (${m.fetchedTwiceSample.slice(0, 3).join(', ')}${m.fetchedTwice > 3 ? ', ...' : ''})` : ''}`,
    `  worker restarts ${s.workerRestarts}, broker restarts ${s.brokerRestarts}`,
    ...m.workers.map((w) => `  part ${w.part}: ${endWords(w)}, ${w.pagesFetched} pages fetched, ${w.pagesKnown} known, ${w.pagesOtherParts} of other parts (stubs), ${w.links} links, ${w.bytes} bytes, ${w.leaseRequests} lease requests, ${w.seconds.toFixed(1)} s`),
    `  exchange measured   messages ${s.measured.messages}, volume ${s.measured.volume} bytes of URLs (${s.measured.wireBytes} bytes on the wire)`,
  ];
  for (let p = 0; p < m.parts; p++) {
    const row = (dir: 'sent' | 'received') => m.exchange.filter((e) => e.worker === p && e.direction === dir).map((e) => `${e.part}:${e.messages}/${e.urlBytes}`).join(' ') || '-';
    lines.push(`    part ${p} sent ${row('sent')}; received ${row('received')}  (part:messages/URL bytes)`);
  }
  if (s.prediction) {
    const p = s.prediction;
    lines.push(`  exchange predicted  messages ${p.messages}, volume ${p.volume} bytes (partition-eval on ${p.source}, ${p.pages} pages)`);
  }
  lines.push(...accountLines(s));
  return lines.join('\n');
}
