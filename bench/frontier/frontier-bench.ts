import { mkdirSync, readFileSync, rmSync, statSync, existsSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { validateSettings } from '../../core/config/settings.js';
import { CrawlCounters, type CrawlContext } from '../../core/engine/context.js';
import { discover, linkDepth } from '../../core/engine/discovery.js';
import { knownUrls } from '../../core/engine/page-processor.js';
import { SiteRegistry } from '../../core/engine/site-registry.js';
import { policyContext } from '../../core/engine/policy-context.js';
import { createPolicy } from '../../core/policies/registry.js';
import type { Clock } from '../../core/scheduler/clock.js';
import { Scheduler } from '../../core/scheduler/scheduler.js';
import { CrawlStore, type NewLink } from '../../core/store/crawl-store.js';
import { StoreWriter } from '../../core/store/store-writer.js';
import { threadPlan } from '../../core/engine/thread-plan.js';
import { Scope } from '../../core/url/scope.js';
import { SyntheticWeb } from './synthetic-web.js';

/**
 * The frontier of a national crawl without the network (issue 6, item 2): N discovered URLs
 * over S sites pushed through the real CrawlStore, discover() and Scheduler, with the
 * backlink-count policy re-ranking pending pages as links arrive. "Fetching" is simulated on
 * a virtual clock: take sessions from the scheduler in policy order, read each page's row as
 * the session runner does, record the fetch, and discover its ~10 links (new URLs and URLs
 * already known, same site and other sites). Writes are batched and committed at least every
 * second of wall time, as the crawler does. Ends when N distinct URLs have been discovered.
 *
 *   npm run bench:frontier [-- --urls 5000000 --sites 50000 --links-per-page 10 --new-share 0.5
 *                              --policy backlink-count --every 5000000 --no-link-rows --hashes --keep --json
 *                              --cpu-prof-at 1000000,19000000 --cpu-prof-urls 500000 --writer
 *                              --db FILE]
 *
 * The database is bench/out/frontier-URLS-SITES.db (replaced if there) unless --db names a new
 * file (an existing one is refused); it is removed at the end unless --keep.
 *
 * Every `--every` URLs (5M) it prints that stretch's URLs/s, CPU seconds, the peak RSS so far,
 * the database's size, the bytes the process wrote (/proc/self/io) and the machine's load, so
 * that a 50M run shows whether the rate holds as the file grows.
 * --cpu-prof-at profiles the CPU over the --cpu-prof-urls URLs that follow each of those counts
 * (bench/out/frontier-at-N.cpuprofile, for Chrome DevTools), to compare where time goes early
 * and late in one run as the file grows.
 * The store's writes run on a writer thread as a crawl's do when the machine's thread plan gives
 * one (engine/thread-plan.ts: a share of three cores, or CRAWLBENCH_WRITER=1); --writer gives it
 * one whatever the plan, so that a two-core machine measures what a larger one would do.
 * --hashes: each fetched page also claims a content hash of its own and keeps it on its row, as
 * a crawl's HTML pages do (CrawlStore.claimHash); without it no hash is written, as in every
 * figure docs/performance.md gives before "Content hashes claimed in memory".
 * Targets (issue 28): at least 100,000 URLs/s at 5M; at 50M, peak RSS at most 4 GB and the last
 * 5M's URLs/s at least half the first 5M's.
 */
const { values: flags } = parseArgs({
  options: {
    urls: { type: 'string', default: '5000000' },
    sites: { type: 'string', default: '50000' },
    seeds: { type: 'string', default: '1000' },
    'links-per-page': { type: 'string', default: '10' },
    'new-share': { type: 'string', default: '0.5' },
    policy: { type: 'string', default: 'backlink-count' },
    c: { type: 'string', default: '10' },
    r: { type: 'string', default: '256' },
    w: { type: 'string', default: '15000' },
    'no-link-rows': { type: 'boolean' },
    hashes: { type: 'boolean' },
    keep: { type: 'boolean' },
    json: { type: 'boolean' },
    seed: { type: 'string', default: '1' },
    every: { type: 'string', default: '5000000' },
    'cpu-prof-at': { type: 'string' },
    'cpu-prof-urls': { type: 'string', default: '500000' },
    writer: { type: 'boolean' },
    db: { type: 'string' },
  },
});
const targetUrls = Number(flags.urls);
const siteCount = Number(flags.sites);
const linksPerPage = Number(flags['links-per-page']);
const newShare = Number(flags['new-share']);
const writeLinks = !flags['no-link-rows'];
/** --hashes: each fetched page claims a content hash of its own (a 40-hex-digit string, as SHA-1's), as a crawl's HTML pages do. */
const claimHashes = flags.hashes === true;
const hex8 = (n: number) => (n >>> 0).toString(16).padStart(8, '0');

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const outDir = join(root, 'bench', 'out');
mkdirSync(outDir, { recursive: true });
const dbPath = flags.db === undefined ? join(outDir, `frontier-${targetUrls}-${siteCount}.db`) : resolve(flags.db);
const removeDb = () => {
  for (const suffix of ['', '-wal', '-shm', '.lock']) rmSync(dbPath + suffix, { force: true });
};
if (flags.db !== undefined && existsSync(dbPath)) {
  // Never a file the bench did not make: --db could name a crawl of the user's.
  process.stderr.write(`--db ${flags.db}: already exists; the bench writes a new file (choose another name)\n`);
  process.exit(2);
}
removeDb();
const dbFileBytes = () => ['', '-wal'].reduce((n, s) => n + (existsSync(dbPath + s) ? statSync(dbPath + s).size : 0), 0);

/** A virtual clock: time moves only when the bench moves it. */
class ManualClock implements Clock {
  t = Date.UTC(2026, 10, 22);
  now(): number {
    return this.t;
  }
  setTimer(): () => void {
    throw new Error('the frontier bench drives time itself');
  }
}

const web = new SyntheticWeb({ sites: siteCount, urls: targetUrls, seed: Number(flags.seed) });
const seedUrls = web.seedUrls(Math.min(Number(flags.seeds), siteCount));
const settings = validateSettings({
  seeds: seedUrls,
  scope: { suffixes: [web.suffix] },
  policy: String(flags.policy),
  w: Number(flags.w),
  c: Number(flags.c),
  r: Number(flags.r),
});
const clock = new ManualClock();
const store = CrawlStore.create(dbPath, settings);
store.tuneForCrawl(); // the crawler's page cache and checkpoint interval
// As a crawl's run does (crawler.ts): the read indexes (the Sites view's sort indexes, the
// frontier's by site) are dropped while it writes and built when it stops.
store.dropReadIndexes();
const policy = createPolicy(settings.policy, settings.policyParams, policyContext(settings));
const scheduler = new Scheduler({ clock, policy, r: settings.r, c: settings.c, w: settings.w, batch: settings.batch });
const ctx: CrawlContext = {
  settings,
  store,
  sites: new SiteRegistry(store),
  scheduler,
  policy,
  scope: new Scope({ ...settings.scope }),
  fetcher: null as never, // no network: nothing here fetches
  robots: null as never,
  counters: new CrawlCounters(),
  content: null,
  history: null,
};

// ---- measurement ------------------------------------------------------------------------
let peakRss = process.memoryUsage.rss();
const vmHwm = () => {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
};
const mib = (b: number) => Math.round(b / 2 ** 20);
/** Bytes this process has caused to be written to storage (the kernel's count, page cache write-back included). */
const writeBytes = () => {
  const m = /^write_bytes:\s+(\d+)/m.exec(readFileSync('/proc/self/io', 'utf8'));
  return m ? Number(m[1]) : NaN;
};
const cpu0 = process.cpuUsage();
/** This thread's own CPU (null on a Node without process.threadCpuUsage, as Node 20): the rest of the process's is the writer thread's, with V8's and libuv's helper threads. */
const threadCpu = (process as { threadCpuUsage?: (since?: NodeJS.CpuUsage) => NodeJS.CpuUsage }).threadCpuUsage;
const threadCpu0 = threadCpu?.call(process) ?? null;
const t0 = performance.now();
let lastCommit = t0;
let commits = 0;
let maxCommitGapMs = 0;
let pagesFetched = 0;
let linksSeen = 0;
let lastReport = t0;
const load0 = loadavg()[0]!;

/** One stretch of `--every` URLs: what it took, and where memory and the file stood at its end. */
interface Stretch {
  urls: number;
  seconds: number;
  urlsPerSecond: number;
  cpuSeconds: number;
  peakRssBytes: number;
  dbBytes: number;
  dbGrowthBytes: number;
  writtenBytes: number;
  /** With --expose-gc: the JS heap and the array buffers (typed arrays) live after a full GC at the stretch's end. */
  heapBytes: number | null;
  arrayBufferBytes: number | null;
  /** Bytes of the in-memory structures: URL fingerprints, page facts, the scheduler's heaps, the policy's per-page state. */
  structures: { urlIndex: number; pageFacts: number; queues: number; policy: number };
  load: number;
}
const every = Number(flags.every);
const stretches: Stretch[] = [];
let mark = { urls: 0, t: t0, cpu: 0, db: 0, written: writeBytes() };
const cpuSeconds = () => {
  const c = process.cpuUsage(cpu0);
  return (c.user + c.system) / 1e6;
};
/** Closes the stretch when the URLs known reach the next multiple of `every` (or the run ends). */
const stretchCheck = (final: boolean) => {
  const urls = web.discovered;
  if (!final && urls < (stretches.length + 1) * every) return;
  if (urls === mark.urls) return;
  const now = performance.now();
  const cpu = cpuSeconds();
  const db = dbFileBytes();
  const written = writeBytes();
  // A full GC (outside the stretch's time) shows what is live, not what awaits collection.
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const mem = gc ? process.memoryUsage() : null;
  const st: Stretch = {
    urls,
    seconds: Math.round((now - mark.t) / 100) / 10,
    urlsPerSecond: Math.round(((urls - mark.urls) * 1000) / (now - mark.t)),
    cpuSeconds: Math.round((cpu - mark.cpu) * 10) / 10,
    peakRssBytes: vmHwm(),
    dbBytes: db,
    dbGrowthBytes: db - mark.db,
    writtenBytes: written - mark.written,
    heapBytes: mem ? mem.heapUsed : null,
    arrayBufferBytes: mem ? mem.arrayBuffers : null,
    structures: { ...store.memoryBytes(), queues: scheduler.memoryBytes, policy: policy.memoryBytes?.() ?? 0 },
    load: Math.round(loadavg()[0]! * 100) / 100,
  };
  stretches.push(st);
  mark = { urls, t: performance.now(), cpu: cpuSeconds(), db, written };
  if (!flags.json) {
    process.stderr.write(
      `stretch to ${urls} URLs: ${st.urlsPerSecond} URLs/s over ${st.seconds} s (${st.cpuSeconds} CPU s), peak RSS ${mib(st.peakRssBytes)} MiB, ` +
        `database ${mib(db)} MiB (+${mib(st.dbGrowthBytes)}), written ${mib(st.writtenBytes)} MiB, load ${st.load}` +
        (mem ? `; after a full GC: heap ${mib(mem.heapUsed)} MiB, array buffers ${mib(mem.arrayBuffers)} MiB` : '') +
        `; URL index ${mib(st.structures.urlIndex)} MiB, page facts ${mib(st.structures.pageFacts)}, queues ${mib(st.structures.queues)}, policy ${mib(st.structures.policy)}` +
        '\n',
    );
  }
};

// ---- CPU profiles over windows of the run (--cpu-prof-at) --------------------------------
const profileAt = (flags['cpu-prof-at'] ?? '').split(',').filter(Boolean).map(Number).sort((a, b) => a - b);
const profileUrls = Number(flags['cpu-prof-urls']);
let profiling: { session: Session; from: number } | null = null;
const profileCheck = () => {
  const urls = web.discovered;
  if (profiling && urls >= profiling.from + profileUrls) {
    const { session, from } = profiling;
    profiling = null;
    session.post('Profiler.stop', (err, res) => {
      if (!err) writeFileSync(join(outDir, `frontier-at-${from}.cpuprofile`), JSON.stringify(res.profile));
      session.disconnect();
    });
  }
  if (!profiling && profileAt.length > 0 && urls >= profileAt[0]!) {
    const from = profileAt.shift()!;
    const session = new Session();
    session.connect();
    session.post('Profiler.enable', () => session.post('Profiler.start'));
    profiling = { session, from };
  }
};

/** The writes on a writer thread (--writer, or the thread plan), as a crawl's on a machine with cores to spare. */
const useWriter = flags.writer === true || threadPlan().writer;
let writer: StoreWriter | null = null;
const commit = () => {
  ctx.sites.flush();
  ctx.counters.flush(store);
  if (writer && !writer.canSeal) return; // as the crawler: the batch grows until one under way commits
  store.commit();
  store.begin();
  commits++;
  const now = performance.now();
  maxCommitGapMs = Math.max(maxCommitGapMs, now - lastCommit);
  lastCommit = now;
};

store.begin();
for (const url of seedUrls) discover(ctx, { url, depth: 0, parentId: null, redirects: 0, anchor: null, nofollow: false });
commit();
if (useWriter) {
  writer = StoreWriter.start({ path: dbPath, pragmas: CrawlStore.writerPragmas() });
  if (!writer) throw new Error('the writer thread is not built (dist/core/store/writer-thread.js: npm run build)');
  store.attachWriter(writer);
}
/** With a writer: lets its messages in, and waits while it is too far behind (the crawler's back-pressure). */
const yieldToWriter = async () => {
  if (!writer) return;
  const w = writer;
  await new Promise<void>((r) => setImmediate(r));
  while (w.behind && w.sealedPending > 0 && !w.failed) await new Promise<void>((r) => w.once('committed', () => r()));
  if (w.failed) throw w.failed;
};

// ---- the crawl loop ---------------------------------------------------------------------
const SESSION_MS = 200; // virtual time one connection takes
const targets: number[] = [];
const rows: NewLink[] = [];
const known = knownUrls(ctx);
let opsSinceCommit = 0;
outer: while (web.discovered < targetUrls) {
  const sessions = [];
  for (let s = scheduler.take(); s; s = scheduler.take()) sessions.push(s);
  if (sessions.length === 0) {
    const wake = scheduler.nextWakeAt();
    if (wake === null) break; // frontier drained before the target: the web is too small
    clock.t = Math.max(clock.t + 1, wake);
    continue;
  }
  for (const session of sessions) {
    const site = session.site;
    for (const p of session.pages) {
      const job = store.pageForFetch(p.id); // as the session runner loads a session's pages
      const hash = claimHashes ? hex8(Math.imul(p.id, 0x9e3779b1)) + hex8(p.id) + hex8(pagesFetched) + hex8(Math.imul(pagesFetched, 0x85ebca6b)) + hex8(~p.id) : null;
      const first = hash === null ? p.id : store.claimHash(hash, p.id);
      store.recordFetch(p.id, {
        status: first === p.id ? 'fetched' : 'duplicate', httpStatus: 200, contentType: 'text/html', bytes: 10_000, contentHash: hash,
        duplicateOf: first === p.id ? null : first,
        title: null, noindex: false, errorCode: null, attempts: job.attempts + 1, fetchedAt: clock.t, responseMs: 20,
      });
      pagesFetched++;
      site.pagesFetched++;
      ctx.sites.touch(site);
      scheduler.pageDone();
      targets.length = 0;
      rows.length = 0;
      // As the page processor does: links found from the page's depth (or a shorter one found while it
      // was queued), recently seen pages no deeper than that first, then discovery (which lowers the
      // depth of a page found by a shorter path); links in multi-row INSERTs.
      const depth = linkDepth(ctx, p.id, job.depth);
      for (const url of web.linksOf(job.url, linksPerPage, newShare)) {
        linksSeen++;
        const dst =
          known.get(url, depth + 1) ?? discover(ctx, { url, depth: depth + 1, parentId: p.id, redirects: 0, anchor: null, nofollow: false }, known);
        if (dst === null) continue;
        rows.push({ dst, anchor: null, nofollow: false, kind: 'a' });
        targets.push(dst);
      }
      if (writeLinks) store.insertLinks(p.id, rows);
      policy.onFetched?.(p.id, site, targets);
      opsSinceCommit++;
    }
    scheduler.finish(session, clock.t + SESSION_MS);
    // As the crawler: commit every 5,000 pages or every second, whichever comes first.
    if (opsSinceCommit >= 5000 || performance.now() - lastCommit >= 1000) {
      commit();
      await yieldToWriter();
      opsSinceCommit = 0;
      peakRss = Math.max(peakRss, process.memoryUsage.rss());
      stretchCheck(false);
      profileCheck();
      if (!flags.json && performance.now() - lastReport >= 10_000) {
        lastReport = performance.now();
        const s = (lastReport - t0) / 1000;
        process.stderr.write(
          `${s.toFixed(0)} s: ${web.discovered} URLs (${Math.round(web.discovered / s)}/s), ${pagesFetched} fetched, ` +
            `${scheduler.queuedPages} queued, rss ${mib(process.memoryUsage.rss())} MiB\n`,
        );
      }
    }
    if (web.discovered >= targetUrls) break outer;
  }
  clock.t += SESSION_MS;
}
commit();
store.commit();
if (writer) {
  await writer.drain();
  if (writer.failed) throw writer.failed;
  store.detachWriter();
  await writer.close();
}
stretchCheck(true);
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const crawlCpu = threadCpu0 === null ? null : threadCpu!.call(process, threadCpu0);
const crawlThreadCpuSeconds = crawlCpu === null ? null : Math.round(((crawlCpu.user + crawlCpu.system) / 1e6) * 10) / 10;
peakRss = Math.max(peakRss, process.memoryUsage.rss(), vmHwm());
// With --expose-gc: what is live (not yet collected garbage) at the end, heap and outside it.
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const mem = process.memoryUsage();
const totals = store.totals();
store.db.pragma('wal_checkpoint(TRUNCATE)');
const dbBytes = dbFileBytes();
const writtenBytes = writeBytes();
store.close();
if (!flags.keep) removeDb();

const result = {
  bench: 'frontier',
  date: new Date().toISOString(),
  policy: settings.policy,
  writerThread: useWriter,
  urlsTarget: targetUrls,
  sites: siteCount,
  urlsDiscovered: totals.pagesKnown,
  sitesDiscovered: totals.sites,
  pagesFetched,
  linkDiscoveries: linksSeen,
  linkRows: totals.links,
  queued: totals.queued,
  seconds: Math.round(seconds * 10) / 10,
  cpuSeconds: Math.round(((cpu.user + cpu.system) / 1e6) * 10) / 10,
  /** The crawl thread's share of cpuSeconds (null on a Node without process.threadCpuUsage, as Node 20). */
  crawlThreadCpuSeconds,
  urlsPerSecond: Math.round(totals.pagesKnown / seconds),
  linkDiscoveriesPerSecond: Math.round(linksSeen / seconds),
  dequeuedPerSecond: Math.round(pagesFetched / seconds),
  peakRssBytes: peakRss,
  liveHeapBytes: gc ? mem.heapUsed : null,
  externalBytes: gc ? mem.external + mem.arrayBuffers : null,
  dbBytes,
  writtenBytes,
  stretches,
  commits,
  maxCommitGapMs: Math.round(maxCommitGapMs),
  loadAverage: [load0, ...loadavg()].map((x) => Math.round(x * 100) / 100),
  targets: { urlsPerSecond: 100_000, peakRssBytes: 4 * 2 ** 30, lastStretchShare: 0.5 },
};
const first = stretches[0];
const last = stretches[stretches.length - 1];
const lastShare = first && last ? last.urlsPerSecond / first.urlsPerSecond : NaN;
if (flags.json) {
  process.stdout.write(JSON.stringify(result) + '\n');
} else {
  const ok = (b: boolean) => (b ? 'ok' : 'MISSED');
  process.stdout.write(
    [
      `frontier: ${result.urlsDiscovered} URLs on ${result.sitesDiscovered} sites (${result.policy}, ${useWriter ? 'writes on a writer thread' : 'writes on the crawl thread'}), ` +
        `${pagesFetched} pages dequeued, ${linksSeen} links discovered, ${result.queued} still queued`,
      `  time           ${result.seconds} s wall, ${result.cpuSeconds} s CPU` +
        (crawlThreadCpuSeconds === null ? '' : ` (crawl thread ${crawlThreadCpuSeconds} s, other threads ${Math.round((result.cpuSeconds - crawlThreadCpuSeconds) * 10) / 10} s)`) +
        ` (load ${load0.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end)`,
      `  URLs/s         ${result.urlsPerSecond}  (target >= 100000 at 5M: ${ok(result.urlsPerSecond >= 100_000)})`,
      `  links/s        ${result.linkDiscoveriesPerSecond}, dequeued pages/s ${result.dequeuedPerSecond}`,
      `  peak RSS       ${mib(peakRss)} MiB  (target <= 4096 MiB: ${ok(peakRss <= 4 * 2 ** 30)})` +
        (gc ? `; after a full GC: heap ${mib(mem.heapUsed)} MiB, array buffers ${mib(mem.arrayBuffers)} MiB, rss ${mib(mem.rss)} MiB` : ''),
      `  database       ${mib(dbBytes)} MiB, ${commits} commits, longest gap between commits ${result.maxCommitGapMs} ms`,
      `  written        ${mib(writtenBytes)} MiB (write_bytes of /proc/self/io)`,
      ...(stretches.length > 1
        ? [`  last stretch   ${last!.urlsPerSecond} URLs/s, ${(lastShare * 100).toFixed(0)}% of the first's ${first!.urlsPerSecond} (target >= 50%: ${ok(lastShare >= 0.5)})`]
        : []),
      '  stretch         URLs/s   time s  CPU s  peak RSS MiB  heap MiB  arrays MiB  database MiB  +MiB  written MiB  load',
      ...stretches.map(
        (st) =>
          `  to ${String(st.urls).padStart(10)} ${String(st.urlsPerSecond).padStart(7)} ${String(st.seconds).padStart(8)} ${String(st.cpuSeconds).padStart(6)} ` +
          `${String(mib(st.peakRssBytes)).padStart(13)} ${String(st.heapBytes === null ? '-' : mib(st.heapBytes)).padStart(9)} ` +
          `${String(st.arrayBufferBytes === null ? '-' : mib(st.arrayBufferBytes)).padStart(11)} ` +
          `${String(mib(st.dbBytes)).padStart(13)} ${String(mib(st.dbGrowthBytes)).padStart(5)} ` +
          `${String(mib(st.writtenBytes)).padStart(12)} ${st.load.toFixed(2).padStart(5)}`,
      ),
      '  memory (MiB)    URL index  page facts  queues  policy  (typed arrays at the stretch\'s end)',
      ...stretches.map(
        (st) =>
          `  to ${String(st.urls).padStart(10)} ${String(mib(st.structures.urlIndex)).padStart(10)} ${String(mib(st.structures.pageFacts)).padStart(11)} ` +
          `${String(mib(st.structures.queues)).padStart(7)} ${String(mib(st.structures.policy)).padStart(7)}`,
      ),
    ].join('\n') + '\n',
  );
}
