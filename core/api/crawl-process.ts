/**
 * The server's handle on a crawl running in its own process (crawl-runner.ts): started
 * detached, so that it outlives the server, and found again by a server started after a
 * crash (`attach`). Stats and the end come over the crawl's socket; pause and stop go back.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { CrawlError, ErrorCodes, type ErrorCode } from '../errors.js';
import type { CrawlStatus, ParallelProgressEvent, StatsEvent } from './contract.js';
import { processAlive as alive } from '../process-alive.js';
import { connectTo, readLines, readRunnerFile, runnerFile, sendLine, type RunnerMessage, type RunnerStatus } from './crawl-channel.js';
import { RUNNER_FLAG, runnerErrorOf, type RunnerArgs } from './crawl-runner.js';

export interface CrawlEnd {
  status: CrawlStatus;
  reason: string;
}

/** The runner's compiled file: beside this one in dist/, or dist/'s when this runs from source (tests). */
export function defaultRunnerFile(): string {
  const here = import.meta.url;
  return fileURLToPath(here.endsWith('.ts') ? new URL('../../dist/core/api/crawl-runner.js', here) : new URL('./crawl-runner.js', here));
}

export const runnerLog = (dbPath: string): string => `${dbPath}.runner.log`;
/** What a crawl's runs leave beside its file: the runner's log and its runner file (a stale one, after a reboot, named a process id another program may now have). */
export const runnerFiles = (dbPath: string): string[] => [runnerLog(dbPath), runnerFile(dbPath)];

/** The last line the runner wrote before it ended, as the error it stands for. */
function runnerFailure(dbPath: string, exitCode: number | null): CrawlError {
  const log = existsSync(runnerLog(dbPath)) ? readFileSync(runnerLog(dbPath), 'utf8').trim().split('\n') : [];
  const lastLine = log[log.length - 1] ?? '';
  return runnerErrorOf(lastLine) ?? new CrawlError(ErrorCodes.INTERNAL, `the crawl's process ended (${exitCode ?? 'killed'}) before it started${lastLine ? `: ${lastLine}` : ''}`);
}

/**
 * How long a crawl's process may take to announce itself (its runner file, written before it
 * opens the crawl and takes its lock): Node's start and the runner's modules. The open itself,
 * however long, is waited for without a deadline.
 */
export const START_DEADLINE_MS = 60_000;

export interface SpawnOptions {
  /** START_DEADLINE_MS unless given (tests shorten it). */
  startDeadlineMs?: number;
}

export class CrawlProcess {
  /** 'starting' while its process opens the crawl (until its hello or 'running' comes). */
  status: RunnerStatus;
  last: StatsEvent | null;
  /** Resolves when the crawl's run ends (or its process dies: then paused, with the reason). */
  readonly ended: Promise<CrawlEnd>;
  private settle!: (e: CrawlEnd) => void;
  private closedByUs = false;
  private readonly listeners = { stats: new Set<(s: StatsEvent) => void>(), state: new Set<(status: Exclude<RunnerStatus, 'starting'>) => void>(), parallel: new Set<(e: ParallelProgressEvent) => void>() };

  private constructor(
    private readonly socket: Socket,
    readonly pid: number,
    hello: Pick<Extract<RunnerMessage, { t: 'hello' }>, 'status' | 'last'>,
  ) {
    this.status = hello.status;
    this.last = hello.last;
    this.ended = new Promise((resolve) => (this.settle = resolve));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      if (this.closedByUs) return;
      // The socket went without an end: the crawl's process died (the crawl file resumes).
      this.settle({ status: 'paused', reason: `failed: the crawl's process (pid ${pid}) ended without finishing its run; resume it` });
    });
  }

  /** Starts the crawl's process and connects to it once it runs. */
  /**
   * Starts the crawl's process and connects to it once it has announced itself: a crawl still
   * opening comes back 'starting' (then 'running' through onState). A process that does not
   * announce itself within the deadline has not touched the crawl: it is ended (SIGTERM, which
   * a runner past its announcement takes as a pause) and the start refused.
   */
  static async spawn(args: RunnerArgs, runnerScript = defaultRunnerFile(), opts: SpawnOptions = {}): Promise<CrawlProcess> {
    if (!existsSync(runnerScript)) throw new CrawlError(ErrorCodes.INTERNAL, `the crawl runner is not built (${runnerScript}); run npm run build`);
    const log = openSync(runnerLog(args.dbPath), 'w');
    // The young generation capped as bin/crawlbench.js caps it for its crawling commands (~100 MB less RSS on Node 24).
    const child = spawn(process.execPath, ['--max-semi-space-size=16', runnerScript, RUNNER_FLAG, JSON.stringify(args)], {
      detached: true,
      stdio: ['ignore', log, log],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      windowsHide: true,
    });
    closeSync(log);
    let exited: number | null | undefined;
    child.once('exit', (code) => (exited = code));
    child.unref();
    const deadlineMs = opts.startDeadlineMs ?? START_DEADLINE_MS;
    const deadline = Date.now() + deadlineMs;
    for (;;) {
      const found = readRunnerFile(args.dbPath);
      const announced = found !== null && found.pid === child.pid;
      if (announced) {
        const p = await CrawlProcess.connectTo(found.socket, found.pid, found.status);
        if (p) return p;
      }
      if (exited !== undefined) throw runnerFailure(args.dbPath, exited);
      // Only a process that never announced itself (it takes the crawl's lock after): never one
      // that may hold the crawl, whose open may take minutes.
      if (!announced && Date.now() > deadline) {
        child.kill('SIGTERM');
        throw new CrawlError(ErrorCodes.INTERNAL, `the crawl's process did not start within ${Math.round(deadlineMs / 1000)} s (see ${runnerLog(args.dbPath)})`);
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /**
   * The crawl's process, if one is running for this file: a server started again finds the
   * crawls that went on without it. A runner file left by a process that is gone is removed.
   */
  static async attach(dbPath: string): Promise<CrawlProcess | null> {
    const found = readRunnerFile(dbPath);
    if (!found) return null;
    if (!alive(found.pid)) {
      rmSync(runnerFile(dbPath), { force: true });
      return null;
    }
    return CrawlProcess.connectTo(found.socket, found.pid, found.status);
  }

  /**
   * The handle on a runner listening at `path`. One that announced itself 'starting' may be
   * opening its crawl, its thread busy for minutes: its hello comes once the crawl is open,
   * and it is taken as starting until then. Another answers its hello within seconds.
   */
  private static async connectTo(path: string, pid: number, announced: RunnerStatus = 'running'): Promise<CrawlProcess | null> {
    const socket = await connectTo(path);
    if (!socket) return null;
    // One reader for the socket's life: the hello first, then every message to the handle.
    let route: (m: RunnerMessage) => void = () => undefined;
    readLines<RunnerMessage>(socket, (m) => route(m));
    if (announced === 'starting') {
      const p = new CrawlProcess(socket, pid, { status: 'starting', last: null });
      route = (m) => p.receive(m);
      return p;
    }
    const hello = await new Promise<Extract<RunnerMessage, { t: 'hello' }> | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), 10_000);
      route = (m) => {
        if (m?.t === 'hello') {
          clearTimeout(timer);
          resolve(m);
        }
      };
      socket.once('close', () => resolve(null));
    });
    if (!hello) {
      socket.destroy();
      return null;
    }
    const p = new CrawlProcess(socket, pid, hello);
    route = (m) => p.receive(m);
    return p;
  }

  private receive(m: RunnerMessage): void {
    if (m?.t === 'hello') {
      // A starting runner's hello, once its crawl is open (or already pausing).
      this.last = m.last ?? this.last;
      if (m.status !== 'starting') this.setStatus(m.status);
    } else if (m?.t === 'stats') {
      this.last = m.data;
      this.listeners.stats.forEach((cb) => cb(m.data));
    } else if (m?.t === 'parallel') {
      this.listeners.parallel.forEach((cb) => cb(m.data));
    } else if (m?.t === 'state') {
      this.setStatus(m.status);
    } else if (m?.t === 'ended') {
      this.closedByUs = true;
      this.settle({ status: m.status, reason: m.reason });
    }
  }

  private setStatus(status: Exclude<RunnerStatus, 'starting'>): void {
    if (this.status === status) return;
    this.status = status;
    this.listeners.state.forEach((cb) => cb(status));
  }

  onStats(cb: (s: StatsEvent) => void): void {
    this.listeners.stats.add(cb);
  }

  /** A parallel crawl's workers and exchange (parallel-runner.ts), about once a second. */
  onParallel(cb: (e: ParallelProgressEvent) => void): void {
    this.listeners.parallel.add(cb);
  }

  /** The runner's status changes: 'running' once a starting crawl is open, 'pausing' when its run ends. */
  onState(cb: (status: Exclude<RunnerStatus, 'starting'>) => void): void {
    this.listeners.state.add(cb);
  }

  pause(): void {
    sendLine(this.socket, { t: 'pause' });
  }

  stop(): void {
    sendLine(this.socket, { t: 'stop' });
  }

  /** Lets go of the crawl without touching it (it runs on). */
  detach(): void {
    this.closedByUs = true;
    this.socket.destroy();
  }
}
