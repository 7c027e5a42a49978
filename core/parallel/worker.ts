/**
 * A worker of a parallel crawl: a full crawlbench engine (core/engine, unchanged but for the
 * part hook) with its own crawl database `DIR/part-I.db`, scheduler and policy, owning what the
 * assignment gives part I. It reads the crawl's definition from the broker, so it needs only
 * the broker's address, credentials and the crawl's name; a killed worker started again resumes
 * from its database and its durable consumer.
 *
 * Every STATUS_MS (250 ms) it writes its status to the crawl's bucket (status.I) and reads whether the
 * coordinator has ended the crawl (the key `end`) or paused it (`pause`).
 */
import { existsSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { jetstream } from '@nats-io/jetstream';
import type { KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { Crawler, type CrawlSummary, type CrawlerOptions } from '../engine/crawler.js';
import { discover } from '../engine/discovery.js';
import type { StatsSnapshot } from '../engine/stats-report.js';
import { CrawlError, ErrorCodes } from '../errors.js';
import { ExchangeStore } from '../store/exchange-store.js';
import { Assignment } from './assignment.js';
import { closeConnection, connectBroker, waitAtMost, type BrokerCredentials } from './broker.js';
import { STATUS_MS, crawlBucket, kvText, partShare, readDefinition, type ParallelDefinition, type WorkerStatus } from './definition.js';
import { PartExchange } from './exchange.js';
import { partLeases, type SiteLeases } from './site-leases.js';
import { SitemapClaims } from './sitemap-claims.js';
import { WorkerLifeline } from './worker-lifeline.js';
import { makeFolders } from '../folders.js';

export interface WorkerOptions {
  broker: string;
  credentials: BrokerCredentials;
  crawl: string;
  /** Parts this process takes (default: every part). */
  parts?: number[];
  /** Where the part databases live (default NAME.parts in the working folder). */
  dir?: string;
  /** Pause and end when standard input closes: the pipe of the coordinator that started this worker (worker-lifeline.ts). */
  endWithStdin?: boolean;
  onNote?: (line: string) => void;
}

export function partDbPath(dir: string, part: number): string {
  return join(dir, `part-${part}.db`);
}

/** Runs the parts given until the coordinator ends the crawl; resolves with each part's summary. */
export async function runWorker(opts: WorkerOptions): Promise<CrawlSummary[]> {
  const note = opts.onNote ?? ((line: string) => process.stderr.write(line + '\n'));
  // Watched from the start: a coordinator that dies while this worker waits for the broker ends it too.
  const lifeline = new WorkerLifeline(note, opts.endWithStdin ?? false);
  // A worker started while the broker is away waits for it.
  const nc = await connectBroker(opts.broker, opts.credentials, `crawlbench worker ${opts.crawl}`, true).catch((err: unknown) => {
    lifeline.close();
    throw err;
  });
  try {
    const kv = await crawlBucket(nc, opts.crawl, null);
    const { def, vector } = await readDefinition(kv);
    const parts = opts.parts ?? Array.from({ length: def.parts }, (_, i) => i);
    for (const p of parts) {
      if (!Number.isInteger(p) || p < 0 || p >= def.parts) throw new CrawlError(ErrorCodes.PARALLEL_UNKNOWN_CRAWL, `--parts-to-take: part ${p} is outside 0..${def.parts - 1} of the crawl ${def.name}`);
    }
    const dir = opts.dir ?? `${def.name}.parts`;
    makeFolders(dir);
    const assignment = new Assignment(def.parts, def.model, def.settings.siteKey, vector, def.newUrls);
    return await Promise.all(parts.map((p) => runPart(nc, kv, def, assignment, p, dir, note, lifeline)));
  } finally {
    await closeConnection(nc, lifeline.brokerSilent ? 0 : 2000);
    lifeline.close();
  }
}

/**
 * The part's crawl: resumed from its database, or created. A worker killed while creating it
 * leaves a file without settings (made again) or without its seeds (discovered again).
 */
function openPart(path: string, def: ParallelDefinition, limits: PartLimits, opts: CrawlerOptions): Crawler {
  const { maxPages, contentBudget } = limits;
  if (existsSync(path)) {
    let crawler: Crawler | null = null;
    try {
      // The definition's share, whatever the part holds: a resume may have raised or lifted the limit.
      // The content budget's share only where content is stored: a part made before it was split keeps its own.
      // --max-db-size as the definition has it now: a resume may have raised it (a crawl paused with its disk full).
      const { maxDbSize } = def.settings;
      crawler = Crawler.open(path, def.settings.storeContent ? { maxPages, contentBudget, maxDbSize } : { maxPages, maxDbSize }, opts);
    } catch (err) {
      if ((err as CrawlError).code !== ErrorCodes.DB_NOT_A_CRAWL) throw err;
      for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
    }
    if (crawler) {
      const { store } = crawler.ctx;
      if (store.totals().pagesKnown === 0) {
        store.begin();
        for (const url of crawler.settings.seeds) discover(crawler.ctx, { url, depth: 0, parentId: null, redirects: 0, anchor: null, nofollow: false });
        store.commit();
      }
      return crawler;
    }
  }
  return Crawler.create(path, { ...def.settings, ...limits }, { ...opts, stored: true });
}

interface PartLimits {
  maxPages: number | null;
  maxPagesPerSite: number;
  contentBudget: number;
}

/**
 * The part's share of the crawl's limits, so that they hold for the crawl as a whole: --max-pages
 * split among the parts (the definition's shares); --max-site-pages likewise with a page
 * assignment, where a site's pages lie on several workers (a site assignment gives every site
 * one owner, who keeps the whole limit); --content-budget split among the parts, each storing
 * its pages' content in its own folder (part-I.db.content).
 */
function partLimits(def: ParallelDefinition, part: number): PartLimits {
  const { maxPagesPerSite: perSite, contentBudget } = def.settings;
  return {
    maxPages: def.maxPagesShare?.[part] ?? null,
    maxPagesPerSite: def.model === 'page' ? partShare(perSite, def.parts, part) : perSite,
    contentBudget: partShare(contentBudget, def.parts, part),
  };
}

async function runPart(nc: NatsConnection, kv: KV, def: ParallelDefinition, assignment: Assignment, part: number, dir: string, note: (l: string) => void, lifeline: WorkerLifeline): Promise<CrawlSummary> {
  // With a page assignment several workers reach a site: one claims its sitemaps (sitemap-claims.ts).
  const claims = def.settings.sitemaps && def.model === 'page' ? new SitemapClaims(kv, part) : null;
  const exchange = new PartExchange(part, def.name, assignment, jetstream(nc), note, def.exchangeBatchMs ?? 0, claims);
  const path = partDbPath(dir, part);
  const limits = partLimits(def, part);
  const maxPages = limits.maxPages;
  // A page assignment puts a site's pages on several workers: its connections are leased (site-leases.ts).
  const leases = def.model === 'page' ? await partLeases(nc, def.name, part, def.settings.w, def.replicas ?? 1) : null;
  // K workers share the machine's cores (their threads are sized from that share).
  const crawler = openPart(path, def, limits, { parts: exchange, crawlsOnMachine: def.parts, ...(leases ? { gate: leases } : {}) });
  const store = new ExchangeStore(crawler.ctx.store.db, part, crawler.ctx.store.writes);
  exchange.attach(crawler, store);
  // The exchange's timeline beside the crawl's: messages and bytes per part, the lease traffic.
  crawler.on('stats', (s: StatsSnapshot) => store.sample(s.crawlSeconds, s.at, leases?.traffic ?? null));
  let beat = 0;
  const pausedBefore = (await kv.get('pause'))?.revision ?? 0;
  const status = async (state: WorkerStatus['state']) => {
    if (leases) countLeaseTraffic(crawler, leases);
    const s = crawler.snapshot();
    const left = maxPages === null ? Infinity : maxPages - crawler.ctx.counters.pagesFetched;
    const st: WorkerStatus = {
      part, pid: process.pid, host: hostname(), idle: exchange.idle(left), pagesFetched: crawler.ctx.counters.pagesFetched, queued: s.queued,
      sent: exchange.sent, received: exchange.received, outbox: exchange.outboxSize(), leaseRequests: leases?.traffic.requests ?? 0, pagesPerSecond: s.pagesPerSecond, beat: ++beat, state,
    };
    await kv.put(`status.${part}`, JSON.stringify(st));
    if ((await kvText(kv, 'end')) !== null) return 'end';
    // Only a pause put after this worker began: one left by an earlier run (its coordinator
    // gone, the next not yet started) would pause a worker started before the next coordinator.
    const pause = await kv.get('pause');
    return pause && pause.operation === 'PUT' && pause.revision > pausedBefore ? 'pause' : null;
  };
  const pause = () => {
    exchange.stopPulling();
    crawler.pause();
  };
  let ticking = false;
  const timer = setInterval(() => {
    if (ticking) return;
    ticking = true;
    status('running')
      // The coordinator paused the crawl (Ctrl-C, a part's full disk): workers on other machines too.
      .then((say) => (say === 'end' ? exchange.end() : say === 'pause' ? pause() : undefined))
      .catch(() => {}) // the broker is away: the next tick tries again
      .finally(() => (ticking = false));
  }, STATUS_MS);
  const unwatch = lifeline.add(pause);
  try {
    const summary = await crawler.run();
    clearInterval(timer);
    // For the coordinator's view; bounded, as a worker pausing because its broker is away cannot write it.
    // A full disk is said so: the coordinator pauses the whole crawl (the other parts would go on, and it would never end).
    const state = summary.stopReason === 'paused' ? 'paused' : summary.stopReason === 'disk-full' ? 'disk-full' : 'ended';
    // Unanswered in 1 s (three round trips), and a ping unanswered too: the broker is not answering, not merely slow.
    if (!(await waitAtMost(status(state), 1000)) && !(await waitAtMost(nc.flush(), 300))) lifeline.brokerSilent = true;
    return summary;
  } finally {
    await exchange.close(lifeline.brokerSilent ? 0 : undefined); // a paused or failed run stops taking messages too, and hands back those it took since its last commit
    clearInterval(timer);
    unwatch();
    leases?.close();
    crawler.close();
  }
}

/** The lease traffic since the last call, kept in the part's counters (leases:requests, leases:bytes) apart from the exchange. */
const counted = new WeakMap<SiteLeases, { requests: number; bytes: number }>();
function countLeaseTraffic(crawler: Crawler, leases: SiteLeases): void {
  const before = counted.get(leases) ?? { requests: 0, bytes: 0 };
  crawler.ctx.counters.bump('leases:requests', leases.traffic.requests - before.requests);
  crawler.ctx.counters.bump('leases:bytes', leases.traffic.bytes - before.bytes);
  counted.set(leases, { ...leases.traffic });
}
