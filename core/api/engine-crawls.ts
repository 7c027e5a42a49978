/**
 * The engine API's crawl features (the Crawls, Live and Sites contracts) over a workspace
 * folder of crawl databases, each running crawl in its own process (live-crawls.ts). EngineApi
 * (engine-api.ts) adds the analyses, comparisons, exports, partitions and simulations, which
 * run in worker threads.
 */
import { EventEmitter } from 'node:events';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CrawlError, ErrorCodes, badField } from '../errors.js';
import type * as C from './contract.js';
import { createCrawlFile, type CreateContext } from './crawl-create.js';
import { clearCreationLeftovers } from './crawl-file.js';
import { parseResumeRequest } from './create-request.js';
import { runnerFiles } from './crawl-process.js';
import { crawlSettingsDto, fileSize, parkedSites, recentErrors } from './crawl-queries.js';
import { DemoWebs, demoWebPages, readDemoSidecar } from './demo-webs.js';
import { LiveCrawls } from './live-crawls.js';
import { resultWithoutPaths } from './message-paths.js';
import { createParallelCrawlFile, parallelCrawlOf } from './parallel-crawls.js';
import { parallelDir, parallelSidecar } from './parallel-files.js';
import { describePolicies } from './policies.js';
import { ReadPool } from './read-pool.js';
import { SeedUploads } from './seed-uploads.js';
import { INLINE_SEED_CHARS, parseSeeds } from './seeds.js';
import { OneAtATime, WorkerJobs } from './worker-jobs.js';
import { CRAWL_ID, Workspace } from './workspace.js';
import type { CrawlReader } from '../store/crawl-reader.js';
import { CrawlUpgrades } from './crawl-upgrades.js';

export interface CrawlsEngineOptions {
  /** The heavy jobs' worker (PageRank, evaluation, compare, export, graph export, partition, a paused crawl's stop): its compiled file (Electron's bundle passes its own). */
  jobWorker?: string;
  /** Append every request the demo webs serve to this NDJSON file (tests watch it). */
  demoLog?: string;
  /** The demo webs' stable port (default DEMO_PORT); 0: a free port each (URLs then differ between crawls). */
  demoPort?: number;
  /** The crawl runner's compiled file, run as its own process per crawl (Electron's bundle passes its own). */
  crawlRunner?: string;
  /** How long a crawl's process may take to announce itself (crawl-process.ts START_DEADLINE_MS; tests shorten it). */
  startDeadlineMs?: number;
  /** A parallel crawl's runner (cli/parallel-runner.ts compiled; default: dist's). */
  parallelRunner?: string;
  /** The Sites and Pages reads' worker (read-pool.ts): its compiled file (Electron's bundle passes its own). */
  readWorker?: string;
}

export class CrawlsEngine implements C.CrawlsApi, C.LiveApi, C.SitesApi, C.ParallelApi {
  readonly dir: string;
  protected readonly ws: Workspace;
  /** Every event of the API, by its wire name (contract.ts API_EVENTS). */
  protected readonly events = new EventEmitter();
  /** The crawls running now, each in its own process. */
  protected readonly live: LiveCrawls;
  protected readonly demos: DemoWebs;
  /** Seed files sent in chunks (uploadSeeds), until a crawl is created from them. */
  private readonly uploads = new SeedUploads();
  /** Crawls being created now (their files written in a thread), and the heavy jobs' threads; seeds read in them one at a time. */
  private readonly creating = new Set<string>();
  protected readonly threads: WorkerJobs;
  private readonly seedTurns = new OneAtATime();
  /** listSites, searchPages and getPage, answered in worker threads (closed by EngineApi.close). */
  protected readonly reads: ReadPool;
  /** Crawl files of an earlier schema, brought up to date in a process of their own when first read (crawl-upgrades.ts). */
  protected readonly upgrades: CrawlUpgrades;
  /** Resolves once the crawls still running from an earlier server (one that crashed), in their own processes, are attached again. */
  readonly ready: Promise<void>;

  constructor(dir: string, opts: CrawlsEngineOptions = {}) {
    this.dir = resolve(dir);
    this.ws = new Workspace(this.dir);
    clearCreationLeftovers(this.dir);
    this.events.setMaxListeners(100);
    this.demos = new DemoWebs({ logFile: opts.demoLog, port: opts.demoPort });
    this.live = new LiveCrawls(this.ws, this.events, { demoLog: opts.demoLog, demoPort: () => this.demos.port, crawlRunner: opts.crawlRunner, parallelRunner: opts.parallelRunner, startDeadlineMs: opts.startDeadlineMs, jobWorker: opts.jobWorker });
    this.reads = new ReadPool({ workerFile: opts.readWorker });
    this.threads = new WorkerJobs(opts.jobWorker);
    this.upgrades = new CrawlUpgrades((path) => this.upgraded(path), opts.crawlRunner);
    this.ready = this.live.reattach();
  }

  /** The ids of the crawls running now, each in its own process. */
  runningCrawlIds(): string[] {
    return this.live.ids();
  }

  protected path(id: string): string {
    return this.ws.path(id);
  }

  protected existing(id: string): string {
    return this.ws.existing(id);
  }

  /**
   * Crawl `id`'s file, for what opens it for writing or reads it whole on a thread of its own
   * (a start, a stop, PageRank, an evaluation, a comparison, an export, a partitioning): one of
   * an earlier schema is refused while it is brought up to date (crawl-upgrades.ts).
   */
  protected current(id: string): string {
    return this.upgrades.current(this.existing(id));
  }

  /** A short read of crawl `id`'s file on this thread (its settings, errors, timeline), refused likewise. */
  protected stored<T>(id: string, fn: (reader: CrawlReader) => T): Promise<T> {
    return this.upgrades.stored(this.existing(id), fn);
  }

  /** A crawl file is of this schema now (or its upgrade failed): the workbench lists it again. */
  private upgraded(path: string): void {
    const id = this.ws.idOf(path);
    if (id === null) return;
    void this.info(id).then((info) => this.events.emit('crawlState', { crawlId: id, status: info.status, ...(info.problem ? { reason: info.problem } : {}) }));
  }

  /** What reads crawl `id` in a worker, in words (its file must not be deleted meanwhile); null: nothing. */
  protected readerOf(_id: string): string | null {
    return null;
  }

  async listPolicies(): Promise<C.PolicyDescription[]> {
    return describePolicies();
  }

  async parseSeeds(source: string | { uploadId: string }): Promise<C.ParsedSeeds> {
    const text = this.uploads.source(source);
    // An imported file is read in a worker thread: 64 MiB held the server's thread 6 s and more.
    return text.length <= INLINE_SEED_CHARS ? parseSeeds(text) : this.seedTurns.run(() => this.threads.start({ what: 'parse-seeds', text }, () => undefined).result);
  }

  async uploadSeeds(uploadId: string, chunk: string, part: number): Promise<C.SeedUploadDto> {
    return this.uploads.append(uploadId, chunk, part);
  }

  /** The server is up: answered at once, without waiting for anything (not even `ready`). */
  async health(): Promise<C.HealthDto> {
    return { ok: true, pid: process.pid, uptimeSeconds: Math.round(process.uptime()), crawls: this.runningCrawlIds() };
  }

  async listCrawls(): Promise<C.CrawlInfo[]> {
    await this.ready;
    const ids = readdirSync(this.dir).filter((f) => f.endsWith('.db')).map((f) => f.slice(0, -3)).filter((id) => CRAWL_ID.test(id));
    const infos = await Promise.all(ids.map((id) => this.info(id)));
    return infos.sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
  }

  /** A crawl as the Crawls view lists it: its stored summary, read in a read worker, and its live state. */
  protected async info(id: string): Promise<C.CrawlInfo> {
    const path = this.path(id);
    const summary = await this.upgrades.read(path, () => this.reads.run({ what: 'summary', path })).catch((err: Error) => err);
    const live = this.live.get(id);
    const base = { id, sizeBytes: fileSize(path), demoWeb: existsSync(join(this.dir, `${id}.demo.json`)) };
    if (summary instanceof Error) {
      const upgrading = summary instanceof CrawlError && summary.code === ErrorCodes.DB_UPGRADING;
      return { ...base, status: upgrading ? 'upgrading' : 'unreadable', policy: null, pagesFetched: 0, pagesKnown: 0, queued: 0, sites: 0, createdAt: null, endReason: null, historyMatched: null, problem: summary.message };
    }
    const s = summary;
    const interrupted = !live && s.state === 'running';
    const status: C.CrawlStatus = live ? (live.status === 'stopping' ? 'pausing' : live.status) : interrupted ? 'interrupted' : (s.state as C.CrawlStatus);
    const endReason: C.EndReasonDto | null = live ? null : interrupted ? { kind: 'interrupted', at: null } : s.endReason;
    return {
      ...base,
      status,
      policy: s.policy,
      pagesFetched: Math.max(s.pagesFetched, live?.last?.pages ?? 0),
      pagesKnown: s.pagesKnown,
      queued: live?.last?.queued ?? s.queued,
      sites: s.sites,
      createdAt: s.createdAt,
      endReason,
      // While it runs, the count of its last sample (the stored one is as of the last commit).
      historyMatched: live?.last?.historyMatched ?? s.historyMatched,
      crawlSeconds: live?.last?.crawlSeconds ?? s.crawlSeconds,
      errorTotal: Math.max(s.errorTotal, live?.last?.errorTotal ?? 0),
      errors: live?.last?.errors ?? s.errors,
    };
  }

  async createCrawl(raw: C.CreateCrawlRequest): Promise<C.CrawlInfo> {
    return this.info(await createCrawlFile(this.creation, raw));
  }

  /** Seeds, new crawls of many seeds and large demo webs take turns on worker threads (crawl-create.ts): each holds up to 64 MiB of text or a million pages. */
  private get creation(): CreateContext {
    const offThread: CreateContext['offThread'] = (job) => this.seedTurns.run(() => this.threads.start(job, () => undefined).result);
    return { ws: this.ws, demos: this.demos, uploads: this.uploads, creating: this.creating, offThread };
  }

  /** A parallel crawl's plan, written as createCrawl writes a crawl, with its options beside it (parallel-crawls.ts). */
  async createParallelCrawl(raw: C.CreateParallelCrawlRequest): Promise<C.CrawlInfo> {
    return this.info(await createParallelCrawlFile(this.ws, raw, (req) => createCrawlFile(this.creation, req)));
  }

  async parallelCrawl(id: string): Promise<C.ParallelCrawlDto | null> {
    return parallelCrawlOf(this.ws, id);
  }

  onParallelProgress(cb: (e: C.ParallelProgressEvent) => void): C.Unsubscribe {
    return this.listen('parallelProgress', cb);
  }

  async crawlSettings(id: string): Promise<C.CrawlSettingsDto> {
    const path = this.existing(id);
    const saved = readDemoSidecar(join(this.dir, `${id}.demo.json`));
    const demo = saved ? { ...saved.spec, webPages: demoWebPages(saved) } : null;
    return this.stored(id, (reader) => crawlSettingsDto(reader, id, demo, (p) => this.ws.idOf(p)));
  }

  async start(id: string, overrides: { maxPages?: number | null } = {}): Promise<C.CrawlInfo> {
    const path = this.current(id);
    // Its schema, as crawlbench crawl --max-pages on a crawl that exists: an unknown field or a limit out of range is refused by name.
    const run = parseResumeRequest(overrides);
    await this.ready;
    await this.live.start(id, path, run.maxPages);
    return this.info(id);
  }

  async pause(id: string): Promise<C.CrawlInfo> {
    this.path(id);
    await this.ready;
    await this.live.pause(id);
    return this.info(id);
  }

  resume(id: string): Promise<C.CrawlInfo> {
    return this.start(id);
  }

  async stop(id: string): Promise<C.CrawlInfo> {
    const path = this.live.has(id) ? this.existing(id) : this.current(id);
    await this.ready;
    await this.live.stop(id, path);
    return this.info(id);
  }

  async deleteCrawl(id: string): Promise<void> {
    const path = this.existing(id);
    if (this.live.has(id)) throw new CrawlError(ErrorCodes.DB_LOCKED, `crawl "${id}" is running; pause it before deleting it`);
    const reader = this.readerOf(id);
    if (reader) throw new CrawlError(ErrorCodes.DB_LOCKED, `${reader}; wait for it to end or cancel it before deleting the crawl`);
    if (this.upgrades.has(path)) throw new CrawlError(ErrorCodes.DB_LOCKED, `crawl "${id}" is being brought up to this version's schema; delete it once that is done`);
    await this.demos.stop(id);
    await this.reads.settled(path); // a Sites or Pages read under way closes the file as it answers
    if (this.readerOf(id)) throw new CrawlError(ErrorCodes.DB_LOCKED, `${this.readerOf(id)}; wait for it to end or cancel it before deleting the crawl`);
    for (const p of [path, `${path}-wal`, `${path}-shm`, `${path}.lock`, `${path}.content`, ...runnerFiles(path), join(this.dir, `${id}.demo.json`), parallelSidecar(path), parallelDir(path)]) {
      rmSync(p, { recursive: true, force: true });
    }
  }

  async currentStats(id: string): Promise<C.StatsEvent | null> {
    this.path(id);
    await this.ready;
    return this.live.get(id)?.last ?? null;
  }

  async listSites(id: string, query: C.SitesQuery = {}): Promise<C.SitesPage> {
    const path = this.existing(id);
    return this.upgrades.read(path, () => this.reads.run({ what: 'sites', path, query }));
  }

  async getPage(id: string, url: string, links?: number | C.PageLinksQuery): Promise<C.PageDetail | null> {
    const path = this.existing(id);
    return this.upgrades.read(path, () => this.reads.run({ what: 'page', path, url, links }));
  }

  async searchPages(id: string, query: C.PageSearchQuery = {}): Promise<C.PageSearchDto> {
    const path = this.existing(id);
    return this.upgrades.read(path, () => this.reads.run({ what: 'search', path, query }));
  }

  async recentErrors(id: string, limit = 20): Promise<C.RecentError[]> {
    return this.stored(id, (reader) => recentErrors(reader, limit));
  }

  async timeline(id: string, maxPoints = 2000): Promise<C.Timeline> {
    const n = Math.min(Math.max(2, Math.floor(Number(maxPoints) || 2000)), 20_000);
    const points = await this.stored(id, (reader) => reader.timeline(n));
    return { stored: points !== null, points: points ?? [] };
  }

  async parkedSites(id: string, limit = 20): Promise<C.ParkedSiteDto[]> {
    return this.stored(id, (reader) => parkedSites(reader, limit));
  }

  onStats(cb: (s: C.StatsEvent) => void): C.Unsubscribe {
    return this.listen('stats', cb);
  }

  onCrawlState(cb: (e: C.CrawlStateEvent) => void): C.Unsubscribe {
    return this.listen('crawlState', cb);
  }

  /** Subscribes `cb` to one of the engine's events (the names of contract.ts API_EVENTS). */
  protected listen<T>(event: C.ApiEvent, cb: (e: T) => void): C.Unsubscribe {
    const said = (e: T) => cb(resultWithoutPaths(e, this.dir));
    this.events.on(event, said);
    return () => void this.events.off(event, said);
  }
}
