import type { PageStatus } from './crawl-state.js';
import type { NewLink, PageState } from './crawl-rows.js';
import type { PendingRows, Settles } from './pending-rows.js';

/**
 * What the crawl store keeps of its writes not yet committed (pending-rows.ts): a page's
 * fields and a fetched page's links, which discovery, sessions and shorter paths read back.
 */

/**
 * A page's fields as written in batches the writer has not yet committed: a field left
 * undefined was not written since, and the committed row holds it. A page inserted in such a
 * batch has every field here.
 */
export interface PendingPage {
  url?: string;
  redirects?: number;
  depth?: number;
  status?: PageStatus;
  errorCode?: string | null;
  attempts?: number;
  /** Its fetch's fetch_seq, once recorded (the key its links are stored under). */
  seq?: number;
}

/** The pages written in batches not yet committed, by id. */
export class PendingPages {
  constructor(private readonly rows: PendingRows<number, PendingPage>) {}

  get(id: number): PendingPage | undefined {
    return this.rows.get(id);
  }
  /** The page's entry for a write in `batch`, to fill in. */
  written(id: number, batch: number): PendingPage {
    return this.rows.entry(id, batch, () => ({}));
  }
  /** The page as last written: its fields written since, over the committed row `read` gives. */
  state(id: number, read: (id: number) => PageState | undefined): PageState | undefined {
    const p = this.rows.get(id);
    if (p !== undefined && complete(p)) return p;
    const row = read(id);
    if (row === undefined || p === undefined) return row;
    if (p.depth !== undefined) row.depth = p.depth;
    if (p.status !== undefined) row.status = p.status;
    if (p.errorCode !== undefined) row.errorCode = p.errorCode;
    if (p.attempts !== undefined) row.attempts = p.attempts;
    return row;
  }
}

function complete(p: PendingPage): p is PendingPage & PageState {
  return p.url !== undefined && p.redirects !== undefined && p.depth !== undefined && p.status !== undefined && p.errorCode !== undefined && p.attempts !== undefined;
}

/**
 * The links of pages fetched in batches not yet committed, as bytes (a buffer per batch: for
 * each link its target, nofollow, kind and anchor): held as objects for the second or two
 * until their batch commits, a page's 18 link rows outlived V8's young generation and
 * cost bench/throughput over 100 MB of peak RSS in garbage waiting for a full collection.
 */
export class PendingLinks implements Settles {
  private readonly batches = new Map<number, { buf: Buffer; pos: number; at: Map<number, number> }>();

  /** Links of page `src`, written in `batch` (a page's links come with its fetch; a sitemap's page's, in chunks). */
  set(src: number, rows: readonly NewLink[], batch: number): void {
    let b = this.batches.get(batch);
    if (b === undefined) this.batches.set(batch, (b = { buf: Buffer.allocUnsafe(1 << 16), pos: 0, at: new Map() }));
    let need = 8;
    for (const l of rows) need += 11 + l.kind.length * 3 + (l.anchor === null ? 0 : l.anchor.length * 3);
    if (b.pos + need > b.buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(b.buf.length * 2, b.pos + need));
      b.buf.copy(grown, 0, 0, b.pos);
      b.buf = grown;
    }
    const buf = b.buf;
    // Each chunk names the page's chunk before it in this batch (-1: none).
    let pos = buf.writeInt32LE(b.at.get(src) ?? -1, b.pos);
    b.at.set(src, b.pos);
    pos = buf.writeUInt32LE(rows.length, pos);
    for (const l of rows) {
      pos = buf.writeUInt32LE(l.dst, pos);
      buf[pos++] = l.nofollow ? 1 : 0;
      const k = buf.write(l.kind, pos + 1, 'latin1');
      buf[pos] = k;
      pos += 1 + k;
      if (l.anchor === null) {
        pos = buf.writeInt32LE(-1, pos);
      } else {
        const n = buf.write(l.anchor, pos + 4);
        buf.writeInt32LE(n, pos);
        pos += 4 + n;
      }
    }
    b.pos = pos;
  }

  /** Page `src`'s links written in batches not yet committed, oldest first (none: an empty list). */
  get(src: number): NewLink[] {
    const out: NewLink[] = [];
    for (const b of this.batches.values()) {
      const chunks: number[] = [];
      for (let at = b.at.get(src) ?? -1; at >= 0; at = b.buf.readInt32LE(at)) chunks.push(at);
      for (let c = chunks.length - 1; c >= 0; c--) read(b.buf, chunks[c]!, out);
    }
    return out;
  }

  settle(batch: number): void {
    for (const b of this.batches.keys()) if (b <= batch) this.batches.delete(b);
  }

  clear(): void {
    this.batches.clear();
  }
}

/** One chunk's links, appended to `out`. */
function read(buf: Buffer, at: number, out: NewLink[]): void {
  const n = buf.readUInt32LE(at + 4);
  let pos = at + 8;
  for (let i = 0; i < n; i++) {
    const dst = buf.readUInt32LE(pos);
    const nofollow = buf[pos + 4] === 1;
    const k = buf[pos + 5]!;
    const kind = buf.toString('latin1', pos + 6, pos + 6 + k);
    pos += 6 + k;
    const len = buf.readInt32LE(pos);
    pos += 4;
    const anchor = len < 0 ? null : buf.toString('utf8', pos, pos + len);
    if (len > 0) pos += len;
    out.push({ dst, anchor, nofollow, kind });
  }
}
