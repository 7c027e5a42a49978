import { EventEmitter } from 'node:events';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { clipped, CrawlError, ErrorCodes, isDiskFull } from '../errors.js';
import { conflictingSettings, validateSettings, type CrawlSettings, type CrawlSettingsInput } from '../config/settings.js';
import { HttpFetcher } from '../fetch/fetcher.js';
import type { Fetcher } from '../fetch/interfaces.js';
import { createPolicy } from '../policies/registry.js';
import { RealClock, type Clock } from '../scheduler/clock.js';
import { IpGate } from '../scheduler/ip-gate.js';
import { Scheduler, type Session } from '../scheduler/scheduler.js';
import { ContentStore } from '../store/content-store.js';
import { CrawlStore, type CrawlState } from '../store/crawl-store.js';
import type { StoreWriter } from '../store/store-writer.js';
import { CrawlThreads, sizePragmas, type CrawlThreadOptions } from './crawl-threads.js';
import { TimelineWriter } from '../store/timeline.js';
import { canonicalize } from '../url/canonical.js';
import { Scope } from '../url/scope.js';
import { CrawlCounters, type CrawlContext, type PartHook, type SiteGate } from './context.js';
import { discover } from './discovery.js';
import { RobotsCache } from './robots-cache.js';
import { knownUrls } from './page-processor.js';
import { HistoryPages } from '../store/history-pages.js';
import { policyContext } from './policy-context.js';
import { replayPolicy } from './policy-replay.js';
import { runSession, type SessionResult } from './session-runner.js';
import { checkShortW } from './short-w-guard.js';
import { crawlSiteWait } from './small-sites.js';
import { SiteRegistry } from './site-registry.js';
import { LiveStats, type StatsSnapshot } from './stats.js';

/** meta key of the last run's end (EndReason as JSON). */
export const END_REASON = 'end_reason';
/** meta key: the crawl's running time in seconds over all its runs (the timeline's clock). */
export const CRAWL_SECONDS = 'crawl_seconds';
/** counters row: pages of this crawl found in its history crawl (historical policies). */
export const HISTORY_MATCHED = 'history:matched';

/** Why a crawl's last run ended, as stored with it. */
export interface EndReason {
  kind: 'finished' | 'max-pages' | 'paused' | 'stopped' | 'disk-full' | 'failed';
  /** ISO time. */
  at: string;
  /** The error, for 'failed'. */
  message?: string;
}

/** Commit the write batch at least this often: at most about a second of work is ever lost. */
const COMMIT_EVERY_MS = 1000;
const COMMIT_EVERY_OPS = 5000;
/**
 * A parallel crawl's worker with nothing to fetch commits this soon after it went idle, not at
 * the next second: the URLs it took in are acknowledged and those it found for other parts
 * published at once (each commit-per-second wait delayed a URL's way to its owner, and the
 * crawl's end, by up to a second). The wait lets a burst of messages share one commit.
 */
const IDLE_COMMIT_MS = 50;

export interface CrawlSummary {
  db: string;
  state: CrawlState;
  stopReason: 'finished' | 'max-pages' | 'paused' | 'disk-full' | 'stopped';
  pagesFetched: number;
  pagesKnown: number;
  sites: number;
  links: number;
  bytes: number;
  seconds: number;
  pagesPerSecond: number;
  peakRssBytes: number;
  errors: Record<string, number>;
  queued: number;
}

export interface CrawlerOptions extends CrawlThreadOptions {
  clock?: Clock;
  fetcher?: Fetcher;
  /** A parallel crawl's worker (core/parallel): the URLs it owns and where the others go. */
  parts?: PartHook;
  /** A parallel crawl's worker with a page assignment: the site leases shared with the other workers. */
  gate?: SiteGate;
  /**
   * create(): the settings are a crawl's stored ones (a parallel part made from its
   * coordinator's definition), checked when that crawl was created, by this version or an
   * earlier one: its exclude patterns are not refused again (plan()).
   */
  stored?: boolean;
}

/** How long a session waits when the site gate could not be asked (the broker is away). */
const GATE_RETRY_MS = 1000;

/**
 * One crawl: its database, scheduler, policy and fetcher, driven by an event loop that
 * keeps up to r sessions (connections) running. Created from settings, or reopened from
 * its file to resume with the settings it was started with.
 */
export class Crawler extends EventEmitter {
  readonly ctx: CrawlContext;
  private readonly clock: Clock;
  private readonly stats: LiveStats;
  private readonly inFlight = new Set<Promise<void>>();
  private inFlightPages = 0;
  private stopReason: CrawlSummary['stopReason'] | null = null;
  private timer: (() => void) | null = null;
  private timerAt = Infinity;
  private commitTimer: NodeJS.Timeout | null = null;
  private idleCommit: NodeJS.Timeout | null = null;
  private opsSinceCommit = 0;
  private done: ((s: CrawlSummary) => void) | null = null;
  private failed: ((e: unknown) => void) | null = null;
  private startedAt = 0;
  private peakRss = 0;
  private readonly ipGate: IpGate;
  private readonly gate: SiteGate | null;
  /** The run's writer and parse threads (crawl-threads.ts). */
  private readonly threads: CrawlThreads;
  /** The run's writer thread, while it runs (null: the writes run on this thread). */
  private get writer(): StoreWriter | null {
    return this.threads.writer;
  }
  /** A batch is due but the writer has too many under way: seal it when the next commits. */
  private sealWanted = false;
  /** The run is ending: its last batches are being committed. */
  private finishing = false;

  private constructor(store: CrawlStore, settings: CrawlSettings, opts: CrawlerOptions) {
    super();
    this.clock = opts.clock ?? new RealClock();
    const policy = createPolicy(settings.policy, settings.policyParams, policyContext(settings));
    const scheduler = new Scheduler({ clock: this.clock, policy, r: settings.r, c: settings.c, w: settings.w, waitFor: crawlSiteWait(settings), batch: settings.batch });
    const sites = new SiteRegistry(store);
    const seedHosts = settings.seeds.map((s) => new URL(s).hostname);
    const content = settings.storeContent ? new ContentStore(`${store.path}.content`, settings.contentBudget, contentBytes(`${store.path}.content`)) : null;
    // A history crawl: its pages are asked for only if they changed (unless --unconditional).
    const historyPath = settings.policyParams.history;
    // A file of qualities (URL<TAB>quality, .tsv) guides the order only: it holds no validators.
    const past = typeof historyPath === 'string' && settings.conditional && !historyPath.endsWith('.tsv') ? HistoryPages.open(historyPath) : null;
    this.historyNote = past?.note ?? null;
    this.ctx = {
      settings,
      store,
      sites,
      scheduler,
      policy,
      // The stored patterns, checked when the crawl was created (by this version or an earlier one).
      scope: new Scope({ ...settings.scope, seedHosts, checkExcludes: false }),
      fetcher: opts.fetcher ?? new HttpFetcher({ ...settings, resolve: settings.resolve, captureRaw: settings.storeContent }),
      robots: new RobotsCache(store, settings.userAgent),
      counters: new CrawlCounters(),
      content,
      history: past?.history ?? null,
      ...(opts.parts ? { parts: opts.parts } : {}),
    };
    this.ipGate = new IpGate(settings.w);
    this.gate = opts.gate ?? null;
    this.stats = new LiveStats(this.clock);
    this.threads = new CrawlThreads(this.ctx, opts);
    this.timeline = new TimelineWriter(store.writes);
    this.crawlSecondsBefore = Number(store.getMeta(CRAWL_SECONDS) ?? 0) || 0;
    for (const site of sites.all()) scheduler.addSite(site);
    store.tuneForCrawl();
    for (const p of sizePragmas(settings, store)) store.db.pragma(p);
  }

  /** The writer committed a batch: said to listeners, and work held back for it goes on. */
  private committed(batch: number): void {
    this.emit('commit', batch);
    if (this.sealWanted) this.safely(() => this.flush());
    if (this.done && !this.finishing) this.pump();
  }

  /** Starts a new crawl in a new database file. Bad settings or seeds: nothing is written. */
  static create(path: string, input: CrawlSettingsInput, opts: CrawlerOptions = {}): Crawler {
    if (existsSync(path)) throw new CrawlError(ErrorCodes.SETTINGS_CONFLICT, `${path}: already exists; resume it or choose another file`);
    return Crawler.createPlanned(path, Crawler.plan(input, { stored: opts.stored === true }), opts);
  }

  /** create() with the settings plan() gave (checked once: 8 s for a million seeds). */
  static createPlanned(path: string, settings: CrawlSettings, opts: CrawlerOptions = {}): Crawler {
    if (existsSync(path)) throw new CrawlError(ErrorCodes.SETTINGS_CONFLICT, `${path}: already exists; resume it or choose another file`);
    const store = CrawlStore.create(path, settings);
    const crawler = new Crawler(store, settings, opts);
    store.begin();
    for (const url of settings.seeds) discover(crawler.ctx, { url, depth: 0, parentId: null, redirects: 0, anchor: null, nofollow: false });
    crawler.flush();
    return crawler;
  }

  /**
   * The settings a new crawl would have, checked as create() checks them (seeds, settings,
   * policy, scope), without writing anything: for checks that must come before the file
   * exists (engine/short-w-guard.ts).
   */
  static plan(input: CrawlSettingsInput, opts: { stored?: boolean } = {}): CrawlSettings {
    // A Set, not includes(): a seed file of 230,000 URLs took 8 minutes to check with includes().
    const unique = new Set<string>();
    for (const raw of input.seeds ?? []) {
      const url = canonicalize(raw.trim());
      if (!url) throw new CrawlError(ErrorCodes.BAD_SEED, `seed ${shownSeed(raw)} is not an http(s) URL${/^\uFEFF?\0|\0/.test(raw) ? ' (NUL bytes: a UTF-16 file? seed files are UTF-8 text)' : ''}`);
      unique.add(url);
    }
    const seeds = [...unique];
    if (seeds.length === 0) throw new CrawlError(ErrorCodes.BAD_SEED, 'no seed URL given (use --seed URL or --seeds FILE)');
    const settings = validateSettings({ ...input, seeds });
    createPolicy(settings.policy, settings.policyParams, policyContext(settings)); // fail on a bad policy before creating the file
    // A new crawl's exclude patterns are checked (url/user-regex.ts); stored ones were when their crawl was made.
    const scope = new Scope({ ...settings.scope, seedHosts: seeds.map((s) => new URL(s).hostname), checkExcludes: opts.stored !== true });
    for (const seed of seeds) {
      const problem = scope.check(seed);
      if (problem === ErrorCodes.URL_TOO_LONG) throw new CrawlError(ErrorCodes.SEED_OUT_OF_SCOPE, `seed ${shownSeed(seed)} is longer than the crawl's URL limit (${settings.scope.maxUrlLength} characters)`);
      if (problem !== null) throw new CrawlError(ErrorCodes.SEED_OUT_OF_SCOPE, `seed ${shownSeed(seed)} is outside the crawl's scope${problem === 'excluded' ? ' (an --exclude pattern matches it)' : ''}`);
    }
    return settings;
  }

  /** Reopens a crawl to resume it; `overrides` may change only the run settings (e.g. maxPages). */
  static open(path: string, overrides: Partial<CrawlSettingsInput> = {}, opts: CrawlerOptions = {}): Crawler {
    const store = CrawlStore.open(path);
    try {
      // A stopped crawl is not resumed, but left with its read indexes if a kill cut their build short.
      if (store.state() === 'stopped') store.completeReadIndexes();
      const settings = Crawler.resumeSettings(store, overrides);
      store.saveSettings(settings);
      const crawler = new Crawler(store, settings, opts);
      crawler.loadFrontier();
      replayPolicy(crawler.ctx);
      return crawler;
    } catch (err) {
      store.close();
      throw err;
    }
  }

  /**
   * What open() refuses (a stopped crawl, one another process writes, settings that conflict),
   * checked without loading the crawl (its frontier, its policy's replay: a minute and more for
   * millions of fetched pages): the settings it would resume with. Takes the lock a moment
   * (and brings an older file up to this schema, as open() would).
   */
  static resumable(path: string, overrides: Partial<CrawlSettingsInput> = {}): CrawlSettings {
    const store = CrawlStore.open(path);
    try {
      return Crawler.resumeSettings(store, overrides);
    } finally {
      store.close();
    }
  }

  /** The stored settings with the run's overrides; refuses a stopped crawl and overrides that conflict. */
  private static resumeSettings(store: CrawlStore, overrides: Partial<CrawlSettingsInput>): CrawlSettings {
    const path = store.path;
    if (store.state() === 'stopped') {
      throw new CrawlError(ErrorCodes.CRAWL_STOPPED, `${path}: this crawl was stopped for good; start a new crawl (it can serve as the new one's history)`);
    }
    const stored = store.settings();
    const conflicts = conflictingSettings(stored, overrides);
    if (conflicts.length > 0) {
      throw new CrawlError(
        ErrorCodes.SETTINGS_CONFLICT,
        `${path}: the crawl was started with other settings for ${conflicts.join(', ')}; omit those flags to resume it`,
      );
    }
    return validateSettings({ ...stored, ...withoutUndefined(overrides) });
  }

  private loadFrontier(): void {
    const { store, scheduler } = this.ctx;
    for (const row of store.loadFrontier()) {
      const site = scheduler.site(row.site_id);
      if (site) scheduler.enqueue(site, row.page_id, row.priority);
    }
    const totals = store.totals();
    this.ctx.counters.pagesFetched = totals.pagesFetched;
    this.ctx.counters.bytes = totals.bytes;
    this.ctx.counters.links = totals.links;
    for (const [code, n] of Object.entries(store.errorsByKind())) this.ctx.counters.errors.set(code, n);
    this.historyMatched = store.counters()[HISTORY_MATCHED] ?? 0;
  }

  /**
   * Records a crawl that is not running as stopped for good (state, end reason, read
   * indexes), as stop() does for a running one. A finished crawl stays finished. A finished
   * or stopped crawl whose process was killed while building its read indexes (end) gets them.
   */
  static stopStored(path: string): void {
    const store = CrawlStore.open(path);
    try {
      const state = store.state();
      if (state === 'finished' || state === 'stopped') {
        store.completeReadIndexes();
        return;
      }
      store.begin();
      store.setState('stopped');
      store.event('stop', { message: 'stopped' });
      store.setMeta(END_REASON, JSON.stringify({ kind: 'stopped', at: new Date().toISOString() } satisfies EndReason));
      store.commit();
      store.buildReadIndexes();
    } finally {
      store.close();
    }
  }

  get settings(): CrawlSettings {
    return this.ctx.settings;
  }

  /**
   * Runs until the frontier is empty, maxPages is reached, or pause() or stop() is called.
   * A crawl that would reach real servers with an unconfirmed w below 1 s is refused before
   * anything is fetched (short-w-guard.ts); an injected fetcher reaches no server.
   */
  async run(): Promise<CrawlSummary> {
    if (this.ctx.fetcher instanceof HttpFetcher) await checkShortW(this.ctx.settings);
    return this.loop();
  }

  private loop(): Promise<CrawlSummary> {
    const { store } = this.ctx;
    this.startedAt = this.clock.now();
    this.stats.start(this.ctx.counters.pagesFetched, this.ctx.counters.bytes);
    store.commit();
    store.dropReadIndexes();
    this.threads.start(
      (batch) => this.committed(batch),
      (err) => this.fail(err),
    );
    store.begin();
    store.setState('running');
    store.event('start');
    if (this.historyNote) store.event('note', { message: this.historyNote });
    this.commitTimer = setInterval(() => this.safely(() => this.flush()), COMMIT_EVERY_MS);
    this.runStartedAt = this.clock.now();
    const statsTimer = setInterval(() => this.safely(() => this.sample()), 1000);
    return new Promise<CrawlSummary>((resolve, reject) => {
      this.done = resolve;
      this.failed = reject;
      this.pump();
    }).finally(() => {
      clearInterval(statsTimer);
      this.stopCommitTimers();
      // The last counters to the listeners (Live), so a run shorter than a second, and the
      // second after the last sample, is seen too (the stored timeline keeps its samples).
      this.safely(() => this.emit('stats', this.snapshot()));
    });
  }

  /** Stops taking new work, lets open connections finish their current request, commits. */
  pause(): void {
    if (!this.stopReason) this.stopReason = 'paused';
    this.pump();
  }

  /**
   * Ends the crawl for good: as pause(), then the crawl is recorded as stopped by the user
   * (never resumed) and gets its read indexes, so every analysis can run on it.
   */
  stop(): void {
    if (!this.stopReason || this.stopReason === 'paused') this.stopReason = 'stopped';
    this.pump();
  }

  /** The crawl's running time in seconds: earlier runs (stored) plus this one so far. */
  crawlSeconds(): number {
    return this.crawlSecondsBefore + (this.runStartedAt === null ? 0 : (this.clock.now() - this.runStartedAt) / 1000);
  }

  /** Once a second: the stats sample, into the timeline (same write batch as the pages) and to listeners. */
  private sample(): void {
    const s = this.snapshot();
    if (!this.diskFull) {
      this.timeline.append({ ...s, t: s.crawlSeconds, errors: s.errorTotal });
    }
    this.emit('stats', s);
  }

  snapshot(): StatsSnapshot {
    const rss = process.memoryUsage.rss();
    if (rss > this.peakRss) this.peakRss = rss;
    const { scheduler, counters } = this.ctx;
    return this.stats.snapshot({
      pages: counters.pagesFetched,
      bytes: counters.bytes,
      openConnections: scheduler.openConnections,
      sitesWithPending: scheduler.sitesWithPending,
      queued: scheduler.queuedPages,
      errors: Object.fromEntries(counters.errors),
      r: this.ctx.settings.r,
      pagerankEstimate: (this.ctx.policy as { estimate?: () => number | null }).estimate?.() ?? null,
      crawlSeconds: this.crawlSeconds(),
      historyMatched: this.ctx.policy.historyMatched?.() ?? null,
    });
  }

  // ---- the loop ---------------------------------------------------------------------
  private pump(): void {
    const { scheduler, settings } = this.ctx;
    // Pages still allowed by --max-pages, counting those on their way.
    const budget = () =>
      settings.maxPages === null ? Infinity : settings.maxPages - this.ctx.counters.pagesFetched - this.inFlightPages;
    // A writer far behind (a slow disk): no new connection until it catches up (memory stays bounded).
    if (this.stopReason === null && !this.writer?.behind) {
      for (let left = budget(); left > 0; left = budget()) {
        const session = scheduler.take(left);
        if (!session) break;
        this.start(session);
      }
    }
    if (this.inFlight.size === 0) {
      if (this.stopReason !== null) return this.finish(this.stopReason);
      // A parallel crawl's worker waits for other workers' URLs until the coordinator ends the crawl.
      const hold = this.ctx.parts?.holdOpen() ?? false;
      if (budget() <= 0 && !hold) return this.finish('max-pages');
      if (scheduler.drained && !hold) return this.finish('finished');
      if (hold && (scheduler.drained || budget() <= 0)) this.commitIdle();
    }
    this.armTimer();
  }

  /** A worker waiting for other workers' URLs commits what it has, IDLE_COMMIT_MS from now (only when it has something: a commit wakes the loop again). */
  private commitIdle(): void {
    if (this.idleCommit !== null || (this.opsSinceCommit === 0 && !this.tookIn)) return;
    this.idleCommit = setTimeout(() => {
      this.idleCommit = null;
      this.safely(() => this.flush());
    }, IDLE_COMMIT_MS);
  }

  /** Wakes the loop when the next snoozed site may be contacted. */
  private armTimer(): void {
    if (this.stopReason !== null) return;
    const at = this.ctx.scheduler.nextWakeAt();
    if (at === null || at >= this.timerAt) return;
    this.timer?.();
    this.timerAt = at;
    this.timer = this.clock.setTimer(at, () => {
      this.timer = null;
      this.timerAt = Infinity;
      this.pump();
    });
  }

  /** Takes up new work (pages discovered from outside the loop: a parallel crawl's other workers). */
  wake(): void {
    this.tookIn = true;
    if (this.done) this.pump();
  }
  /** Work taken up from outside (wake) since the last commit: an idle worker commits it (commitIdle). */
  private tookIn = false;

  private stopCommitTimers(): void {
    if (this.commitTimer) clearInterval(this.commitTimer);
    if (this.idleCommit) clearTimeout(this.idleCommit);
    this.commitTimer = null;
    this.idleCommit = null;
  }

  /** Sessions (connections) under way. */
  get sessionsInFlight(): number {
    return this.inFlight.size;
  }

  private start(session: Session): void {
    this.inFlightPages += session.pages.length;
    const p = this.session(session)
      .catch((err) => this.fail(err))
      .finally(() => {
        this.inFlightPages -= session.pages.length;
        this.inFlight.delete(p);
        this.pump();
      });
    this.inFlight.add(p);
  }

  private async session(session: Session): Promise<void> {
    const { scheduler, settings } = this.ctx;
    const site = session.site;
    let ip: string | null = null;
    if (settings.perIp) {
      // Politeness per address as well: several sites on one shared host count as one.
      try {
        ip = await this.ctx.fetcher.address(new URL(this.ctx.store.pageUrl(session.pages[0]!.id)).hostname);
      } catch {
        ip = null;
      }
      const now = this.clock.now();
      const wait = ip === null ? null : this.ipGate.acquire(ip, now);
      if (wait !== null) {
        scheduler.finish(session, now, session.pages, wait);
        return;
      }
      if (ip !== null) site.ip = ip; // kept with the site: the simulator groups a crawl's sites by it
    }
    const gate = this.gate;
    if (gate) {
      // Politeness across workers: the site's lease, held for this one connection.
      const wait = await gate.tryAcquire(site.host, scheduler.connectionGap(site)).catch(() => GATE_RETRY_MS);
      if (wait !== null) {
        const now = this.clock.now();
        if (ip !== null) this.ipGate.release(ip, now, 0); // no connection was made
        scheduler.finish(session, now, session.pages, Math.max(0, wait - scheduler.connectionGap(site)));
        return;
      }
    }
    const leaseLost = () => gate !== null && gate.isLost(site.host);
    let result: SessionResult;
    try {
      result = await runSession(this.ctx, session, () => this.stopReason !== null || leaseLost());
    } finally {
      if (leaseLost()) this.ctx.counters.error(ErrorCodes.LEASE_LOST);
      void gate?.release(site.host, scheduler.connectionGap(site)).catch(() => {});
    }
    if (ip !== null) this.ipGate.release(ip, result.endedAt, scheduler.connectionGap(site));
    this.ctx.sites.touch(site);
    scheduler.finish(session, result.endedAt, result.returned, result.extraDelayMs);
    if (result.park) this.park(site, result.park);
    this.opsSinceCommit += session.pages.length;
    if (this.opsSinceCommit >= COMMIT_EVERY_OPS || this.writer?.full) this.flush();
  }

  private park(site: Session['site'], code: string): void {
    const { store, scheduler, sites } = this.ctx;
    const pending = scheduler.park(site);
    for (const id of pending) store.finishPage(id, 'skipped', code, 0);
    sites.row(site).parked = code;
    store.event('park', { siteId: site.id, code, message: `${site.host} parked` });
    this.ctx.counters.bump(`sites:parked:${code}`);
  }

  /**
   * Commits the current write batch and opens the next. With a writer thread the batch is
   * handed to it ('commit' follows when it is committed); when it already has batches under
   * way the batch stays open and grows, and is sealed as soon as one commits.
   */
  private flush(force = false): void {
    if (this.diskFull) return;
    const { store, sites, counters, policy } = this.ctx;
    const writer = this.writer;
    if (writer && !writer.canSeal && !force) {
      this.sealWanted = true;
      return;
    }
    const matched = policy.historyMatched?.();
    if (matched !== undefined && matched !== this.historyMatched) {
      // A gauge kept as a counter: the pages of this crawl found in its history crawl.
      counters.bump(HISTORY_MATCHED, matched - this.historyMatched);
      this.historyMatched = matched;
    }
    sites.flush();
    counters.flush(store);
    if (this.runStartedAt !== null) store.setMeta(CRAWL_SECONDS, String(this.crawlSeconds()));
    store.commit();
    this.opsSinceCommit = 0;
    this.tookIn = false;
    this.sealWanted = false;
    if (writer) return;
    if (this.done) store.begin();
    // Every write so far is committed (with a writer, 'commit' carries the batch's number).
    this.emit('commit', Infinity);
  }

  private readonly timeline: TimelineWriter;
  /** Running time of the earlier runs (meta crawl_seconds), and when this run started (clock ms). */
  private crawlSecondsBefore = 0;
  private runStartedAt: number | null = null;

  /** What the counters table holds for HISTORY_MATCHED (set on open). */
  private historyMatched = 0;
  /** Why a history crawl gives no conditional requests (it stored no validators), said once per run. */
  private readonly historyNote: string | null;

  private safely(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.fail(err);
    }
  }

  private fail(err: unknown): void {
    if (isDiskFull(err)) {
      // Disk (or the --max-db-size budget) is full: keep the last committed batch and pause.
      // Writes of sessions still in flight go into a batch that is never committed.
      this.stopReason = 'disk-full';
      this.diskFull = true;
      if (this.writer) {
        // Given up when the run ends (end()), once the writer has no batch under way.
        if (this.done && !this.finishing) this.pump();
        return;
      }
      knownUrls(this.ctx).clear(); // some of its pages were in the batch rolled back
      try {
        this.rollback();
        this.ctx.store.begin();
      } catch {
        /* the transaction may already be gone */
      }
      return;
    }
    this.stopReason = 'paused';
    const reject = this.failed;
    this.done = null;
    this.failed = null;
    this.cleanup();
    const message = (err as Error)?.message ?? String(err);
    if (this.writer) {
      if (this.failing) return;
      this.failing = true;
      void this.endFailed(message).finally(() => reject?.(err));
      return;
    }
    this.recordEnd('failed', message);
    reject?.(err);
  }
  private failing = false;

  /** A failed run with a writer: its batches under way committed, the open one given up, the end recorded. */
  private async endFailed(message: string): Promise<void> {
    const { store } = this.ctx;
    try {
      await this.writer!.drain();
      knownUrls(this.ctx).clear();
      this.rollback();
      this.recordEnd('failed', message);
      store.commit();
    } catch {
      /* nothing more can be recorded */
    }
    await this.threads.close();
  }

  /**
   * Stores why the run ended (finished, max-pages, paused, stopped, disk-full, failed) with
   * the time, so a reopened crawl says it. A failed run's unfinished batch is rolled back
   * first (its work is redone on resume, as after a kill); best effort, the file may be the
   * very thing that failed.
   */
  private recordEnd(kind: EndReason['kind'], message?: string): void {
    const { store } = this.ctx;
    const alone = kind === 'failed' && !this.writer;
    try {
      if (alone) {
        this.rollback();
        store.begin();
      }
      store.setMeta(END_REASON, JSON.stringify({ kind, at: new Date().toISOString(), ...(message ? { message } : {}) } satisfies EndReason));
      if (alone) store.commit();
    } catch {
      /* nothing more can be recorded */
    }
  }
  private diskFull = false;

  private finish(reason: CrawlSummary['stopReason']): void {
    if (!this.done || this.finishing) return;
    this.finishing = true;
    this.timer?.();
    // The end commits what is left itself: a timer's flush while the writer closes would open a batch outside it.
    this.stopCommitTimers();
    void this.end(reason).catch((err) => this.fail(err));
  }

  /** The run's last batch: its state and end, committed (with a writer: every batch committed, the thread ended); then the read indexes. */
  private async end(reason: CrawlSummary['stopReason']): Promise<void> {
    const { store } = this.ctx;
    const state: CrawlState = reason === 'finished' ? 'finished' : reason === 'stopped' ? 'stopped' : 'paused';
    if (!this.diskFull) {
      store.setState(state);
      store.event(reason === 'finished' ? 'finish' : reason === 'stopped' ? 'stop' : 'pause', { message: reason });
      this.recordEnd(reason);
      this.flush(true);
      // A batch the writer finds no room for makes this run disk-full after all (fail()).
      await this.writer?.drain();
    }
    if (!this.done) return; // failed meanwhile: fail() ends the run
    if (this.diskFull) await this.endDiskFull();
    store.commit();
    await this.threads.close();
    if ((state === 'finished' || state === 'stopped') && !this.diskFull) {
      // Best effort: without them a finished crawl still reads, by scanning. Each CREATE INDEX
      // runs on its own (outside a batch), so a failure (disk full) is rolled back by SQLite
      // and leaves the crawl as it was. A kill from here on leaves them incomplete under the
      // committed state: the next open for writing, stopStored or workbench read of the crawl
      // builds them (completeReadIndexes).
      // Several seconds per million pages: say so before the crawl seems to hang at its end.
      this.emit('indexing');
      try {
        store.buildReadIndexes();
      } catch {
        // nothing to undo
      }
    }
    const done = this.done;
    this.done = null;
    done?.(this.summary(reason));
  }

  /** Gives up the writes not committed (store.rollback), and says so: a parallel worker hands back the messages whose URLs they held. */
  private rollback(): void {
    this.ctx.store.rollback();
    this.emit('rollback');
  }

  /** A disk-full run: everything not committed given up, the crawl recorded as paused for lack of room. */
  private async endDiskFull(): Promise<void> {
    const { store } = this.ctx;
    await this.writer?.drain();
    knownUrls(this.ctx).clear();
    try {
      this.rollback();
      store.begin();
      store.setState('paused');
      store.event('pause', { code: ErrorCodes.DISK_FULL, message: 'disk full' });
      this.recordEnd('disk-full');
      store.commit();
      await this.writer?.drain();
      if (this.writer?.failed) this.rollback();
    } catch {
      this.rollback();
    }
  }

  summary(reason: CrawlSummary['stopReason']): CrawlSummary {
    const { store, counters } = this.ctx;
    const totals = store.totals();
    const seconds = (this.clock.now() - this.startedAt) / 1000;
    this.snapshot();
    return {
      db: store.path,
      state: store.state(),
      stopReason: reason,
      pagesFetched: totals.pagesFetched,
      pagesKnown: totals.pagesKnown,
      sites: totals.sites,
      links: totals.links,
      bytes: totals.bytes,
      seconds: Math.round(seconds * 1000) / 1000,
      pagesPerSecond: seconds > 0 ? Math.round(((counters.pagesFetched - this.stats.initialPages) / seconds) * 10) / 10 : 0,
      peakRssBytes: this.peakRss,
      errors: store.errorsByKind(),
      queued: totals.queued,
    };
  }

  private cleanup(): void {
    this.timer?.();
    this.stopCommitTimers();
  }

  /** Releases the database (commits anything pending). */
  close(): void {
    this.cleanup();
    this.threads.terminate();
    this.ctx.content?.close();
    this.ctx.history?.close();
    this.ctx.store.close();
  }
}

function withoutUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function contentBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir).reduce((n, f) => n + statSync(`${dir}/${f}`).size, 0);
}

/**
 * A seed as an error message shows it: quoted with its control characters escaped (a binary
 * seed file's bytes reached the terminal as they were), and cut to 200 characters with its
 * length said (a 10 MB line was the whole message).
 */
function shownSeed(seed: string): string {
  return JSON.stringify(clipped(seed, 200)) + (seed.length > 200 ? ` (${seed.length.toLocaleString('en-US')} characters)` : '');
}
