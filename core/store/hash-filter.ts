import { urlFingerprintInto } from './url-index.js';

/**
 * The content hashes a crawl has stored, as a Bloom filter: "certainly new" for almost every
 * fetched page without reading the file. With a writer thread the crawl thread's connection
 * sees only committed batches and its page cache is dropped at every commit, so the lookup
 * by hash that found each page's duplicate cost a read through the WAL per page (3.6% of the
 * crawl thread on bench/throughput); now only a page whose hash the filter may hold (a
 * duplicate, or a false positive: about 1%) is read.
 *
 * Scalable (Almeida et al., 2007): a stage for its capacity, and a new one of twice the
 * capacity when it fills, each stage's false positives half the last's (1%, 0.5%, ...: 2% at
 * most over all of them), so the filter grows with the crawl: 10 bits per hash in the first
 * stage, 1.44 more in each next (about 2.5 bytes per fetched page at 10 million: 25 MB).
 */
export class HashFilter {
  private readonly stages: Stage[] = [];

  constructor(private firstCapacity = 1 << 16) {}

  add(hash: string): void {
    let s = this.stages[this.stages.length - 1];
    if (s === undefined || s.count >= s.capacity) {
      s = stage(s === undefined ? this.firstCapacity : s.capacity * 2, this.stages.length);
      this.stages.push(s);
    }
    probe(hash);
    const { bits, m, k } = s;
    for (let i = 0, x = h1; i < k; i++, x = (x + h2) >>> 0) {
      const b = x % m;
      bits[b >>> 5]! |= 1 << (b & 31);
    }
    s.count++;
  }

  /** False: no hash like it was ever added. True: it may have been (read the file to know). */
  mayHave(hash: string): boolean {
    probe(hash);
    for (const { bits, m, k } of this.stages) {
      let all = true;
      for (let i = 0, x = h1; i < k && all; i++, x = (x + h2) >>> 0) {
        const b = x % m;
        all = (bits[b >>> 5]! & (1 << (b & 31))) !== 0;
      }
      if (all) return true;
    }
    return false;
  }

  /** Bytes the filter holds. */
  get bytes(): number {
    return this.stages.reduce((n, s) => n + s.bits.byteLength, 0);
  }
}

interface Stage {
  bits: Uint32Array;
  m: number;
  /** Probes per hash. */
  k: number;
  capacity: number;
  count: number;
}

/** Stage `n` (from 0): false positives 1% / 2^n, so 1.44 (1 / ln 2) more bits per hash and one more probe than the last. */
function stage(capacity: number, n: number): Stage {
  const words = Math.ceil((capacity * (9.6 + 1.44 * n)) / 32);
  return { bits: new Uint32Array(words), m: words * 32, k: 7 + n, capacity, count: 0 };
}

const hi = new Uint32Array(1);
const lo = new Uint32Array(1);
let h1 = 0;
let h2 = 0;

/** Two 32-bit hashes of the string (the URL index's 64-bit fingerprint, url-index.ts); double hashing gives the probes, h2 odd. */
function probe(s: string): void {
  urlFingerprintInto(s, hi, lo, 0);
  h1 = hi[0]!;
  h2 = (lo[0]! | 1) >>> 0;
}
