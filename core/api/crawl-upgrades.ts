/**
 * Crawl files made by an earlier crawlbench, brought up to this version's schema on a worker
 * thread (heavy-jobs.ts 'upgrade'), one file at a time, the first time the workbench reads
 * them. Before, the first read migrated the file where the read ran: on the server's thread (a
 * crawl's settings, errors, timeline), where migration 12, which rewrites a crawl's links, held
 * every call of every window for minutes on a crawl of millions of pages; or on the read worker,
 * where it held every Sites and Pages read behind it. Meanwhile the crawl is listed as
 * 'upgrading', and its reads and its start are refused with CRAWL_DB_UPGRADING, in words.
 * Each migration runs in its own transaction: a process killed during one leaves the file as
 * it was, to be brought up to date at the next read.
 */
import { CrawlError, ErrorCodes, type ErrorCode } from '../errors.js';
import { withMigratedCrawlReader, type CrawlReader } from '../store/crawl-reader.js';
import { releaseOwnLock, schemaBehind, upgradingError } from '../store/database.js';
import type { RunningJob, WorkerJobs } from './worker-jobs.js';

/** An upgrade that failed on a full disk, or on a file an older crawlbench still writes, is tried again at a read this long after. */
export const UPGRADE_RETRY_MS = 60_000;
/** The failures worth trying again: others (a corrupt file) are told until the server starts again, not retried for minutes each minute. */
const RETRIED = new Set<string>([ErrorCodes.DB_LOCKED, ErrorCodes.DISK_FULL]);

export class CrawlUpgrades {
  /** Files waiting for their turn, in the order their first read came. */
  private readonly queue: string[] = [];
  private running: { path: string; job: RunningJob<null> } | null = null;
  private readonly failed = new Map<string, { code: ErrorCode; message: string; at: number }>();
  private closed = false;

  constructor(
    private readonly threads: WorkerJobs,
    /** Told when a file's upgrade ended, with the error that ended it (null: done). */
    private readonly onEnd: (path: string, error: Error | null) => void,
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
    const job = this.threads.start({ what: 'upgrade', dbPath: path }, () => undefined);
    this.running = { path, job };
    job.result.then(
      () => this.ended(path, null),
      (err: Error) => this.ended(path, err),
    );
  }

  private ended(path: string, err: Error | null): void {
    this.running = null;
    if (err && !this.closed) {
      const code = err instanceof CrawlError ? err.code : ErrorCodes.INTERNAL;
      this.failed.set(path, { code, message: err.message, at: Date.now() });
    }
    if (!this.closed) this.onEnd(path, err);
    this.next();
  }

  /**
   * Gives up the files still waiting and stops the one under way without waiting for it: its
   * migration is one SQLite statement that nothing interrupts (a minute and more), and the
   * engine's close must not wait for it. Its transaction is rolled back, the file stays as it
   * was, and its lock goes once its thread has ended.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    const running = this.running;
    if (!running) return;
    void running.job.exited.then(() => releaseOwnLock(running.path));
    void running.job.terminate();
  }
}
