/**
 * Revision 2: the same web "months later" (the thesis re-crawled .cl after four months and found
 * only 55% of the pages again). From revision 1 with the same seed:
 *  - every site survives and keeps its host and traits; home pages and the robots-disallowed
 *    pages 1..3 always survive, other pages with a probability chosen so that ~55% of revision
 *    1's URLs survive overall; a survivor keeps its exact path (same page number);
 *  - each site gains new pages (0-100% of its old size, 50% on average), numbered after the
 *    old ones so their paths never collide with a page that died;
 *  - ~10% new sites are added after the old ones, found through discovery links;
 *  - links are rebuilt with a fresh random tree (so everything stays reachable); a surviving
 *    page keeps each old link to a surviving page with probability 0.6 and gets new links to
 *    bring its out-degree back to its usual level.
 */
import type { GeneratedWeb } from './generated-web.js';
import { GeneratedWeb as Web2 } from './generated-web.js';
import { faultCount, makeLayout, REV2_SALT, siteInfos } from './layout.js';
import { buildLinks } from './link-builder.js';
import { hash, Rng, unit } from './random.js';
import { isSpecial } from './site-model.js';
import { siteSizes } from './site-sizes.js';
import { newSiteCount, type ResolvedSpec } from './spec.js';

const S_SURVIVE = 21;
const S_GROW = 22;
const S_KEEP = 23;
const SURVIVAL = 0.55;
const KEEP_LINK = 0.6;

export function buildRevision2(o: ResolvedSpec, rev1: GeneratedWeb): GeneratedWeb {
  const L1 = rev1.layout;
  const S1 = L1.ordinary;
  const N1 = S1 > 0 ? L1.firsts[S1 - 1]! + L1.counts[S1 - 1]! : 0;

  // Survival probability of an ordinary page such that ~55% of all URLs survive.
  let forced = 0;
  for (let s = 0; s < S1; s++) forced += 1 + (L1.traits[s]!.specialDir ? Math.min(3, L1.counts[s]! - 1) : 0);
  const p = N1 > forced ? Math.min(1, Math.max(0, (SURVIVAL * N1 - forced) / (N1 - forced))) : 1;
  const survives = (s: number, u: number) =>
    u === 0 || isSpecial(L1.traits[s]!, u) || unit(hash(o.seed, s, u, S_SURVIVE)) < p;
  const added = (s: number) => {
    const x = L1.counts[s]! * unit(hash(o.seed, s, S_GROW));
    return Math.floor(x + unit(hash(o.seed, s, S_GROW, 1)));
  };

  const extra = newSiteCount(S1);
  const newSizes = siteSizes(new Rng(hash(o.seed, 0x2e51)), extra, Math.round((extra * N1) / Math.max(1, S1)), o.cap);
  const sizes = new Int32Array(S1 + extra);
  for (let s = 0; s < S1; s++) {
    let n = added(s);
    for (let u = 0; u < L1.counts[s]!; u++) if (survives(s, u)) n++;
    sizes[s] = n;
  }
  sizes.set(newSizes, S1);

  let total = 0;
  for (const n of sizes) total += n;
  // Fault pages (after `total`) keep page number 0 and have no old counterpart in this table.
  const urlNums = new Int32Array(total + faultCount(o));
  const newToOld = new Int32Array(total).fill(-1);
  const oldToNew = new Int32Array(L1.pageCount).fill(-1);
  let id = 0;
  for (let s = 0; s < sizes.length; s++) {
    if (s >= S1) {
      for (let u = 0; u < sizes[s]!; u++) urlNums[id++] = u;
      continue;
    }
    const n1 = L1.counts[s]!;
    for (let u = 0; u < n1; u++) {
      if (!survives(s, u)) continue;
      const old = L1.firsts[s]! + u;
      oldToNew[old] = id;
      newToOld[id] = old;
      urlNums[id++] = u;
    }
    const end = n1 + added(s);
    for (let u = n1; u < end; u++) urlNums[id++] = u;
  }

  const L2 = makeLayout(o, REV2_SALT, sizes, urlNums);
  // Fault sites are single pages after the ordinary ones in both revisions.
  for (let k = 0; k < L2.firsts.length - L2.ordinary; k++) oldToNew[L1.firsts[S1 + k]!] = L2.firsts[L2.ordinary + k]!;
  const csr = buildLinks(L2, (nid, push) => {
    const old = nid < total ? newToOld[nid]! : -1;
    if (old < 0) return;
    const { offsets, targets } = rev1.csr;
    for (let i = offsets[old]!; i < offsets[old + 1]!; i++) {
      const t = targets[i]!;
      const nt = oldToNew[t]!;
      if (nt >= 0 && unit(hash(o.seed, old, t, S_KEEP)) < KEEP_LINK) push(nt);
    }
  });
  return new Web2(2, L2, csr, siteInfos(o, L2));
}
