/**
 * Revision 2: the same web "months later" (the thesis re-crawled .cl after four months and found
 * only 55% of the pages again). From revision 1 with the same seed:
 *  - every site survives and keeps its host and traits; home pages and the robots-disallowed
 *    pages 1..3 always survive, other pages with a probability that grows with their in-degree,
 *    scaled so that ~55% of revision 1's URLs survive overall; a survivor keeps its exact path
 *    (same page number);
 *  - each site gains new pages (0-100% of its old size, 50% on average), numbered after the
 *    old ones so their paths never collide with a page that died;
 *  - ~10% new sites are added after the old ones, found through discovery links;
 *  - PageRank persists, as it does on the real web (the thesis: the surviving 55% of pages held
 *    72% of the new PageRank; here 66-69%): a surviving page keeps its old spanning-tree parent
 *    if that survived (else it gets a new one, so everything stays reachable), keeps each old
 *    link to a surviving page with probability 0.9, and gets new links to bring its out-degree
 *    back to its usual level; new in-site links pick their target by old in-degree (the rich
 *    get richer; pages born in revision 2 count as in-degree 0).
 */
import type { GeneratedWeb } from './generated-web.js';
import { GeneratedWeb as Web2 } from './generated-web.js';
import { faultCount, makeLayout, REV2_SALT, siteInfos } from './layout.js';
import { buildLinks, type Carried, type Layout } from './link-builder.js';
import { hash, Rng, unit } from '../random.js';
import { isSpecial } from './site-model.js';
import { siteSizes } from './site-sizes.js';
import { newSiteCount, type ResolvedSpec } from './spec.js';

const S_SURVIVE = 21;
const S_GROW = 22;
const S_KEEP = 23;
const SURVIVAL = 0.55;
const KEEP_LINK = 0.9;
const GAMMA = 0.7;
/** A page born in revision 2 attracts new links like an old page with no in-links. */
const NEW_PAGE_ATTRACT = 1;
const MAX_SURVIVAL = 0.95;

export function buildRevision2(o: ResolvedSpec, rev1: GeneratedWeb): GeneratedWeb {
  const survival = new Survival(o.seed, rev1);
  const sizes = siteSizes2(o, survival);
  const ids = renumber(o, survival, sizes);
  const L1 = rev1.layout;
  const L2 = makeLayout(o, REV2_SALT, sizes, ids.urlNums);
  // Fault sites are single pages after the ordinary ones in both revisions.
  for (let k = 0; k < L2.firsts.length - L2.ordinary; k++) ids.oldToNew[L1.firsts[L1.ordinary + k]!] = L2.firsts[L2.ordinary + k]!;
  const csr = buildLinks(L2, carried(o, rev1, survival.indegree, ids, L2.pageCount));
  return new Web2(2, L2, csr, siteInfos(o, L2), { web: rev1, newToOld: ids.newToOld });
}

/**
 * Which of revision 1's pages survive, and how many pages each old site gains. Pages that
 * many others link to are the ones that last (the thesis: the 55% of pages that survived held
 * 72% of the new PageRank): an ordinary page survives with probability
 * min(MAX_SURVIVAL, a * indegree^GAMMA), with `a` chosen so that ~55% of all URLs survive.
 */
class Survival {
  readonly L1: Layout;
  /** Old ordinary sites, and their pages (ids 0 .. N1-1). */
  readonly S1: number;
  readonly N1: number;
  readonly indegree: Int32Array;
  private readonly a: number;

  constructor(
    private readonly seed: number,
    rev1: GeneratedWeb,
  ) {
    const L1 = (this.L1 = rev1.layout);
    this.S1 = L1.ordinary;
    const N1 = (this.N1 = this.S1 > 0 ? L1.firsts[this.S1 - 1]! + L1.counts[this.S1 - 1]! : 0);
    this.indegree = new Int32Array(N1);
    const { targets: t1 } = rev1.csr;
    for (let i = 0; i < rev1.csr.offsets[N1]!; i++) if (t1[i]! < N1) this.indegree[t1[i]!]!++;
    this.a = this.calibrate();
  }

  survives(s: number, u: number): boolean {
    return this.forced(s, u) || unit(hash(this.seed, s, u, S_SURVIVE)) < Math.min(MAX_SURVIVAL, this.a * this.weight(this.L1.firsts[s]! + u));
  }

  /** New pages of old site s: 0-100% of its old size. */
  added(s: number): number {
    const x = this.L1.counts[s]! * unit(hash(this.seed, s, S_GROW));
    return Math.floor(x + unit(hash(this.seed, s, S_GROW, 1)));
  }

  /** `a` by bisection: the expected survivors reach SURVIVAL of the old pages. */
  private calibrate(): number {
    const { L1, S1, N1 } = this;
    let forced = 0;
    for (let s = 0; s < S1; s++) forced += 1 + (L1.traits[s]!.specialDir ? Math.min(3, L1.counts[s]! - 1) : 0);
    const expected = (a: number) => {
      let e = forced;
      for (let s = 0; s < S1; s++) {
        for (let u = 0; u < L1.counts[s]!; u++) if (!this.forced(s, u)) e += Math.min(MAX_SURVIVAL, a * this.weight(L1.firsts[s]! + u));
      }
      return e;
    };
    let lo = 0;
    let hi = 1;
    if (expected(hi) < SURVIVAL * N1) hi = Infinity;
    else for (let k = 0; k < 40; k++) (expected((lo + hi) / 2) < SURVIVAL * N1 ? (lo = (lo + hi) / 2) : (hi = (lo + hi) / 2));
    return hi;
  }

  /** Home pages and the robots-disallowed pages always survive. */
  private forced(s: number, u: number): boolean {
    return u === 0 || isSpecial(this.L1.traits[s]!, u);
  }

  private weight(id: number): number {
    return Math.max(1, this.indegree[id]!) ** GAMMA;
  }
}

/** Pages per site in revision 2: old sites' survivors plus their new pages, then the new sites. */
function siteSizes2(o: ResolvedSpec, survival: Survival): Int32Array {
  const { L1, S1, N1 } = survival;
  const extra = newSiteCount(S1);
  const newSizes = siteSizes(new Rng(hash(o.seed, 0x2e51)), extra, Math.round((extra * N1) / Math.max(1, S1)), o.cap);
  const sizes = new Int32Array(S1 + extra);
  for (let s = 0; s < S1; s++) {
    let n = survival.added(s);
    for (let u = 0; u < L1.counts[s]!; u++) if (survival.survives(s, u)) n++;
    sizes[s] = n;
  }
  sizes.set(newSizes, S1);
  return sizes;
}

interface Renumbered {
  /** Ordinary pages of revision 2. */
  total: number;
  /** Page number of every page within its site: a survivor keeps its old one. */
  urlNums: Int32Array;
  newToOld: Int32Array;
  oldToNew: Int32Array;
}

/** Revision 2's ids: per site its survivors in old order, then its new pages, then the new sites. */
function renumber(o: ResolvedSpec, survival: Survival, sizes: Int32Array): Renumbered {
  const { L1, S1 } = survival;
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
      if (!survival.survives(s, u)) continue;
      const old = L1.firsts[s]! + u;
      oldToNew[old] = id;
      newToOld[id] = old;
      urlNums[id++] = u;
    }
    const end = n1 + survival.added(s);
    for (let u = n1; u < end; u++) urlNums[id++] = u;
  }
  return { total, urlNums, newToOld, oldToNew };
}

/** What revision 2's links carry over: old links kept with probability KEEP_LINK, old tree parents, old in-degree as attraction. */
function carried(o: ResolvedSpec, rev1: GeneratedWeb, indegree: Int32Array, ids: Renumbered, pageCount: number): Carried {
  const { total, newToOld, oldToNew } = ids;
  const attract = new Float64Array(pageCount).fill(NEW_PAGE_ATTRACT);
  for (let nid = 0; nid < total; nid++) if (newToOld[nid]! >= 0) attract[nid] = 1 + indegree[newToOld[nid]!]!;
  return {
    links: (nid, push) => {
      const old = nid < total ? newToOld[nid]! : -1;
      if (old < 0) return;
      const { offsets, targets } = rev1.csr;
      for (let i = offsets[old]!; i < offsets[old + 1]!; i++) {
        const t = targets[i]!;
        const nt = oldToNew[t]!;
        if (nt >= 0 && unit(hash(o.seed, old, t, S_KEEP)) < KEEP_LINK) push(nt);
      }
    },
    parent: (nid) => {
      const old = nid < total ? newToOld[nid]! : -1;
      const op = old >= 0 ? rev1.csr.parents[old]! : -1;
      return op >= 0 ? oldToNew[op]! : -1;
    },
    attract,
  };
}

