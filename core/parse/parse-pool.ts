/**
 * Parsing on threads beside the crawl thread: decoding, hashing, charset detection and link
 * extraction (parsePage) of the HTML pages a crawl fetches, ~25% of the crawl thread's time on
 * bench/throughput. Pages go to a thread many to a message: those whose responses came in
 * the same turn of the event loop (or 64 of them) are written into one buffer and transferred
 * (parse-messages.ts); their results come back the same way. A session does not wait for its
 * pages' results between requests: it asks for the next page while the last one is parsed.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Bytes, BytesReader, readResult, releaseBuffer, writeRequest } from './parse-messages.js';
import { parsePage, type ParsedPage, type ParseInput } from './page-parser.js';

/** Pages per message at most (a message is also sent at the end of each turn of the event loop). */
const PAGES_PER_MESSAGE = 64;

/**
 * Pages parsed on the crawl's own thread before the pool's threads take over (they start
 * halfway there, to be ready): a thread's start costs about 0.3 s of CPU (it loads the parser
 * and its modules again), which a crawl of a few pages (a seed check, a small site, most of
 * the test suite's crawls) spent for nothing. A large crawl parses its first 256 pages inline.
 */
export const PARSE_INLINE_FIRST = 256;

interface Slot {
  worker: Worker;
  /** Pages sent and not yet answered. */
  out: number;
}

/** The thread's compiled file: beside this one in dist/ (or dist/'s when run from source, as the tests do), or in a bundle's folder. */
export function defaultParseThreadFile(): string {
  const here = typeof import.meta.url === 'string' ? import.meta.url : null;
  if (here === null) return join(typeof __dirname === 'string' ? __dirname : '.', 'parse-thread.cjs');
  return fileURLToPath(here.endsWith('.ts') ? new URL('../../dist/core/parse/parse-thread.js', here) : new URL('./parse-thread.js', here));
}

export class ParsePool {
  private readonly slots: Slot[] = [];
  private readonly waiting = new Map<number, { resolve: (p: ParsedPage) => void; reject: (e: Error) => void }>();
  private batch = new Bytes();
  private inBatch = 0;
  private flushArmed = false;
  private nextToken = 1;
  private nextBatch = 1;
  private readonly batchSlot = new Map<number, { slot: Slot; pages: number }>();
  private failure: Error | null = null;
  /** Pages still to parse inline before the threads take over; the threads start when this many are left. */
  private inline: number;
  private readonly spawnAt: number;

  /** A pool of `threads` threads, or null (0 threads, or the compiled thread missing); the first `inlineFirst` pages are parsed inline. */
  static start(threads: number, file = defaultParseThreadFile(), inlineFirst = PARSE_INLINE_FIRST): ParsePool | null {
    return threads > 0 && existsSync(file) ? new ParsePool(threads, file, inlineFirst) : null;
  }

  private constructor(
    private readonly threads: number,
    private readonly file: string,
    inlineFirst: number,
  ) {
    this.inline = Math.max(0, Math.floor(inlineFirst));
    this.spawnAt = this.inline >> 1;
    if (this.inline === 0) this.spawn();
  }

  /** Starts the threads; a thread that cannot start (resources spent) leaves every page to be parsed inline. */
  private spawn(): void {
    try {
      this.spawnThreads();
    } catch {
      for (const s of this.slots.splice(0)) void s.worker.terminate();
      this.inline = Infinity;
    }
  }

  private spawnThreads(): void {
    for (let i = 0; i < this.threads; i++) {
      const slot: Slot = { worker: new Worker(this.file, { stdout: false, stderr: false }), out: 0 };
      slot.worker.on('message', (m: { batch: number; buffer: ArrayBuffer; length: number }) => this.answered(m));
      slot.worker.on('error', (err) => this.fail(err));
      slot.worker.unref();
      this.slots.push(slot);
    }
  }

  /** The page parsed on a thread: as parsePage(input) would answer inline. */
  parse(input: ParseInput): Promise<ParsedPage> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.inline > 0) {
      if (--this.inline === this.spawnAt) this.spawn();
      try {
        return Promise.resolve(parsePage(input));
      } catch (err) {
        return Promise.reject(err as Error);
      }
    }
    const token = this.nextToken++;
    writeRequest(this.batch, token, input);
    this.inBatch++;
    const p = new Promise<ParsedPage>((resolve, reject) => this.waiting.set(token, { resolve, reject }));
    if (this.inBatch >= PAGES_PER_MESSAGE) this.flush();
    else if (!this.flushArmed) {
      this.flushArmed = true;
      setImmediate(() => this.flush());
    }
    return p;
  }

  /** Ends the threads (pages still out are answered with an error). */
  async close(): Promise<void> {
    this.fail(new Error('the parse pool was closed'));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private flush(): void {
    this.flushArmed = false;
    if (this.inBatch === 0) return;
    // The thread with the fewest pages out.
    let slot = this.slots[0]!;
    for (const s of this.slots) if (s.out < slot.out) slot = s;
    const batch = this.nextBatch++;
    this.batchSlot.set(batch, { slot, pages: this.inBatch });
    slot.out += this.inBatch;
    this.inBatch = 0;
    const { buffer, length } = this.batch.take();
    slot.worker.postMessage({ batch, buffer, length }, [buffer]);
  }

  private answered(m: { batch: number; buffer: ArrayBuffer; length: number }): void {
    const sent = this.batchSlot.get(m.batch);
    this.batchSlot.delete(m.batch);
    if (sent) sent.slot.out -= sent.pages;
    const r = new BytesReader(m.buffer, m.length);
    while (!r.done) {
      const { token, page } = readResult(r);
      const w = this.waiting.get(token);
      this.waiting.delete(token);
      w?.resolve(page);
    }
    releaseBuffer(m.buffer);
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
  }
}
