/**
 * Sorting 64-bit keys held as two 32-bit halves (hi, lo), with an optional 32-bit payload,
 * by LSD radix sort on 16-bit digits: four linear passes, no comparator and no BigInt, so two
 * crawls' million URL fingerprints (or ten million link keys) sort in a fraction of a second
 * in typed arrays. A comparison is then a merge of two sorted runs, never a map of URLs.
 */
export interface Keys64 {
  hi: Uint32Array;
  lo: Uint32Array;
  /** Carried along (e.g. the page id); absent when only the keys matter. */
  payload?: Uint32Array;
  length: number;
}

const RADIX = 1 << 16;

/** Sorts the first `length` entries in place (hi, then lo, ascending). */
export function sortKeys64(k: Keys64): void {
  const n = k.length;
  if (n < 2) return;
  let hi = k.hi;
  let lo = k.lo;
  let pay = k.payload;
  let hi2: Uint32Array = new Uint32Array(n);
  let lo2: Uint32Array = new Uint32Array(n);
  let pay2: Uint32Array | undefined = pay ? new Uint32Array(n) : undefined;
  const count = new Uint32Array(RADIX);
  // Digits from the least significant: lo low, lo high, hi low, hi high.
  for (let pass = 0; pass < 4; pass++) {
    const src = pass < 2 ? lo : hi;
    const shift = pass % 2 === 0 ? 0 : 16;
    count.fill(0);
    for (let i = 0; i < n; i++) count[(src[i]! >>> shift) & 0xffff]!++;
    let sum = 0;
    for (let d = 0; d < RADIX; d++) {
      const c = count[d]!;
      count[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const j = count[(src[i]! >>> shift) & 0xffff]!++;
      hi2[j] = hi[i]!;
      lo2[j] = lo[i]!;
      if (pay) pay2![j] = pay[i]!;
    }
    [hi, hi2] = [hi2, hi];
    [lo, lo2] = [lo2, lo];
    if (pay) [pay, pay2] = [pay2, pay];
  }
  // Four passes: the sorted data is back in the caller's arrays.
}

/** -1, 0 or 1 as key a (ahi, alo) is below, equal to or above key b. */
export function compare64(ahi: number, alo: number, bhi: number, blo: number): number {
  return ahi !== bhi ? (ahi < bhi ? -1 : 1) : alo !== blo ? (alo < blo ? -1 : 1) : 0;
}

/** Removes repeated keys from sorted keys; returns the new length. */
export function dedupeSorted(k: Keys64): number {
  let w = 0;
  for (let i = 0; i < k.length; i++) {
    if (w > 0 && k.hi[w - 1] === k.hi[i] && k.lo[w - 1] === k.lo[i]) continue;
    k.hi[w] = k.hi[i]!;
    k.lo[w] = k.lo[i]!;
    if (k.payload) k.payload[w] = k.payload[i]!;
    w++;
  }
  k.length = w;
  return w;
}

/** Counts of two sorted, deduplicated key sets: only in a, only in b, in both. */
export function overlap64(a: Keys64, b: Keys64): { onlyA: number; onlyB: number; both: number } {
  let i = 0;
  let j = 0;
  let both = 0;
  while (i < a.length && j < b.length) {
    const c = compare64(a.hi[i]!, a.lo[i]!, b.hi[j]!, b.lo[j]!);
    if (c === 0) {
      both++;
      i++;
      j++;
    } else if (c < 0) i++;
    else j++;
  }
  return { onlyA: a.length - both, onlyB: b.length - both, both };
}

/** A 64-bit mix of two 64-bit keys (a link's source and target fingerprints), written into out[at]. */
export function mixPair(ahi: number, alo: number, bhi: number, blo: number, out: Keys64, at: number): void {
  let h1 = Math.imul(ahi ^ 0x9e3779b9, 0x85ebca6b) ^ blo;
  let h2 = Math.imul(alo ^ 0x7f4a7c15, 0xc2b2ae35) ^ bhi;
  h1 = Math.imul(h1 ^ (h1 >>> 16), 0x7feb352d) ^ Math.imul(bhi, 0x846ca68b);
  h2 = Math.imul(h2 ^ (h2 >>> 15), 0x846ca68b) ^ Math.imul(blo, 0x7feb352d);
  h1 ^= h2 >>> 13;
  h2 ^= h1 >>> 16;
  out.hi[at] = Math.imul(h1 ^ (h1 >>> 15), 0x2c1b3c6d) >>> 0;
  out.lo[at] = Math.imul(h2 ^ (h2 >>> 12), 0x297a2d39) >>> 0;
}
