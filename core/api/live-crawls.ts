/**
 * The crawls running now, each in its own process (crawl-runner.ts), as the engine API follows
 * them: started, paused, stopped, their last stats, and attached again by a server started
 * after a crash (their NAME.db.runner files name them).
 */
import type { EventEmitter } from 'node:events';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Crawler } from '../engine/crawler.js';
import { checkShortW } from '../engine/short-w-guard.js';
import { CrawlError, ErrorCodes } from '../errors.js';
import type * as C from './contract.js';
import { CrawlProcess } from './crawl-process.js';
import { isParallel } from './parallel-files.js';
import { WorkerJobs } from './worker-jobs.js';
import { CRAWL_ID, withoutUndefined, type Workspace } from './workspace.js';

/** How the workbench confirms a short w (the words of the engine's refusal; no CLI flags in the UI). */
export const CONFIRM_IN_FORM = 'tick “I know: a wait under 1 s on real servers”';

/** The parallel runner's compiled file (cli/parallel-runner.ts in dist/, also when this runs from source). */
function defaultParallelRunner(): string {
  const here = import.meta.url;
  return fileURLToPath(here.endsWith('.ts') ? new URL('../../dist/core/cli/parallel-runner.js', here) : new URL('../cli/parallel-runner.js', here));
}

/** A crawl running in its own process, as this server sees it. */
interface LiveCrawl {
  proc: CrawlProcess;
  /** 'starting': its process opens the crawl (CrawlProcess), as long as that takes. */
  status: 'starting' | 'running' | 'pausing' | 'stopping';
  run: Promise<void>;
  last: C.StatsEvent | null;
}

export interface LiveCrawlsOptions {
  /** Passed to each crawl's process: its demo web's log (tests) and port. */
  demoLog?: string;
  demoPort: () => number;
  /** The crawl runner's compiled file (Electron's bundle passes its own). */
  crawlRunner?: string;
  /** A parallel crawl's runner (cli/parallel-runner.ts compiled; default: dist's). */
  parallelRunner?: string;
  /** How long a crawl's process may take to announce itself (crawl-process.ts START_DEADLINE_MS; tests shorten it). */
  startDeadlineMs?: number;
  /** The heavy jobs' worker file, for a paused crawl's stop (worker-jobs.ts; default: dist's). */
  jobWorker?: string;
}

export class LiveCrawls {
  private readonly live = new Map<string, LiveCrawl>();
  /** Where a paused crawl's stop runs (its read indexes built off this thread). */
  private readonly threads: WorkerJobs;
  /** Starts under way (checks, then the spawn), settled whatever their outcome. */
  private readonly starting = new Map<string, Promise<void>>();
  /** Stops under way (a running crawl's process ending, a paused one's read indexes built), settled whatever their outcome. */
  private readonly stopping = new Map<string, Promise<void>>();

  constructor(
    private readonly ws: Workspace,
    /** Where stats and crawlState events go (the engine API's emitter). */
    private readonly events: EventEmitter,
    private readonly opts: LiveCrawlsOptions,
  ) {
    this.threads = new WorkerJobs(opts.jobWorker);
  }

  /** Running, being started (its checks and its process's spawn) or being stopped: neither deleted nor started again. */
  has(id: string): boolean {
    return this.live.has(id) || this.starting.has(id) || this.stopping.has(id);
  }

  ids(): string[] {
    return [...this.live.keys()];
  }

  /** What the server knows of a running crawl: its state and last stats (undefined: not running). */
  get(id: string): Pick<LiveCrawl, 'status' | 'last'> | undefined {
    return this.live.get(id);
  }

  /** Connects to every crawl whose process runs on (its NAME.db.runner file names it). */
  async reattach(): Promise<void> {
    const ids = readdirSync(this.ws.dir).filter((f) => f.endsWith('.db.runner')).map((f) => f.slice(0, -'.db.runner'.length)).filter((id) => CRAWL_ID.test(id));
    await Promise.all(
      ids.map(async (id) => {
        const proc = await CrawlProcess.attach(this.ws.path(id)).catch(() => null);
        if (proc && !this.live.has(id)) {
          this.adopt(id, proc);
          this.state({ crawlId: id, status: proc.status });
        }
      }),
    );
  }

  /**
   * Starts a crawl's process; refuses at once what the process would refuse. A second start of
   * the same crawl before the first has its process is refused too (it slipped in and was
   * answered as started), as is one while the crawl is being stopped; a pause or a stop asked
   * meanwhile waits for the start, then applies.
   */
  async start(id: string, path: string, maxPages: number | null | undefined): Promise<void> {
    if (this.live.has(id)) throw new CrawlError(ErrorCodes.DB_LOCKED, `crawl "${id}" is already running`);
    if (this.starting.has(id)) throw new CrawlError(ErrorCodes.DB_LOCKED, `crawl "${id}" is already being started`);
    if (this.stopping.has(id)) throw new CrawlError(ErrorCodes.DB_LOCKED, `crawl "${id}" is being stopped`);
    const started = this.launch(id, path, maxPages);
    this.starting.set(id, started.catch(() => undefined));
    try {
      await started;
    } finally {
      this.starting.delete(id);
    }
  }

  private async launch(id: string, path: string, maxPages: number | null | undefined): Promise<void> {
    // Checked here, before a process is started: a stopped, locked or conflicting crawl and an
    // unconfirmed short w are refused at once, in the caller's words. From the crawl's stored
    // settings only: opening it (its frontier, its policy's replay) held this server's thread
    // as long as the crawl's process takes to open it, a minute and more for millions of pages.
    await checkShortW(Crawler.resumable(path, withoutUndefined({ maxPages })), CONFIRM_IN_FORM);
    // The crawl runs in its own process: no request to this server, nor its crash, can take it down.
    const proc = await CrawlProcess.spawn(
      { dbPath: path, id, ...withoutUndefined({ maxPages, demoLog: this.opts.demoLog }), demoPort: this.opts.demoPort() },
      // A parallel crawl (its NAME.parallel.json) runs in the coordinator's runner, through the same channel.
      isParallel(path) ? (this.opts.parallelRunner ?? defaultParallelRunner()) : this.opts.crawlRunner,
      withoutUndefined({ startDeadlineMs: this.opts.startDeadlineMs }),
    );
    this.adopt(id, proc);
    // 'starting' while its process opens the crawl; 'running' follows (adopt).
    this.state({ crawlId: id, status: proc.status });
  }

  /** Follows a crawl's process: its stats, its state, its end. */
  private adopt(id: string, proc: CrawlProcess): void {
    const entry: LiveCrawl = { proc, status: proc.status, run: Promise.resolve(), last: proc.last };
    proc.onStats((s) => {
      entry.last = s;
      this.events.emit('stats', s);
    });
    proc.onParallel((e) => this.events.emit('parallelProgress', e));
    proc.onState((status) => {
      // A starting crawl is open: it runs. A run ends: pausing (unless asked here already).
      if (status === 'running' ? entry.status !== 'starting' : entry.status !== 'running' && entry.status !== 'starting') return;
      entry.status = status;
      this.state({ crawlId: id, status });
    });
    this.live.set(id, entry);
    entry.run = proc.ended.then((e) => {
      this.live.delete(id);
      this.state({ crawlId: id, status: e.status, reason: e.reason });
    });
  }

  private state(e: C.CrawlStateEvent): void {
    this.events.emit('crawlState', e);
  }

  /** Pauses a running crawl and waits for its process to end (nothing for one not running). */
  async pause(id: string): Promise<void> {
    await this.starting.get(id);
    const entry = this.live.get(id);
    if (!entry) return;
    if (entry.status === 'running' || entry.status === 'starting') {
      entry.status = 'pausing';
      this.state({ crawlId: id, status: 'pausing' });
    }
    entry.proc.pause();
    await entry.run;
  }

  /** Ends a crawl for good: a running one through its process, another in its file. */
  async stop(id: string, path: string): Promise<void> {
    // A second Stop waits for the first; meanwhile (its read indexes built on a worker thread,
    // minutes for millions of pages) the crawl is neither started nor deleted.
    const earlier = this.stopping.get(id);
    if (earlier) return earlier;
    const stopped = this.stopNow(id, path);
    this.stopping.set(id, stopped.catch(() => undefined));
    try {
      await stopped;
    } finally {
      this.stopping.delete(id);
    }
  }

  private async stopNow(id: string, path: string): Promise<void> {
    await this.starting.get(id);
    const entry = this.live.get(id);
    if (entry) {
      if (entry.status !== 'stopping') {
        entry.status = 'stopping';
        this.state({ crawlId: id, status: 'pausing' });
      }
      entry.proc.stop();
      const end = await entry.proc.ended;
      await entry.run;
      // Ended paused all the same: a pause had already begun the run's end (which a stop then
      // does not change), or its process died. Stopped now as a stored crawl, as asked.
      if (end.status !== 'paused') return;
    }
    // A paused crawl (a parallel one's parts merged as they are first), on a worker thread: its
    // read indexes take minutes for millions of pages, which this server's thread must not wait.
    await this.threads.start({ what: 'stop-stored', dbPath: path, parallel: isParallel(path) }, () => undefined).result;
    this.state({ crawlId: id, status: 'stopped', reason: 'stopped' });
  }

  /** Pauses every running crawl (the server is quitting on purpose). */
  async pauseAll(): Promise<void> {
    await Promise.all(this.ids().map((id) => this.pause(id).catch(() => undefined)));
  }
}
