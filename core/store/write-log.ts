/**
 * A write batch as bytes: the statements a crawl's second of work runs, each as its statement
 * number and its values, written into one ArrayBuffer that is handed to the writer thread
 * (store-writer.ts) by transfer, not copied and not structured-cloned as objects. A page's
 * writes (its row, its fetch, its links) are a few hundred bytes here, where as an object
 * graph they would cost the crawl thread a clone and the writer thread a rebuild of every
 * object; here the crawl thread only copies numbers and string bytes, and the writer reads
 * them back as the statements' arguments.
 *
 * Layout of one statement: u16 statement number, u16 value count, then each value: a tag byte
 * and its payload (int32: 4 bytes; float64: 8; string: u32 byte length and its bytes, tagged
 * ASCII or UTF-8 so that the common ASCII URL is read back without UTF-8 decoding).
 */

/** A value a statement binds. */
export type SqlValue = number | string | null;

const NULL = 0;
const INT32 = 1;
const FLOAT64 = 2;
const ASCII = 3;
const UTF8 = 4;

const MIN_BYTES = 1 << 16;

export class WriteLog {
  private buf: Buffer;
  private view: DataView;
  private pos = 0;
  /** Statements written since the log was started. */
  count = 0;

  constructor(buffer: ArrayBuffer = new ArrayBuffer(MIN_BYTES)) {
    this.buf = Buffer.from(buffer);
    this.view = new DataView(buffer);
  }

  /** Bytes written so far. */
  get bytes(): number {
    return this.pos;
  }

  run(stmt: number, args: readonly SqlValue[]): void {
    this.room(4 + args.length * 9);
    this.view.setUint16(this.pos, stmt, true);
    this.view.setUint16(this.pos + 2, args.length, true);
    this.pos += 4;
    for (let i = 0; i < args.length; i++) this.value(args[i]!);
    this.count++;
  }

  /**
   * The log's buffer and length, handed over (to be transferred); the log starts again on
   * `next`, a buffer the writer gave back, or a new one.
   */
  take(next?: ArrayBuffer): { buffer: ArrayBuffer; length: number; count: number } {
    const out = { buffer: this.buf.buffer as ArrayBuffer, length: this.pos, count: this.count };
    const b = next ?? new ArrayBuffer(MIN_BYTES);
    this.buf = Buffer.from(b);
    this.view = new DataView(b);
    this.pos = 0;
    this.count = 0;
    return out;
  }

  /** Forgets what was written (a batch given up). */
  clear(): void {
    this.pos = 0;
    this.count = 0;
  }

  private value(v: SqlValue): void {
    if (v === null || v === undefined) {
      this.buf[this.pos++] = NULL;
    } else if (typeof v === 'number') {
      if ((v | 0) === v) {
        this.buf[this.pos] = INT32;
        this.view.setInt32(this.pos + 1, v, true);
        this.pos += 5;
      } else {
        this.buf[this.pos] = FLOAT64;
        this.view.setFloat64(this.pos + 1, v, true);
        this.pos += 9;
      }
    } else {
      // At most 3 bytes per UTF-16 unit; the room for 9 bytes per value was made by run().
      this.room(5 + v.length * 3);
      const n = this.buf.write(v, this.pos + 5);
      this.buf[this.pos] = n === v.length ? ASCII : UTF8;
      this.view.setUint32(this.pos + 1, n, true);
      this.pos += 5 + n;
    }
  }

  private room(n: number): void {
    const need = this.pos + n;
    if (need <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    const b = new ArrayBuffer(size);
    const grown = Buffer.from(b);
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
    this.view = new DataView(b);
  }
}

/**
 * Calls `apply(stmt, args)` for every statement of a log, in order (the writer thread's side).
 * The args array is reused between calls: `apply` must not keep it.
 */
export function readWriteLog(buffer: ArrayBuffer, length: number, apply: (stmt: number, args: SqlValue[]) => void): void {
  const buf = Buffer.from(buffer, 0, length);
  const view = new DataView(buffer, 0, length);
  const args: SqlValue[] = [];
  let pos = 0;
  while (pos < length) {
    const stmt = view.getUint16(pos, true);
    const n = view.getUint16(pos + 2, true);
    pos += 4;
    args.length = n;
    for (let i = 0; i < n; i++) {
      const tag = buf[pos]!;
      if (tag === NULL) {
        args[i] = null;
        pos += 1;
      } else if (tag === INT32) {
        args[i] = view.getInt32(pos + 1, true);
        pos += 5;
      } else if (tag === FLOAT64) {
        args[i] = view.getFloat64(pos + 1, true);
        pos += 9;
      } else {
        const len = view.getUint32(pos + 1, true);
        const start = pos + 5;
        args[i] = buf.toString(tag === ASCII ? 'latin1' : 'utf8', start, start + len);
        pos = start + len;
      }
    }
    apply(stmt, args);
  }
}

/**
 * Frees a buffer read to its end now, not when the garbage collector next runs: the writer
 * thread allocates little, so its collector runs seldom, and the batches it had committed
 * waited for it (tens of MB of RSS on bench/throughput).
 */
export function releaseBuffer(buffer: ArrayBuffer): void {
  (buffer as unknown as { transfer?: (length: number) => ArrayBuffer }).transfer?.(0);
}
