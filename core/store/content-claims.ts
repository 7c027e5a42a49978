import { urlFingerprintInto } from './url-index.js';

/**
 * The pages that claimed a content hash (the first page fetched with each), in memory: a
 * crawl asks for each fetched HTML page whether a page with its hash came before, and a table
 * keyed by the hash in the file made every fetched page's claim a write at a random place of a
 * table of millions of rows (schema 13, migrations/013-content-claims.ts). The file keeps the
 * claims as a log (content_claims) that this is filled from when a crawl opens or resumes.
 *
 * Open addressing with linear probing over two typed arrays: a 32-bit tag of the hash (the URL
 * index's fingerprint, url-index.ts) and the claiming page's id, 0 for an empty slot: 8 bytes a
 * slot, at most three slots in four used, so 11-21 bytes a claim (10 million claims: 134 MB,
 * and 201 MB for the moment it last doubled). A tag is not the hash: find() hands the caller
 * each page whose tag matches, to check against the hash that page's row holds. The slot is
 * taken from the tag's low bits, so only entries of the same home slot can match by chance:
 * about one lookup in 400 at 10 million claims (2^24 slots) reads a row for nothing, one in 85
 * at 50 million.
 */
export class ContentClaims {
  private tags: Uint32Array;
  private ids: Uint32Array;
  private mask: number;
  private used = 0;

  constructor(expected = 0) {
    let size = 1 << 16;
    while (size * 0.75 < expected) size *= 2;
    this.tags = new Uint32Array(size);
    this.ids = new Uint32Array(size);
    this.mask = size - 1;
  }

  /** The page that claimed `hash`: the first whose tag matches and that `holds` says has it. */
  find(hash: string, holds: (pageId: number) => boolean): number | undefined {
    const tag = tagOf(hash);
    for (let slot = tag & this.mask; this.ids[slot] !== 0; slot = (slot + 1) & this.mask) {
      if (this.tags[slot] === tag && holds(this.ids[slot]!)) return this.ids[slot];
    }
    return undefined;
  }

  /** `pageId` claimed `hash` (the caller found no page before it). */
  add(hash: string, pageId: number): void {
    if ((this.used + 1) * 4 > this.ids.length * 3) this.grow();
    this.put(tagOf(hash), pageId);
    this.used++;
  }

  get size(): number {
    return this.used;
  }

  private put(tag: number, pageId: number): void {
    let slot = tag & this.mask;
    while (this.ids[slot] !== 0) slot = (slot + 1) & this.mask;
    this.tags[slot] = tag;
    this.ids[slot] = pageId;
  }

  private grow(): void {
    const { tags, ids } = this;
    this.tags = new Uint32Array(tags.length * 2);
    this.ids = new Uint32Array(ids.length * 2);
    this.mask = this.ids.length - 1;
    for (let i = 0; i < ids.length; i++) if (ids[i] !== 0) this.put(tags[i]!, ids[i]!);
  }
}

const hi = new Uint32Array(1);
const lo = new Uint32Array(1);
function tagOf(hash: string): number {
  urlFingerprintInto(hash, hi, lo, 0);
  return hi[0]!;
}
