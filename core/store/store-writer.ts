/**
 * The crawl thread's side of the writer thread (writer-thread.ts): SQLite's writes of a running
 * crawl (its pages, fetches, links, sites, counters, timeline: about a quarter of the crawl
 * thread's time on bench/throughput) run on a thread of their own, so that the crawl thread
 * spends its core on fetching, parsing and scheduling.
 *
 * The crawl thread writes each statement into the open batch (a WriteLog); about once a second
 * the crawler seals it and it is transferred to the writer, which commits it in one
 * transaction and says so ('committed', with the batch's number). Each batch's buffer starts
 * at the size of the last one, so it is written without growing, and is freed by the writer
 * once committed. Batches commit in the order they were sealed, each whole or not at all: a
 * crash (kill -9) keeps every batch committed before it and loses the ones not yet committed,
 * which the resumed crawl fetches again, as it refetched the last uncommitted second before.
 *
 * Memory stays bounded by back-pressure: `behind` says the writer holds more than
 * MAX_PENDING_BYTES of sealed or open batches, and the crawler starts no new connection
 * until it catches up (connections under way finish their pages).
 */
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { WriteLog, type SqlValue } from './write-log.js';

/** What the writer thread is started with. */
export interface WriterOptions {
  path: string;
  /** PRAGMA statements for its connection (cache size, checkpoints, the file's size budget). */
  pragmas: string[];
}

/** Messages to the writer thread. */
export type WriterInput =
  | { t: 'define'; id: number; sql: string; rows: boolean }
  | { t: 'batch'; batch: number; buffer: ArrayBuffer; length: number }
  | { t: 'reset' }
  | { t: 'close' };

/** Messages from the writer thread. */
export type WriterMessage =
  | { t: 'committed'; batch: number }
  | { t: 'failed'; batch: number; code: string | null; message: string }
  | { t: 'dropped'; batch: number };

/** Sealed and open batches past this many bytes: the crawl waits for the writer (about 1 s of bench/throughput's writes at full speed). */
export const MAX_PENDING_BYTES = 8 * 1024 * 1024;
/** An open batch this large is sealed without waiting for its second to end (its buffer stays small). */
const SEAL_BYTES = 2 * 1024 * 1024;
/** A batch's buffer at first (it grows by doubling past it). */
const MIN_LOG_BYTES = 64 * 1024;
/** Batches sealed and not yet committed, at most: past this the open batch grows instead (fewer, larger commits). */
const MAX_IN_FLIGHT = 2;

/** The writer thread's compiled file: beside this one in dist/ (or dist/'s when run from source, as the tests do), or in a bundle's folder. */
export function defaultWriterFile(): string {
  const here = typeof import.meta.url === 'string' ? import.meta.url : null;
  if (here === null) return join(typeof __dirname === 'string' ? __dirname : '.', 'writer-thread.cjs');
  return fileURLToPath(here.endsWith('.ts') ? new URL('../../dist/core/store/writer-thread.js', here) : new URL('./writer-thread.js', here));
}

/** A batch the writer could not commit (its SQLite error code, when it had one). */
export class WriteFailed extends Error {
  constructor(
    message: string,
    readonly code: string | null,
    readonly batch: number,
  ) {
    super(message);
  }
}

export class StoreWriter extends EventEmitter {
  private readonly worker: Worker;
  private log = new WriteLog();
  /** The number of the open batch; batches before it are sealed. */
  private open = 1;
  private committed = 0;
  /** Bytes of each sealed batch not yet committed. */
  private readonly inFlight = new Map<number, number>();
  private inFlightBytes = 0;
  private defined = 0;
  private failure: WriteFailed | null = null;
  private waiters: Array<() => void> = [];
  private exited = false;

  /** Starts a writer on the crawl file; null when its compiled file is missing (run from source without a build). */
  static start(opts: WriterOptions, file = defaultWriterFile()): StoreWriter | null {
    return existsSync(file) ? new StoreWriter(opts, file) : null;
  }

  private constructor(opts: WriterOptions, file: string) {
    super();
    this.worker = new Worker(file, { workerData: opts, stdout: false, stderr: false });
    this.worker.on('message', (m: WriterMessage) => this.onMessage(m));
    this.worker.on('error', (err) => this.fail(new WriteFailed(`the writer thread failed: ${err.message}`, null, this.committed + 1)));
    this.worker.on('exit', () => {
      this.exited = true;
      if (this.inFlight.size > 0) this.fail(new WriteFailed('the writer thread ended with batches not committed', null, this.committed + 1));
      this.wake();
    });
  }

  /**
   * Statement `id` is `sql`: told once, in order of id, before the first batch that runs it.
   * `rows`: a single-row INSERT the writer may run with others of its rows (row-groups.ts).
   */
  define(id: number, sql: string, rows = false): void {
    if (id !== this.defined) throw new Error(`writer statements are defined in order: ${id} after ${this.defined - 1}`);
    this.defined++;
    this.post({ t: 'define', id, sql, rows });
  }
  /** How many statements the writer was told of. */
  get definedCount(): number {
    return this.defined;
  }

  run(stmt: number, args: readonly SqlValue[]): void {
    this.log.run(stmt, args);
  }

  /** The open batch's number: writes made now commit with it. */
  get openBatch(): number {
    return this.open;
  }
  get committedBatch(): number {
    return this.committed;
  }
  /** Sealed batches not yet committed. */
  get sealedPending(): number {
    return this.inFlight.size;
  }
  /** True when the writer is so far behind that the crawl should start nothing new. */
  get behind(): boolean {
    return this.inFlightBytes + this.log.bytes > MAX_PENDING_BYTES;
  }
  /** True when the open batch is large enough to seal before its second is up. */
  get full(): boolean {
    return this.log.bytes >= SEAL_BYTES;
  }
  /** True when the open batch may be sealed now (not too many sealed ones waiting). */
  get canSeal(): boolean {
    return this.inFlight.size < MAX_IN_FLIGHT;
  }
  get failed(): WriteFailed | null {
    return this.failure;
  }

  /**
   * Hands the open batch to the writer (nothing is sent when it is empty) and returns the
   * number of the last batch that holds every write made so far.
   */
  seal(): number {
    if (this.log.count === 0) return this.open - 1;
    const batch = this.open++;
    const { buffer, length } = this.log.take(new ArrayBuffer(Math.max(MIN_LOG_BYTES, Math.ceil((this.log.bytes * 1.25) / 4096) * 4096)));
    this.inFlight.set(batch, length);
    this.inFlightBytes += length;
    this.post({ t: 'batch', batch, buffer, length }, [buffer]);
    return batch;
  }

  /** Gives up the open batch's writes (never sent). */
  discard(): void {
    this.log.clear();
  }

  /** After a failure: the open batch given up, and the writer takes batches again. */
  reset(): void {
    this.log.clear();
    this.failure = null;
    this.post({ t: 'reset' });
  }

  /** Resolves once every sealed batch is committed (or the writer failed: see `failed`). */
  drain(): Promise<void> {
    if (this.inFlight.size === 0 || this.exited) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Waits for the sealed batches, then ends the thread and its connection. The open batch must be sealed or discarded first. */
  async close(): Promise<void> {
    await this.drain();
    if (this.exited) return;
    const ended = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.post({ t: 'close' });
    await ended;
  }

  /** Ends the thread at once (a crawl closed while running): batches not committed are lost, as in a crash. */
  terminate(): void {
    this.log.clear();
    void this.worker.terminate();
  }

  private onMessage(m: WriterMessage): void {
    const bytes = this.inFlight.get(m.batch) ?? 0;
    this.inFlight.delete(m.batch);
    this.inFlightBytes -= bytes;
    if (m.t === 'committed') {
      this.committed = m.batch;
      this.emit('committed', m.batch);
    } else if (m.t === 'failed') {
      this.fail(new WriteFailed(m.message, m.code, m.batch));
    }
    if (this.inFlight.size === 0) this.wake();
  }

  private fail(err: WriteFailed): void {
    if (this.failure) return;
    this.failure = err;
    this.emit('failed', err);
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  private post(m: WriterInput, transfer: ArrayBuffer[] = []): void {
    if (!this.exited) this.worker.postMessage(m, transfer);
  }
}
