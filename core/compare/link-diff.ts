/**
 * New and vanished links among the pages fetched in both crawls (Ntoulas et al. report about
 * 25% new links a week): each crawl's links out of those pages become 64-bit keys of
 * (source URL, target URL) fingerprints, sorted and merged; no URL is held.
 */
import type { CrawlSide, Tick } from './crawl-side.js';
import type { LinkDiff } from './report.js';
import { dedupeSorted, mixPair, overlap64, sortKeys64, type Keys64 } from './sort64.js';


async function linkKeys(side: CrawlSide, both: Uint8Array, tick: Tick): Promise<Keys64> {
  const cap = side.reader.totals().links;
  const k: Keys64 = { hi: new Uint32Array(cap), lo: new Uint32Array(cap), length: 0 };
  for (const c of side.reader.linkChunks()) {
    for (let i = 0; i < c.length; i++) {
      const s = c.src[i]!;
      const d = c.dst[i]!;
      if (!both[s] || s === d || k.length >= cap) continue;
      mixPair(side.fpHi[s]!, side.fpLo[s]!, side.fpHi[d]!, side.fpLo[d]!, k, k.length++);
    }
    await tick();
  }
  sortKeys64(k);
  dedupeSorted(k);
  return k;
}

export async function diffLinks(a: CrawlSide, b: CrawlSide, bothA: Uint8Array, bothB: Uint8Array, tick: Tick): Promise<LinkDiff> {
  const ka = await linkKeys(a, bothA, tick);
  const kb = await linkKeys(b, bothB, tick);
  const o = overlap64(ka, kb);
  return { linksA: ka.length, linksB: kb.length, kept: o.both, added: o.onlyB, vanished: o.onlyA, newShare: kb.length > 0 ? o.onlyB / kb.length : 0 };
}
