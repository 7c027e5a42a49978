/**
 * The URL-seen test of discovery, in memory: a 64-bit fingerprint of every known URL mapped
 * to its page id, in open-addressing tables held in Uint32Arrays of [hi, lo, id] triples
 * (12 bytes a slot, so a probe touches one cache line, not three arrays). A table is any size,
 * not a power of two (a slot is the fingerprint scaled to the table, as in Lemire's
 * fastrange), kept between half and three quarters full: it grows by half when full, so 16 to
 * 24 bytes per URL (50 million URLs: 0.8 to 1.2 GB, where doubling power-of-two tables would
 * take 1.6 GB). The index is 256 such tables, chosen by the fingerprint's top byte, each grown
 * on its own: a growth copies 1/256 of the index, where one table grown by half held its old
 * slots beside the new ones (at 50 million URLs, 0.8 GB beside 1.2 GB), and the tables,
 * filling at different times, hold about 19 bytes per URL on average at every size. Most
 * discovered URLs of a large crawl are answered here without touching SQLite: a new URL is
 * never looked up in the pages table (Mercator and Heritrix keep URL fingerprints for the
 * same reason).
 *
 * It answers "candidates": the caller decides whether a candidate with the same fingerprint
 * is the same URL (the store trusts the fingerprint where its page facts let it answer from
 * memory, and reads the row otherwise; see page-facts.ts). Page ids are never reused; the
 * ids of a rolled-back batch are dropped with dropFrom.
 */
export class UrlIndex {
  /** Per shard: [hi, lo, id] per slot; id 0: empty. */
  private readonly tables: Uint32Array[] = [];
  private readonly slots = new Int32Array(SHARDS);
  private readonly counts = new Int32Array(SHARDS);
  private count = 0;

  constructor(capacity = 1 << 16) {
    const perShard = Math.max(MIN_SLOTS, Math.ceil(capacity / SHARDS));
    for (let s = 0; s < SHARDS; s++) {
      this.slots[s] = perShard;
      this.tables.push(new Uint32Array(perShard * 3));
    }
  }

  get size(): number {
    return this.count;
  }
  /** Bytes the tables hold (for the benchmarks' accounting). */
  get bytes(): number {
    let n = 0;
    for (const t of this.tables) n += t.byteLength;
    return n;
  }

  /** Records that page `id` (> 0) has this URL, beside any candidate with its fingerprint. */
  add(url: string, id: number): void {
    this.addNew(url, id, NEVER_SAME);
  }

  /**
   * Records that page `id` has this URL unless a page already has it (`isSame(other)`
   * confirms a candidate with the same fingerprint): one hash and one probe for both.
   * Returns false, recording nothing, when the URL is taken.
   */
  addNew(url: string, id: number, isSame: (other: number) => boolean): boolean {
    fingerprint(url);
    const h = fpHi;
    const l = fpLo;
    const s = h >>> SHARD_SHIFT;
    if ((this.counts[s]! + 1) * 4 > this.slots[s]! * 3) this.resize(s, Math.ceil(this.slots[s]! * 1.5));
    const t = this.tables[s]!;
    const slots = this.slots[s]!;
    const end = slots * 3;
    let i = slotOf(l, slots) * 3;
    for (; t[i + 2] !== 0; i = i + 3 === end ? 0 : i + 3) {
      if (t[i + 1] === l && t[i] === h && isSame(t[i + 2]!)) return false;
    }
    t[i] = h;
    t[i + 1] = l;
    t[i + 2] = id;
    this.counts[s]!++;
    this.count++;
    return true;
  }

  /**
   * Calls `check(id)` for each page whose URL has this fingerprint (almost always none or
   * one) until it returns something other than undefined, and returns that.
   */
  find<T>(url: string, check: (id: number) => T | undefined): T | undefined {
    fingerprint(url);
    const h = fpHi;
    const l = fpLo;
    const s = h >>> SHARD_SHIFT;
    const t = this.tables[s]!;
    const slots = this.slots[s]!;
    const end = slots * 3;
    for (let i = slotOf(l, slots) * 3; ; i = i + 3 === end ? 0 : i + 3) {
      const id = t[i + 2]!;
      if (id === 0) return undefined;
      if (t[i + 1] === l && t[i] === h) {
        const found = check(id);
        if (found !== undefined) return found;
      }
    }
  }

  /** Forgets every page with an id of `firstId` or more (a batch that was rolled back). */
  dropFrom(firstId: number): void {
    for (let s = 0; s < SHARDS; s++) {
      const old = this.tables[s]!;
      this.tables[s] = new Uint32Array(old.length);
      this.count -= this.counts[s]!;
      this.counts[s] = 0;
      for (let i = 0; i < old.length; i += 3) {
        const id = old[i + 2]!;
        if (id !== 0 && id < firstId) this.put(s, old[i]!, old[i + 1]!, id);
      }
    }
  }

  private put(s: number, h: number, l: number, id: number): void {
    const t = this.tables[s]!;
    const slots = this.slots[s]!;
    const end = slots * 3;
    let i = slotOf(l, slots) * 3;
    while (t[i + 2] !== 0) i = i + 3 === end ? 0 : i + 3;
    t[i] = h;
    t[i + 1] = l;
    t[i + 2] = id;
    this.counts[s]!++;
    this.count++;
  }

  private resize(s: number, slots: number): void {
    const old = this.tables[s]!;
    this.slots[s] = slots;
    this.tables[s] = new Uint32Array(slots * 3);
    this.count -= this.counts[s]!;
    this.counts[s] = 0;
    for (let i = 0; i < old.length; i += 3) if (old[i + 2] !== 0) this.put(s, old[i]!, old[i + 1]!, old[i + 2]!);
  }
}

/** Tables, chosen by the fingerprint's top byte. */
const SHARD_SHIFT = 24;
const SHARDS = 1 << (32 - SHARD_SHIFT);
/** A table's smallest size: a small crawl's index is 256 x 16 slots (48 KiB). */
const MIN_SLOTS = 16;

/** The fingerprint's low half scaled to [0, slots): multiply-shift, exact enough in a double (slots < 2^28 a table). */
function slotOf(lo: number, slots: number): number {
  return Math.floor(lo * slots * 2.3283064365386963e-10);
}

const NEVER_SAME = (): boolean => false;

let fpHi = 0;
let fpLo = 0;
/** The string fingerprint() last hashed: a URL looked up, then inserted (or looked up twice) is hashed once. */
let fpOf: string | null = null;

/**
 * Two independent 32-bit hashes of the UTF-16 code units (FNV-1a and a murmur-style mix), left
 * in fpHi and fpLo. The URL index and the crawl's recently-seen-URL cache (engine/
 * page-processor.ts, through urlFingerprintInto) key on the same 64 bits, so a link's URL is
 * hashed once for both.
 */
function fingerprint(s: string): void {
  if (s === fpOf) return;
  let a = 0x811c9dc5;
  let b = 0x9747b28c ^ s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  // Final avalanche so that the low bits (the slot) depend on every character.
  a ^= a >>> 16;
  a = Math.imul(a, 0x85ebca6b);
  a ^= a >>> 13;
  a = Math.imul(a, 0xc2b2ae35);
  a ^= a >>> 16;
  b ^= b >>> 13;
  b = Math.imul(b, 0x5bd1e995);
  b ^= b >>> 15;
  fpHi = a >>> 0;
  fpLo = b >>> 0;
  fpOf = s;
}

/**
 * The same 64-bit fingerprint of a URL, written as its two 32-bit halves into hi[at] and lo[at]:
 * for readers that match two crawls' URLs through sorted fingerprints instead of holding both
 * crawls' URLs (core/compare).
 */
export function urlFingerprintInto(url: string, hi: Uint32Array, lo: Uint32Array, at: number): void {
  fingerprint(url);
  hi[at] = fpHi;
  lo[at] = fpLo;
}
