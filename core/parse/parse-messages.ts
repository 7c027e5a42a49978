/**
 * The parse pool's messages (parse-pool.ts), as bytes in one ArrayBuffer that is transferred,
 * never structured-cloned: many pages to a message (their bodies and what the parser needs
 * of each), and many parsed pages back (hash, title, robots flags, links). The attempt
 * dropped in 2026-11 (piscina, one page a message, bodies and results cloned as objects) cost
 * the crawl thread ~100 us a page against ~150 us of parsing saved.
 */
import type { ExtractedLink } from './extract-links.js';
import type { ParsedPage, ParseInput } from './page-parser.js';

const KINDS: readonly ExtractedLink['kind'][] = ['a', 'area', 'frame', 'iframe', 'refresh'];
const KIND_CODE = new Map(KINDS.map((k, i) => [k, i]));

/** A growable byte buffer with the few writes the messages need. */
export class Bytes {
  buf: Buffer;
  pos = 0;
  constructor(size = 1 << 16) {
    this.buf = Buffer.allocUnsafe(size);
  }
  room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.buf.copy(grown, 0, 0, this.pos);
    this.buf = grown;
  }
  u32(v: number): void {
    this.room(4);
    this.pos = this.buf.writeUInt32LE(v, this.pos);
  }
  u8(v: number): void {
    this.room(1);
    this.buf[this.pos++] = v;
  }
  /** A string, or null (length 0xFFFFFFFF). */
  str(s: string | null | undefined): void {
    if (s === null || s === undefined) return this.u32(0xffffffff);
    this.room(4 + s.length * 3);
    const n = this.buf.write(s, this.pos + 4);
    this.buf.writeUInt32LE(n, this.pos);
    this.pos += 4 + n;
  }
  blob(b: Uint8Array): void {
    this.room(4 + b.length);
    this.pos = this.buf.writeUInt32LE(b.length, this.pos);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }
  /** The bytes written, in an ArrayBuffer of their own (to transfer). */
  take(): { buffer: ArrayBuffer; length: number } {
    const length = this.pos;
    const out = new ArrayBuffer(length);
    new Uint8Array(out).set(this.buf.subarray(0, length));
    this.pos = 0;
    return { buffer: out, length };
  }
}

/** Reads what Bytes wrote. */
export class BytesReader {
  private readonly buf: Buffer;
  pos = 0;
  constructor(buffer: ArrayBuffer, readonly length: number) {
    this.buf = Buffer.from(buffer, 0, length);
  }
  get done(): boolean {
    return this.pos >= this.length;
  }
  u32(): number {
    const v = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }
  u8(): number {
    return this.buf[this.pos++]!;
  }
  str(): string | null {
    const n = this.u32();
    if (n === 0xffffffff) return null;
    const s = this.buf.toString('utf8', this.pos, this.pos + n);
    this.pos += n;
    return s;
  }
  /** A view of the bytes (valid while the buffer is). */
  blob(): Buffer {
    const n = this.u32();
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }
}

/** One page to parse, with the number its answer comes back under. */
export function writeRequest(out: Bytes, token: number, input: ParseInput): void {
  out.u32(token);
  out.u32(input.maxDecodedBytes);
  out.str(input.url);
  out.str(input.contentType);
  out.str(input.contentEncoding);
  out.blob(input.body);
}

export function readRequest(r: BytesReader): { token: number; input: ParseInput } {
  const token = r.u32();
  const maxDecodedBytes = r.u32();
  const url = r.str()!;
  const contentType = r.str() ?? undefined;
  const contentEncoding = r.str() ?? undefined;
  const body = r.blob();
  return { token, input: { body, url, contentType, contentEncoding, maxDecodedBytes } };
}

export function writeResult(out: Bytes, token: number, page: ParsedPage): void {
  out.u32(token);
  if ('errorCode' in page) {
    out.u8(0);
    out.str(page.errorCode);
    out.str(page.message);
    return;
  }
  out.u8(1 | (page.noindex ? 2 : 0) | (page.nofollow ? 4 : 0));
  out.str(page.hash);
  out.str(page.title);
  out.u32(page.links.length);
  for (const l of page.links) {
    out.str(l.url);
    out.str(l.anchor);
    out.u8((l.nofollow ? 1 : 0) | (KIND_CODE.get(l.kind)! << 1));
  }
}

export function readResult(r: BytesReader): { token: number; page: ParsedPage } {
  const token = r.u32();
  const flags = r.u8();
  if ((flags & 1) === 0) {
    const errorCode = r.str()!;
    return { token, page: { errorCode, message: r.str()! } };
  }
  const hash = r.str()!;
  const title = r.str()!;
  const n = r.u32();
  const links: ExtractedLink[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const url = r.str()!;
    const anchor = r.str()!;
    const b = r.u8();
    links[i] = { url, anchor, nofollow: (b & 1) === 1, kind: KINDS[b >>> 1]! };
  }
  return { token, page: { hash, title, noindex: (flags & 2) !== 0, nofollow: (flags & 4) !== 0, links } };
}

/** Frees a message's buffer once read, not when the thread's garbage collector next runs (as the writer thread's batches: store/write-log.ts). */
export function releaseBuffer(buffer: ArrayBuffer): void {
  (buffer as unknown as { transfer?: (length: number) => ArrayBuffer }).transfer?.(0);
}
