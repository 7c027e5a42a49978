/**
 * New and vanished links among the pages fetched in both crawls (Ntoulas et al. report about
 * 25% new links a week): each crawl's links out of those pages become 64-bit keys of
 * (source URL, target URL) fingerprints, sorted and merged; no URL is held.
 */
import type { CrawlSide } from './crawl-side.js';
import { dedupeSorted, mixPair, overlap64, sortKeys64, type Keys64 } from './sort64.js';

export interface LinkDiff {
  /** Distinct links out of pages fetched in both crawls, in A and in B. */
  linksA: number;
  linksB: number;
  kept: number;
  /** In B, not in A. */
  added: number;
  /** In A, not in B. */
  vanished: number;
  /** added / linksB: the share of B's links (out of common pages) that are new. */
  newShare: number;
}

function linkKeys(side: CrawlSide, both: Uint8Array): Keys64 {
  const cap = side.reader.totals().links;
  const k: Keys64 = { hi: new Uint32Array(cap), lo: new Uint32Array(cap), length: 0 };
  for (const c of side.reader.linkChunks()) {
    for (let i = 0; i < c.length; i++) {
      const s = c.src[i]!;
      const d = c.dst[i]!;
      if (!both[s] || s === d || k.length >= cap) continue;
      mixPair(side.fpHi[s]!, side.fpLo[s]!, side.fpHi[d]!, side.fpLo[d]!, k, k.length++);
    }
  }
  sortKeys64(k);
  dedupeSorted(k);
  return k;
}

export function diffLinks(a: CrawlSide, b: CrawlSide, bothA: Uint8Array, bothB: Uint8Array): LinkDiff {
  const ka = linkKeys(a, bothA);
  const kb = linkKeys(b, bothB);
  const o = overlap64(ka, kb);
  return { linksA: ka.length, linksB: kb.length, kept: o.both, added: o.onlyB, vanished: o.onlyA, newShare: kb.length > 0 ? o.onlyB / kb.length : 0 };
}
