/**
 * A parallel crawl's own process (issue 25), as api/crawl-runner.ts is a single crawl's: the
 * workbench's server starts it detached (api/crawl-process.ts, the same flag and arguments),
 * so the crawl outlives the window, and a server started again finds it through NAME.db.runner
 * (api/crawl-channel.ts). It hosts the crawl's demo web, runs the coordinator
 * (parallel/coordinator.ts: the embedded nats-server, K worker processes, the end, the merge)
 * on the plan NAME.db holds (api/parallel-files.ts), sends the workers' figures once a second,
 * and when the crawl ends moves the merged crawl over NAME.db. Pause asks every worker to
 * commit and end (the next start resumes from their files and consumers); Stop does so and
 * merges the parts as they are.
 *
 * Here, not in api/, because it runs the coordinator (core/parallel, beside api in the layers).
 */
import { ErrorCodes, type CrawlError } from '../errors.js';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import type { StatsEvent } from '../api/contract.js';
// Types only: importing crawl-runner.ts would run it (it starts on the same flag).
import type { RunnerArgs } from '../api/crawl-runner.js';
import { DemoWebs } from '../api/demo-webs.js';
import { markPlan, mergeStopped, mergedPath, parallelDir, partsPath, placeMerged, readParallelOptions, writeProgress } from '../api/parallel-files.js';
import type { CrawlSettings } from '../config/settings.js';
import { CrawlStore } from '../store/crawl-store.js';
import { credentialsFromEnv, findNatsServer } from '../parallel/broker.js';
import { runCoordinator } from '../parallel/coordinator.js';
import type { ParallelOptions } from '../api/contract.js';
import { openRunnerChannel, type RunnerChannel } from '../api/runner-channel.js';
import { parallelPlan } from './parallel-plan.js';
import { readWorkers, progressEvent, statsOf } from './parallel-progress.js';

/** The flag api/crawl-process.ts starts a runner with (crawl-runner.ts's RUNNER_FLAG). */
const RUNNER_FLAG = '--crawl-runner';

type End = { status: 'finished' | 'stopped' | 'paused'; reason: string };

export async function runParallelProcess(a: RunnerArgs): Promise<void> {
  const options = readParallelOptions(a.dbPath);
  if (!options) throw new Error(`${a.dbPath} is not a parallel crawl (no ${a.id}.parallel.json beside it)`);
  // Refused before the start answers: no nats-server, and the one line says how to get it.
  findNatsServer();
  const demos = new DemoWebs({ logFile: a.demoLog, port: a.demoPort });
  await demos.resumeFor(a.id, join(dirname(a.dbPath), `${a.id}.demo.json`));
  const plan = CrawlStore.open(a.dbPath, { readonly: true });
  const stored = plan.settings();
  plan.close();
  const settings = a.maxPages === undefined ? stored : { ...stored, maxPages: a.maxPages };
  markPlan(a.dbPath, 'running');
  const abort = new AbortController();
  let how: 'pause' | 'stop' = 'pause';
  const channel = await openRunnerChannel(a.dbPath, (m) => {
    how = how === 'stop' ? 'stop' : m;
    abort.abort();
  });
  process.once('SIGTERM', () => channel.slowDown('pause'));
  process.once('SIGINT', () => channel.slowDown('pause'));
  let end: End;
  try {
    end = await crawl(a, options, settings, channel, abort.signal, () => how);
  } catch (err) {
    const message = (err as Error).message;
    // A part's disk full paused the whole crawl (coordinator.ts): listed as a crawl of one process is then.
    const kind = (err as CrawlError).code === ErrorCodes.DISK_FULL ? 'disk-full' : 'failed';
    markPlan(a.dbPath, 'paused', { kind, at: new Date().toISOString(), message });
    end = { status: 'paused', reason: `${kind}: ${message}` };
  }
  await demos.stopAll();
  await channel.close({ t: 'ended', ...end });
}

async function crawl(a: RunnerArgs, options: ParallelOptions, settings: CrawlSettings, channel: RunnerChannel, signal: AbortSignal, how: () => 'pause' | 'stop'): Promise<End> {
  const t0 = Date.now();
  // Live shows the latest note beside the assignment: a partition takes a while to compute, a hash nothing.
  let note: string | null = options.assign === 'partition' ? 'computing the assignment' : null;
  const planned = await parallelPlan(options, settings, (id) => join(dirname(a.dbPath), `${id}.db`), join(parallelDir(a.dbPath), 'assignment'), signal);
  note = null;
  const tick = () => {
    const workers = readWorkers(partsPath(a.dbPath), options.parts);
    const e = progressEvent(a.id, t0, workers, planned.prediction, note);
    writeProgress(a.dbPath, e);
    channel.send({ t: 'parallel', data: e });
    channel.send({ t: 'stats', data: statsOf(a.id, t0, workers) satisfies StatsEvent });
  };
  const timer = setInterval(tick, 1000);
  try {
    const summary = await runCoordinator({
      db: mergedPath(a.dbPath), settings, parts: options.parts, model: options.model, vector: planned.vector, newUrls: 'discoverer',
      credentials: credentialsFromEnv(), localWorkers: options.parts,
      ...(a.maxPages !== undefined ? { maxPagesNow: a.maxPages } : {}),
      // The workers are `crawlbench worker` (the launcher beside dist/, as a person runs it).
      crawlbench: [process.execPath, fileURLToPath(new URL('../../../bin/crawlbench.js', import.meta.url))],
      note: (line) => {
        note = line;
        process.stderr.write(line + '\n');
      },
      progress: () => undefined,
      signal,
    });
    tick();
    if (summary) {
      placeMerged(a.dbPath);
      // As the merged crawl records it: a crawl whose workers spent their shares of the page limit is paused at it, as a crawl of one process is.
      const { state, endKind, pagesFetched, parts } = summary.merge;
      return { status: state === 'finished' ? 'finished' : state === 'stopped' ? 'stopped' : 'paused', reason: `${endKind}: ${pagesFetched} pages by ${parts} workers, merged` };
    }
  } finally {
    clearInterval(timer);
  }
  if (how() === 'stop') {
    mergeStopped(a.dbPath);
    return { status: 'stopped', reason: 'stopped' };
  }
  markPlan(a.dbPath, 'paused', { kind: 'paused', at: new Date().toISOString() });
  return { status: 'paused', reason: 'paused' };
}

if (process.argv[2] === RUNNER_FLAG) {
  runParallelProcess(JSON.parse(process.argv[3] ?? '{}') as RunnerArgs).then(
    () => process.exit(0),
    (err: Error & { code?: string }) => {
      // The server reads this last line when the process ends before it answers.
      process.stderr.write(`${JSON.stringify({ code: err.code ?? 'CRAWL_INTERNAL', message: err.message })}\n`);
      process.exit(1);
    },
  );
}
