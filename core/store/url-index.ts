/**
 * The URL-seen test of discovery, in memory: a 64-bit fingerprint of every known URL mapped
 * to its page id, in an open-addressing table of typed arrays (about 12 bytes per slot, some
 * 20 bytes per URL; 5 million URLs take ~100 MiB). Most discovered URLs of a large crawl are
 * answered here without touching SQLite: a new URL is never looked up in the url index of
 * the pages table (Mercator and Heritrix keep URL fingerprints for the same reason).
 *
 * It answers "candidates", not truths: the store confirms a fingerprint hit by reading the
 * page row by id, so two URLs with the same fingerprint can never be confused, and an id
 * left here by a rolled-back batch is simply not found. Page ids are never reused.
 */
export class UrlIndex {
  private hi: Uint32Array;
  private lo: Uint32Array;
  private id: Int32Array;
  private mask: number;
  private count = 0;

  constructor(capacity = 1 << 16) {
    let n = 1 << 10;
    while (n < capacity) n <<= 1;
    this.hi = new Uint32Array(n);
    this.lo = new Uint32Array(n);
    this.id = new Int32Array(n);
    this.mask = n - 1;
  }

  get size(): number {
    return this.count;
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
    if ((this.count + 1) * 10 > (this.mask + 1) * 7) this.grow();
    fingerprint(url);
    const h = fpHi;
    const l = fpLo;
    let i = l & this.mask;
    for (; this.id[i] !== 0; i = (i + 1) & this.mask) {
      if (this.lo[i] === l && this.hi[i] === h && isSame(this.id[i]!)) return false;
    }
    this.hi[i] = h;
    this.lo[i] = l;
    this.id[i] = id;
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
    for (let i = l & this.mask; ; i = (i + 1) & this.mask) {
      const id = this.id[i]!;
      if (id === 0) return undefined;
      if (this.lo[i] === l && this.hi[i] === h) {
        const found = check(id);
        if (found !== undefined) return found;
      }
    }
  }

  private put(h: number, l: number, id: number): void {
    let i = l & this.mask;
    while (this.id[i] !== 0) i = (i + 1) & this.mask;
    this.hi[i] = h;
    this.lo[i] = l;
    this.id[i] = id;
  }

  private grow(): void {
    const { hi, lo, id } = this;
    const n = (this.mask + 1) * 2;
    this.hi = new Uint32Array(n);
    this.lo = new Uint32Array(n);
    this.id = new Int32Array(n);
    this.mask = n - 1;
    for (let i = 0; i < id.length; i++) if (id[i] !== 0) this.put(hi[i]!, lo[i]!, id[i]!);
  }
}

const NEVER_SAME = (): boolean => false;

let fpHi = 0;
let fpLo = 0;

/** Two independent 32-bit hashes of the UTF-16 code units (FNV-1a and a murmur-style mix). */
function fingerprint(s: string): void {
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
