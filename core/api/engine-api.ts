/**
 * The contract implemented in-process: a workspace folder of crawl databases, crawls run in
 * this process. Browser mode serves it over WebSocket; Electron runs it in a utility
 * process, never on the window's thread.
 */
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { CrawlSettingsInput } from '../config/settings.js';
import { Crawler } from '../engine/crawler.js';
import { checkShortW } from '../engine/short-w-guard.js';
import { CrawlError, ErrorCodes, badField, badOption } from '../errors.js';
import { AnalysisJobs } from './analysis-jobs.js';
import { CrawlProcess, runnerLog } from './crawl-process.js';
import type { StepProgress } from './heavy-jobs.js';
import { WorkerJobs, type RunningJob } from './worker-jobs.js';
import { storedPageRank } from './stored-pagerank.js';
import { messagesWithoutPaths, resultWithoutPaths } from './message-paths.js';
import { ExportJobs } from './export-jobs.js';
import type * as C from './contract.js';
import { parseCreateRequest } from './create-request.js';
import { GraphJobs } from './graph-jobs.js';
import { SimulationJobs } from './simulation-jobs.js';
import { crawlSettingsDto, fileSize, parkedSites, recentErrors, sitesPage, storedSummary } from './crawl-queries.js';
import { pageDetail, searchPages } from './page-queries.js';
import { DEMO_DEFAULTS, DemoWebs, demoWebPages, readDemoSidecar, type DemoCa, type DemoSpec } from './demo-webs.js';
import { describePolicies } from './policies.js';
import { parseSeeds, seedSettings } from './seeds.js';
import { SeedUploads } from './seed-uploads.js';
import { SeedSourceSchema } from './limit-schemas.js';
import { API_LIMITS, grouped } from './limits.js';
// A crawl file of an older schema is brought up to date when the workbench first reads it.
import { withMigratedCrawlReader as withCrawlReader } from '../store/crawl-reader.js';

/** How the workbench confirms a short w (the words of the engine's refusal; no CLI flags in the UI). */
const CONFIRM_IN_FORM = 'tick “I know: a wait under 1 s on real servers”';

/** A crawl running in its own process (crawl-runner.ts), as this server sees it. */
interface LiveCrawl {
  proc: CrawlProcess;
  status: 'running' | 'pausing' | 'stopping';
  run: Promise<void>;
  last: C.StatsEvent | null;
}

export interface EngineApiOptions {
  /** Append every request the demo webs serve to this NDJSON file (tests watch it). */
  demoLog?: string;
  /** The demo webs' stable port (default DEMO_PORT); 0: a free port each (URLs then differ between crawls). */
  demoPort?: number;
  /** What the engine asks of its host (where an export goes); default: browser mode's answers (host.ts). */
  host?: C.HostCapabilities;
  /** Pause every export this long after each chunk of rows (tests hold an export mid-way with it). */
  exportThrottleMs?: number;
  /** simulate: where dataset folders are listed (default WORKSPACE/datasets; nothing is created). */
  datasetsDir?: string;
  /** simulate: pause a simulation's worker this long after each progress message (tests watch progress and Cancel). */
  simulationThrottleMs?: number;
  /** simulate: the worker's compiled file (Electron's bundle has its own). */
  simulationWorker?: string;
  /** The heavy jobs' worker (PageRank, evaluation, compare, export, graph export, partition): its compiled file (Electron's bundle passes its own). */
  jobWorker?: string;
  /** The crawl runner's compiled file, run as its own process per crawl (Electron's bundle passes its own). */
  crawlRunner?: string;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export class EngineApi implements C.CrawlbenchApi {
  readonly dir: string;
  private readonly live = new Map<string, LiveCrawl>();
  /** Comparisons under way, by job id, to cancel them. */
  private readonly compares = new Map<string, RunningJob<unknown>>();
  /** Comparisons' worker threads. */
  private readonly threads: WorkerJobs;
  private readonly events = new EventEmitter();
  private readonly demos: DemoWebs;
  private readonly graphs: GraphJobs;
  private readonly exports: ExportJobs;
  private readonly simulations: SimulationJobs;
  /** results: PageRank and evaluations under way, each in a worker thread. */
  private readonly analyses: AnalysisJobs;
  /** Seed files sent in chunks (uploadSeeds), until a crawl is created from them. */
  private readonly uploads = new SeedUploads();
  /**
   * Resolves once the crawls still running from an earlier server (one that crashed) are
   * attached again: they run in their own processes, which outlive any server.
   */
  readonly ready: Promise<void>;

  constructor(dir: string, private readonly opts: EngineApiOptions = {}) {
    this.dir = resolve(dir);
    mkdirSync(this.dir, { recursive: true });
    this.demos = new DemoWebs({ logFile: opts.demoLog, port: opts.demoPort });
    this.events.setMaxListeners(100);
    // Graph files go beside the exports, where browser mode offers them for download.
    this.graphs = new GraphJobs(join(this.dir, 'exports'), (e) => this.events.emit('partitionProgress', e), opts.jobWorker);
    this.exports = new ExportJobs(join(this.dir, 'exports'), { host: opts.host, throttleMs: opts.exportThrottleMs, workerFile: opts.jobWorker });
    this.exports.events.on('exportProgress', (e) => this.events.emit('exportProgress', e));
    this.analyses = new AnalysisJobs({ workerFile: opts.jobWorker, emit: (e) => this.events.emit('analysisProgress', e) });
    this.simulations = new SimulationJobs({
      dir: join(this.dir, 'simulations'),
      datasetsDir: resolve(opts.datasetsDir ?? join(this.dir, 'datasets')),
      crawlPath: (id) => this.existing(id),
      crawls: () => this.listCrawls(),
      workerFile: opts.simulationWorker,
      throttleMs: opts.simulationThrottleMs,
    });
    this.simulations.events.on('simulationProgress', (e) => this.events.emit('simulationProgress', e));
    this.threads = new WorkerJobs(opts.jobWorker);
    this.ready = this.reattach();
    // What a user sees names no absolute path of this machine (message-paths.ts).
    messagesWithoutPaths(this, this.dir);
  }

  /** Connects to every crawl whose process runs on (its NAME.db.runner file names it). */
  private async reattach(): Promise<void> {
    const ids = readdirSync(this.dir).filter((f) => f.endsWith('.db.runner')).map((f) => f.slice(0, -'.db.runner'.length)).filter((id) => ID.test(id));
    await Promise.all(
      ids.map(async (id) => {
        const proc = await CrawlProcess.attach(this.path(id)).catch(() => null);
        if (proc && !this.live.has(id)) {
          this.adopt(id, proc);
          this.events.emit('crawlState', { crawlId: id, status: proc.status } satisfies C.CrawlStateEvent);
        }
      }),
    );
  }

  /** The ids of the crawls running now, each in its own process. */
  runningCrawlIds(): string[] {
    return [...this.live.keys()];
  }

  /** Where browser-mode exports are written, one folder per export (served for download under /exports/). */
  get exportsDir(): string {
    return this.exports.dir;
  }

  private path(id: string): string {
    if (typeof id !== 'string' || !ID.test(id) || id.includes('..')) throw badOption('crawl', `"${String(id)}" is not a crawl name (letters, digits, . _ -)`);
    return join(this.dir, `${id}.db`);
  }
  private existing(id: string): string {
    const p = this.path(id);
    if (!existsSync(p)) throw new CrawlError(ErrorCodes.DB_MISSING, `no crawl named "${id}" in ${this.dir}`);
    return p;
  }

  async listPolicies(): Promise<C.PolicyDescription[]> {
    return describePolicies();
  }

  async parseSeeds(source: string | { uploadId: string }): Promise<C.ParsedSeeds> {
    return parseSeeds(this.seedText(source));
  }

  /** Seed text sent in one piece (within the limit), or the text of an upload. */
  private seedText(source: unknown): string {
    if (source === undefined || source === null) return '';
    const read = SeedSourceSchema.safeParse(source);
    if (read.success) return typeof read.data === 'string' ? read.data : this.uploads.text(read.data.uploadId);
    if (typeof source === 'string') {
      throw badField('text', `must be at most ${grouped(API_LIMITS.seedTextChars)} characters (this one has ${grouped(source.length)}): send longer text with uploadSeeds`);
    }
    throw badField('text', 'must be the seed text, or { uploadId } of a seed upload');
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
    const ids = readdirSync(this.dir).filter((f) => f.endsWith('.db')).map((f) => f.slice(0, -3)).filter((id) => ID.test(id));
    return ids.map((id) => this.info(id)).sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
  }

  private info(id: string): C.CrawlInfo {
    const path = this.path(id);
    const live = this.live.get(id);
    const base = { id, sizeBytes: fileSize(path), demoWeb: existsSync(join(this.dir, `${id}.demo.json`)) };
    try {
      const s = withCrawlReader(path, storedSummary);
      const interrupted = !live && s.state === 'running';
      const status: C.CrawlStatus = live ? (live.status === 'stopping' ? 'pausing' : live.status) : interrupted ? 'interrupted' : (s.state as C.CrawlStatus);
      const pagesFetched = Math.max(s.pagesFetched, live?.last?.pages ?? 0);
      const endReason: C.EndReasonDto | null = live ? null : interrupted ? { kind: 'interrupted', at: null } : s.endReason;
      return {
        ...base,
        status,
        policy: s.policy,
        pagesFetched,
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
    } catch (err) {
      return { ...base, status: 'unreadable', policy: null, pagesFetched: 0, pagesKnown: 0, queued: 0, sites: 0, createdAt: null, endReason: null, historyMatched: null, problem: (err as Error).message };
    }
  }

  async createCrawl(raw: C.CreateCrawlRequest): Promise<C.CrawlInfo> {
    const req = parseCreateRequest(raw);
    const id = req.name?.trim() || `crawl-${new Date().toISOString().replace(/[:.]/g, '-').replace('Z', '')}`;
    if (!ID.test(id) || id.includes('..')) throw badField('name', 'may hold only letters, digits, dots, dashes and underscores, starting with a letter or digit (it names the crawl’s file)');
    const path = this.path(id);
    if (existsSync(path)) throw new CrawlError(ErrorCodes.SETTINGS_CONFLICT, `a crawl named "${id}" already exists`, { field: 'name' });
    const input: CrawlSettingsInput = { seeds: [], ...this.settingsFrom(req) };
    if (req.historyCrawl) input.policyParams = { ...input.policyParams, history: this.historyPath(req, id) };
    let demo: { spec: DemoSpec; port: number; pages: number; ca: DemoCa | null } | null = null;
    try {
      if (req.demoWeb) {
        const spec: DemoSpec = { ...DEMO_DEFAULTS, ...(typeof req.demoWeb === 'object' ? withoutUndefined(req.demoWeb) : {}) };
        // A crawl that reads sitemaps gets a demo web whose sites serve some (and the broken kinds).
        if (req.sitemaps) spec.sitemaps = true;
        const web = await this.demos.ensure(id, spec);
        demo = { spec, port: web.port, pages: web.pages, ca: web.ca };
        // A demo web with sites on TLS: the crawl trusts its test CA (kept with the crawl's settings).
        if (web.ca) input.ca = [...(input.ca ?? []), web.ca.cert];
        Object.assign(input, { seeds: web.seeds, scope: { suffixes: ['.demo'] }, resolve: [{ pattern: '*.demo', address: '127.0.0.1' }] });
        // Demo politeness: short waits so that a few thousand pages take seconds, not hours.
        input.w ??= 50;
        input.c ??= 10;
        input.r ??= 64;
        Object.assign(input, { connectTimeout: 5000, headersTimeout: 10_000, bodyTimeout: 10_000, retryBase: 1000, robotsRetry: 2000, robotsMaxAttempts: 2 });
      } else {
        if (req.seedUploadId !== undefined && req.seedText !== undefined) throw badField('seedUploadId', 'give the seeds as seedText or as an upload (seedUploadId), not both');
        const parsed = parseSeeds(req.seedUploadId !== undefined ? this.uploads.text(req.seedUploadId, 'seedUploadId') : (req.seedText ?? ''));
        const bad = parsed.problems[0];
        if (bad) {
          const more = (parsed.problemCount ?? parsed.problems.length) - 1;
          throw new CrawlError(ErrorCodes.BAD_SEED, `seeds: line ${bad.line}: “${bad.text}”: ${bad.problem}${more > 0 ? ` (and ${more} more)` : ''}`, { field: 'seedText' });
        }
        Object.assign(input, seedSettings(parsed));
      }
      // Everything is checked before the file exists: a refused crawl leaves nothing behind.
      await checkShortW(Crawler.plan(input), CONFIRM_IN_FORM);
      Crawler.create(path, input).close();
    } catch (err) {
      if (demo) await this.demos.stop(id);
      throw err;
    }
    if (req.seedUploadId !== undefined) this.uploads.drop(req.seedUploadId);
    if (demo) this.demos.save(join(this.dir, `${id}.demo.json`), demo.spec, demo.port, demo.pages, demo.ca);
    // The web is started again (on its port) when the crawl runs; until then it holds nothing.
    if (demo) await this.demos.stop(id);
    return this.info(id);
  }

  async crawlSettings(id: string): Promise<C.CrawlSettingsDto> {
    const path = this.existing(id);
    const saved = readDemoSidecar(join(this.dir, `${id}.demo.json`));
    const demo = saved ? { ...saved.spec, webPages: demoWebPages(saved) } : null;
    return withCrawlReader(path, (reader) => crawlSettingsDto(reader, id, demo, (p) => this.idOf(p)));
  }

  /** The workspace crawl a database file is, or null for a file elsewhere. */
  private idOf(file: string): string | null {
    const p = resolve(file);
    const id = basename(p, '.db');
    return dirname(p) === this.dir && p.endsWith('.db') && ID.test(id) ? id : null;
  }

  /** The history crawl's file, for a policy that takes one. */
  private historyPath(req: C.CreateCrawlRequest, id: string): string {
    const policy = req.policy || 'breadth-first';
    const takes = describePolicies().find((p) => p.name === policy)?.params.some((p) => p.name === 'history') ?? false;
    if (!takes) throw badField('historyCrawl', `policy ${policy} does not use a history crawl (historical-pagerank-*, quality and crawl-ability do)`);
    if (req.historyCrawl === id) throw badField('historyCrawl', 'a crawl cannot be its own history');
    try {
      return this.existing(req.historyCrawl!);
    } catch (err) {
      throw new CrawlError((err as CrawlError).code ?? ErrorCodes.BAD_OPTION, (err as Error).message, { field: 'historyCrawl' });
    }
  }

  private settingsFrom(req: C.CreateCrawlRequest): Partial<CrawlSettingsInput> {
    return withoutUndefined({
      policy: req.policy || undefined,
      policyParams: req.policyParams,
      w: req.w,
      c: req.c,
      r: req.r,
      batch: req.batch,
      maxPages: req.maxPages,
      maxDepth: req.maxDepth,
      maxPagesPerSite: req.maxPagesPerSite,
      userAgent: req.userAgent || undefined,
      resolve: req.resolve,
      allowShortW: req.allowShortW,
      storeContent: req.storeContent,
      contentBudget: req.contentBudget,
      sitemaps: req.sitemaps,
      tls: req.tls,
      ca: req.caPem ? [req.caPem] : undefined,
    });
  }

  async start(id: string, overrides: { maxPages?: number | null } = {}): Promise<C.CrawlInfo> {
    const path = this.existing(id);
    await this.ready;
    if (this.live.has(id)) throw new CrawlError(ErrorCodes.DB_LOCKED, `crawl "${id}" is already running`);
    const maxPages = overrides?.maxPages;
    // Checked here, before a process is started: a stopped, locked or conflicting crawl and an
    // unconfirmed short w are refused at once, in the caller's words.
    const crawler = Crawler.open(path, withoutUndefined({ maxPages }));
    try {
      await checkShortW(crawler.settings, CONFIRM_IN_FORM);
    } finally {
      crawler.close();
    }
    // The crawl runs in its own process: no request to this server, nor its crash, can take it down.
    const proc = await CrawlProcess.spawn(
      { dbPath: path, id, ...withoutUndefined({ maxPages, demoLog: this.opts.demoLog }), demoPort: this.demos.port },
      this.opts.crawlRunner,
    );
    this.adopt(id, proc);
    this.events.emit('crawlState', { crawlId: id, status: 'running' } satisfies C.CrawlStateEvent);
    return this.info(id);
  }

  /** Follows a crawl's process: its stats, its state, its end. */
  private adopt(id: string, proc: CrawlProcess): void {
    const entry: LiveCrawl = { proc, status: proc.status, run: Promise.resolve(), last: proc.last };
    proc.onStats((s) => {
      entry.last = s;
      this.events.emit('stats', s);
    });
    proc.onState(() => {
      if (entry.status !== 'running') return;
      entry.status = 'pausing';
      this.events.emit('crawlState', { crawlId: id, status: 'pausing' } satisfies C.CrawlStateEvent);
    });
    this.live.set(id, entry);
    entry.run = proc.ended.then((e) => this.ended(id, e.status, e.reason));
  }

  private ended(id: string, status: C.CrawlStatus, reason: string): void {
    this.live.delete(id);
    this.events.emit('crawlState', { crawlId: id, status, reason } satisfies C.CrawlStateEvent);
  }

  async pause(id: string): Promise<C.CrawlInfo> {
    this.path(id);
    await this.ready;
    const entry = this.live.get(id);
    if (entry) {
      if (entry.status === 'running') {
        entry.status = 'pausing';
        this.events.emit('crawlState', { crawlId: id, status: 'pausing' } satisfies C.CrawlStateEvent);
      }
      entry.proc.pause();
      await entry.run;
    }
    return this.info(id);
  }

  resume(id: string): Promise<C.CrawlInfo> {
    return this.start(id);
  }

  async stop(id: string): Promise<C.CrawlInfo> {
    const path = this.existing(id);
    await this.ready;
    const entry = this.live.get(id);
    if (entry) {
      if (entry.status !== 'stopping') {
        entry.status = 'stopping';
        this.events.emit('crawlState', { crawlId: id, status: 'pausing' } satisfies C.CrawlStateEvent);
      }
      entry.proc.stop();
      await entry.run;
    } else {
      Crawler.stopStored(path);
      this.events.emit('crawlState', { crawlId: id, status: 'stopped', reason: 'stopped' } satisfies C.CrawlStateEvent);
    }
    return this.info(id);
  }

  async deleteCrawl(id: string): Promise<void> {
    const path = this.existing(id);
    if (this.live.has(id)) throw new CrawlError(ErrorCodes.DB_LOCKED, `crawl "${id}" is running; pause it before deleting it`);
    // A worker thread reading the file: deleting it (and its lock) under the reader would free
    // the name for a new crawl whose lock the ending worker would then remove.
    if (this.analyses.busy(id)) throw new CrawlError(ErrorCodes.DB_LOCKED, `crawl "${id}" is being ranked or evaluated; wait for it to end or cancel it before deleting the crawl`);
    if (this.simulations.readsCrawl(id)) throw new CrawlError(ErrorCodes.DB_LOCKED, `a simulation is replaying crawl "${id}"; wait for it to end or cancel it before deleting the crawl`);
    await this.demos.stop(id);
    for (const p of [path, `${path}-wal`, `${path}-shm`, `${path}.lock`, `${path}.content`, runnerLog(path), join(this.dir, `${id}.demo.json`)]) {
      rmSync(p, { recursive: true, force: true });
    }
  }

  async currentStats(id: string): Promise<C.StatsEvent | null> {
    this.path(id);
    await this.ready;
    return this.live.get(id)?.last ?? null;
  }

  async listSites(id: string, query: C.SitesQuery = {}): Promise<C.SitesPage> {
    return withCrawlReader(this.existing(id), (reader) => sitesPage(reader, query ?? {}));
  }

  async getPage(id: string, url: string, links?: number | C.PageLinksQuery): Promise<C.PageDetail | null> {
    return withCrawlReader(this.existing(id), (reader) => pageDetail(reader, url ?? '', links));
  }

  async searchPages(id: string, query: C.PageSearchQuery = {}): Promise<C.PageSearchDto> {
    return withCrawlReader(this.existing(id), (reader) => searchPages(reader, query));
  }

  async recentErrors(id: string, limit = 20): Promise<C.RecentError[]> {
    return withCrawlReader(this.existing(id), (reader) => recentErrors(reader, limit));
  }

  async timeline(id: string, maxPoints = 2000): Promise<C.Timeline> {
    const n = Math.min(Math.max(2, Math.floor(Number(maxPoints) || 2000)), 20_000);
    const points = withCrawlReader(this.existing(id), (reader) => reader.timeline(n));
    return { stored: points !== null, points: points ?? [] };
  }

  async parkedSites(id: string, limit = 20): Promise<C.ParkedSiteDto[]> {
    return withCrawlReader(this.existing(id), (reader) => parkedSites(reader, limit));
  }

  async runPageRank(id: string): Promise<C.PageRankResultDto> {
    const path = this.existing(id);
    if (this.live.has(id)) throw new CrawlError(ErrorCodes.DB_LOCKED, `crawl "${id}" is running; pause it before computing PageRank`);
    return this.analyses.run<C.PageRankResultDto>(id, { what: 'pagerank', dbPath: path });
  }

  /** The stored PageRank runs, read as they are (a running crawl's as of now); null when none. */
  async pageRankResult(id: string): Promise<C.StoredPageRankDto | null> {
    return withCrawlReader(this.existing(id), storedPageRank);
  }

  async runEvaluation(id: string, opts: { oracle?: string; threshold?: number; points?: number } = {}): Promise<C.EvaluationDto> {
    const o = opts ?? {};
    // An oracle is another crawl of this workspace, named by its id (never an arbitrary path).
    const oracle = o.oracle === undefined ? undefined : this.existing(String(o.oracle));
    const num = (v: unknown, field: string) => {
      if (v === undefined) return undefined;
      if (typeof v !== 'number' || !Number.isFinite(v)) throw badField(field, 'must be a number');
      return v;
    };
    const points = num(o.points, 'points');
    if (points !== undefined && (!Number.isInteger(points) || points < 2 || points > 100_000)) throw badField('points', 'must be a whole number from 2 to 100,000');
    const threshold = num(o.threshold, 'threshold');
    if (threshold !== undefined && threshold < 0) throw badField('threshold', 'must be 0 or more');
    const evalOpts = withoutUndefined({ oracle, threshold, points });
    return this.analyses.run<C.EvaluationDto>(id, { what: 'evaluation', dbPath: this.existing(id), opts: evalOpts });
  }

  /** Cancels the PageRank or evaluation of a crawl under way (it then fails with CRAWL_CANCELLED). */
  async cancelAnalysis(id: string): Promise<void> {
    this.path(id);
    this.analyses.cancel(id);
  }

  onAnalysisProgress(cb: (e: C.AnalysisProgressEvent) => void): C.Unsubscribe {
    return this.listen('analysisProgress', cb);
  }

  async startExport(id: string, req: C.ExportRequest): Promise<{ exportId: string }> {
    return this.exports.start(id, this.existing(id), req);
  }

  cancelExport(exportId: string): Promise<C.ExportJobDto> {
    return this.exports.cancel(exportId);
  }

  async listExports(crawlId?: string): Promise<C.ExportJobDto[]> {
    if (crawlId !== undefined && crawlId !== null) this.path(crawlId);
    return this.exports.list(crawlId ?? undefined);
  }

  onExportProgress(cb: (e: C.ExportJobDto) => void): C.Unsubscribe {
    return this.listen('exportProgress', cb);
  }

  /** A crawl's graph partitioned with gpmetis, Zoltan PHG (and KaHyPar where installed) beside hashing (a running crawl as of now). */
  async partitionCrawl(id: string, req: C.PartitionRequest): Promise<C.PartitionReport> {
    return this.graphs.partition(id, this.existing(id), req);
  }

  cancelPartition(jobId: string): Promise<void> {
    return this.graphs.cancel(jobId);
  }

  async exportGraph(id: string, req: C.GraphExportRequest): Promise<C.GraphExportDto> {
    return this.graphs.exportGraph(id, this.existing(id), req);
  }

  onPartitionProgress(cb: (e: C.PartitionProgressEvent) => void): C.Unsubscribe {
    return this.listen('partitionProgress', cb);
  }

  onStats(cb: (s: C.StatsEvent) => void): C.Unsubscribe {
    return this.listen('stats', cb);
  }

  onCrawlState(cb: (e: C.CrawlStateEvent) => void): C.Unsubscribe {
    return this.listen('crawlState', cb);
  }

  /** Compares two crawls of the workspace in a worker thread, so the server keeps answering meanwhile. */
  async compareCrawls(a: string, b: string, opts: C.CompareRequest = {}): Promise<C.CompareReport> {
    const o = opts ?? {};
    const jobId = typeof o.jobId === 'string' && o.jobId ? o.jobId : `compare-${Date.now()}`;
    if (this.compares.has(jobId)) throw badField('jobId', `a comparison named "${jobId}" is under way`);
    const top = o.top === undefined ? 20 : Number(o.top);
    if (!Number.isInteger(top) || top < 1 || top > 10_000) throw badField('top', 'must be a whole number from 1 to 10,000');
    const [pathA, pathB] = [this.existing(a), this.existing(b)];
    const host = typeof o.host === 'string' && o.host.trim() ? o.host.trim() : null;
    const thread = this.threads.start({ what: 'compare', pathA, pathB, opts: { top, host } }, (p) => {
      const { step, fraction } = p as StepProgress;
      this.events.emit('compareProgress', { jobId, step, fraction } satisfies C.CompareProgressEvent);
    });
    this.compares.set(jobId, thread);
    try {
      return await thread.result;
    } finally {
      this.compares.delete(jobId);
    }
  }

  async cancelCompare(jobId: string): Promise<void> {
    this.compares.get(String(jobId))?.cancel();
  }

  onCompareProgress(cb: (e: C.CompareProgressEvent) => void): C.Unsubscribe {
    return this.listen('compareProgress', cb);
  }

  // ---- simulate: the simulator in a worker thread, runs kept in WORKSPACE/simulations (simulation-jobs.ts)
  listSimulationSources(): Promise<C.SimulationSourcesDto> {
    return this.simulations.sources();
  }

  async startSimulation(req: C.SimulationRequest): Promise<{ simulationId: string }> {
    return this.simulations.start(req);
  }

  cancelSimulation(simulationId: string): Promise<C.SimulationDto> {
    return this.simulations.cancel(simulationId);
  }

  listSimulations(): Promise<C.SimulationDto[]> {
    return this.simulations.list();
  }

  getSimulation(simulationId: string): Promise<C.SimulationDto> {
    return this.simulations.get(simulationId);
  }

  deleteSimulation(simulationId: string): Promise<void> {
    return this.simulations.delete(simulationId);
  }

  onSimulationProgress(cb: (e: C.SimulationProgressEvent) => void): C.Unsubscribe {
    return this.listen('simulationProgress', cb);
  }
  // ---- end of simulate

  /** Subscribes `cb` to one of the engine's events (the names of contract.ts API_EVENTS). */
  private listen<T>(event: C.ApiEvent, cb: (e: T) => void): C.Unsubscribe {
    const said = (e: T) => cb(resultWithoutPaths(e, this.dir));
    this.events.on(event, said);
    return () => void this.events.off(event, said);
  }

  /**
   * Quitting on purpose: cancels running exports, pauses every running crawl (its process
   * commits its batch and ends) and stops the demo webs. A server that crashes never gets
   * here, and its crawls run on until a server started again attaches to them.
   */
  async close(): Promise<void> {
    await this.ready;
    await this.graphs.close();
    await this.threads.close();
    await this.analyses.close();
    await this.simulations.close();
    await this.exports.close();
    await Promise.all([...this.live.keys()].map((id) => this.pause(id).catch(() => undefined)));
    await this.demos.stopAll();
  }
}

function withoutUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
