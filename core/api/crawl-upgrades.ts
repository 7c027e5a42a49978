/**
 * Crawl files made by an earlier crawlbench, brought up to this version's schema in a process
 * of their own (the crawl runner's `--upgrade-crawl`), one file at a time, the first time the
 * workbench reads them. Before, the first read migrated the file where the read ran: on the
 * server's thread (a crawl's settings, errors, timeline), where migration 12, which rewrites a
 * crawl's links, held every call of every window for minutes on a crawl of millions of pages;
 * or on the read worker, where it held every Sites and Pages read behind it. Meanwhile the crawl is listed as
 * 'upgrading', and its reads and its start are refused with CRAWL_DB_UPGRADING, in words.
 * Each migration runs in its own transaction: a process killed during one leaves the file as
 * it was, to be brought up to date at the next read. A process, not a worker thread: migration
 * 12 is one SQLite statement for minutes, which a thread cannot be stopped in (and a process
 * does not exit while one of its threads is in it: `serve` stopped with Ctrl-C waited it out),
 * while a process is killed at once, its lock then taken over as a dead process's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CrawlError, ErrorCodes, type ErrorCode } from '../errors.js';
import { withMigratedCrawlReader, type CrawlReader } from '../store/crawl-reader.js';
import { schemaBehind, upgradingError } from '../store/database.js';
import { defaultRunnerFile } from './crawl-process.js';
import { UPGRADE_FLAG, runnerErrorOf } from './crawl-runner.js';

/** An upgrade that failed on a full disk, or on a file an older crawlbench still writes, is tried again at a read this long after. */
export const UPGRADE_RETRY_MS = 60_000;
/** The failures worth trying again: others (a corrupt file) are told until the server starts again, not retried for minutes each minute. */
const RETRIED = new Set<string>([ErrorCodes.DB_LOCKED, ErrorCodes.DISK_FULL]);

export class CrawlUpgrades {
  /** Files waiting for their turn, in the order their first read came. */
  private readonly queue: string[] = [];
  private running: { path: string; child: ChildProcess } | null = null;
  private readonly failed = new Map<string, { code: ErrorCode; message: string; at: number }>();
  private closed = false;

  constructor(
    /** Told when a file's upgrade ended, with the error that ended it (null: done). */
    private readonly onEnd: (path: string, error: Error | null) => void,
    /** The crawl runner's compiled file (Electron's bundle passes its own). */
    private readonly runnerFile = defaultRunnerFile(),
  ) {}

  /** True while `path` waits for its upgrade or is being brought up to date. */
  has(path: string): boolean {
    return this.running?.path === path || this.queue.includes(path);
  }

  /**
   * What a read of `path` refused with CRAWL_DB_UPGRADING (the file is of an earlier schema)
   * answers: the upgrade is started, or queued, unless it is under way, and the read refused
   * meanwhile; after an upgrade that failed, the refusal says why, until a read comes
   * UPGRADE_RETRY_MS later and it is tried again.
   */
  refused(path: string, err: CrawlError): CrawlError {
    const failed = this.failed.get(path);
    const retried = failed !== undefined && RETRIED.has(failed.code);
    if (failed && (!retried || Date.now() - failed.at < UPGRADE_RETRY_MS)) {
      const again = retried ? 'it is tried again at a read a minute later' : 'it is tried again when crawlbench starts again';
      return new CrawlError(failed.code, `${path}: could not be brought up to this version's schema (${failed.message}); ${again}`);
    }
    this.failed.delete(path);
    if (!this.closed && !this.has(path)) {
      this.queue.push(path);
      this.next();
    }
    return err;
  }

  /**
   * `path`, for what opens it for writing or reads it whole on a thread of its own: one of an
   * earlier schema is refused as refused() says, not migrated by that job (where it met the
   * upgrade's lock) nor by a crawl's process while the crawl shows as starting.
   */
  current(path: string): string {
    const behind = schemaBehind(path);
    if (behind !== null) throw this.refused(path, upgradingError(path, behind));
    return path;
  }

  /** A short read of `path` on this thread (a crawl's settings, errors, timeline): an earlier schema is refused as refused() says. */
  stored<T>(path: string, fn: (reader: CrawlReader) => T): Promise<T> {
    return this.read(path, () => withMigratedCrawlReader(path, fn, { upgrade: false }));
  }

  /** A read of crawl file `path`; refused with CRAWL_DB_UPGRADING (an earlier schema), it answers as refused() says. */
  async read<T>(path: string, read: () => T | Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (err) {
      if (err instanceof CrawlError && err.code === ErrorCodes.DB_UPGRADING) throw this.refused(path, err);
      throw err;
    }
  }

  private next(): void {
    if (this.running || this.closed) return;
    const path = this.queue.shift();
    if (path === undefined) return;
    if (!existsSync(this.runnerFile)) {
      this.ended(path, new CrawlError(ErrorCodes.INTERNAL, `the crawl runner is not built (${this.runnerFile}); run npm run build`));
      return;
    }
    const child = spawn(process.execPath, [this.runnerFile, UPGRADE_FLAG, path], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      windowsHide: true,
    });
    this.running = { path, child };
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-8192)));
    child.once('error', (err) => this.ended(path, new CrawlError(ErrorCodes.INTERNAL, `the upgrade's process did not start: ${err.message}`), child));
    child.once('close', (code, signal) => this.ended(path, code === 0 ? null : failureOf(stderr, code, signal), child));
  }

  /** A file's upgrade is over (`child`: its process, told of once, though it may both fail to start and close). */
  private ended(path: string, err: Error | null, child?: ChildProcess): void {
    if (child && this.running?.child !== child) return;
    this.running = null;
    if (err && !this.closed) {
      const code = err instanceof CrawlError ? err.code : ErrorCodes.INTERNAL;
      this.failed.set(path, { code, message: err.message, at: Date.now() });
    }
    if (!this.closed) this.onEnd(path, err);
    this.next();
  }

  /**
   * Gives up the files still waiting and kills the one under way: its transaction is rolled
   * back, the file stays as it was, and its lock, naming a dead process, is taken over by the
   * next writer.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    const child = this.running?.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGKILL');
    await gone;
  }
}

/** Why an upgrade's process failed: the error it wrote last (crawl-runner.ts), or how it ended. */
function failureOf(stderr: string, code: number | null, signal: NodeJS.Signals | null): CrawlError {
  const last = stderr.trim().split('\n').pop() ?? '';
  return runnerErrorOf(last) ?? new CrawlError(ErrorCodes.INTERNAL, `the upgrade's process ended (${signal ?? code})${last ? `: ${last}` : ''}`);
}
