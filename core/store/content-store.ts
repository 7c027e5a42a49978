import { closeSync, openSync, readdirSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { makeFolders } from '../folders.js';

const SEGMENT_BYTES = 1024 ** 3;

/** The segment files of a content folder: 00001.bin, 00002.bin... (ContentReader reads them). */
export function segmentFile(dir: string, segment: number): string {
  return join(dir, `${String(segment).padStart(5, '0')}.bin`);
}

/**
 * Optional raw capture for a later WARC export: request headers, response headers and the
 * body bytes as received, appended to segment files in `DB.content/`. The database's
 * `content` table indexes them and is written in the same batch as the page, so after a
 * kill only committed records are referenced; trailing bytes of a lost batch are ignored.
 */
export class ContentStore {
  private fd: number | null = null;
  private segment = 0;
  private offset = 0;
  private written = 0;

  constructor(
    private readonly dir: string,
    private readonly budget: number,
    alreadyStored: number,
    private readonly segmentBytes = SEGMENT_BYTES,
  ) {
    makeFolders(dir);
    this.written = alreadyStored;
    // A resumed crawl appends to its last segment (and goes on from there), not to the first.
    const numbers = readdirSync(dir).map((f) => /^(\d{5})\.bin$/.exec(f)?.[1]).filter((n) => n !== undefined).map(Number);
    this.segment = Math.max(0, ...numbers.map((n) => n - 1));
  }

  get full(): boolean {
    return this.written >= this.budget;
  }
  get bytesStored(): number {
    return this.written;
  }

  /** Appends one record; returns where it is, or null once the budget is spent. */
  append(request: string, responseHeaders: string, body: Buffer): { segment: number; offset: number; reqLen: number; hdrLen: number } | null {
    const req = Buffer.from(request, 'latin1');
    const hdr = Buffer.from(responseHeaders, 'latin1');
    const size = req.length + hdr.length + body.length;
    if (this.written + size > this.budget) return null;
    if (this.fd === null) this.openNext();
    // A record larger than a segment still goes whole into an empty one.
    if (this.offset > 0 && this.offset + size > this.segmentBytes) this.openNext();
    const at = this.offset;
    writeSync(this.fd!, req);
    writeSync(this.fd!, hdr);
    writeSync(this.fd!, body);
    this.offset += size;
    this.written += size;
    return { segment: this.segment, offset: at, reqLen: req.length, hdrLen: hdr.length };
  }

  segmentPath(segment: number): string {
    return segmentFile(this.dir, segment);
  }

  private openNext(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.segment++;
    const path = this.segmentPath(this.segment);
    this.fd = openSync(path, 'a');
    this.offset = statSync(path).size;
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}
