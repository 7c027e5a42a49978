/**
 * Builds the link graph of one revision of a generated web as CSR arrays (offsets + targets),
 * walking pages in id order with one seeded stream per site, so the same layout and seed always
 * give the same graph. Guarantees, by construction:
 *  - every page of a site is reachable from its home page: page j > 0 gets an in-link from an
 *    earlier page of the site that a polite crawler can fetch and parse (a random tree, biased
 *    towards the top so home pages become hubs);
 *  - every site's home page is reachable from site 0's home page: site s >= 1 gets one
 *    "discovery" link from a random page of an earlier site (bigger sites are picked more);
 *  - site 0's home page is a portal linking to the first home pages and to every fault site.
 * Beyond that, each page gets a lognormal number of extra links (mean ~4): ~84% inside the site
 * (to top pages, nearby pages or anywhere), the rest to other sites' home and top pages, with
 * bigger sites chosen more often. Links are de-duplicated and never point at their own page.
 */
import { hash, Rng } from '../random.js';
import { isParentable, pageKind, PageKind, type SiteTraits } from './site-model.js';
import { searchFirst } from './web.js';

export interface Layout {
  seed: number;
  /** Separates the random streams of revision 1 and 2. */
  salt: number;
  /** Ordinary (non-fault) sites come first: 0 .. ordinary-1. */
  ordinary: number;
  /** Start id and page count of every site, fault sites (one page each) last. */
  firsts: Int32Array;
  counts: Int32Array;
  /** Page number of each page within its site (see site-model.ts); null = id - first. */
  urlNums: Int32Array | null;
  traits: SiteTraits[];
  pageCount: number;
}

/** Links carried over from a previous revision (already translated to the new ids). */
export type KeptLinks = (id: number, push: (target: number) => void) => void;

/** A tree parent carried over from a previous revision: the new id of page `id`'s old parent, or -1. */
export type KeptParent = (id: number) => number;

export interface Csr {
  offsets: Int32Array;
  targets: Int32Array;
  /** Spanning-tree parent of every page (-1 for home pages and fault sites), kept for revision 2. */
  parents: Int32Array;
}

const CROSS_SHARE = 0.16;
const PORTAL_LINKS = 60;
const TOP_LINKS = 8;

/**
 * What a later revision carries over from the earlier one: links, tree parents, and how
 * attractive each page is to new links (its old in-degree: the rich get richer).
 */
export interface Carried {
  links: KeptLinks;
  parent: KeptParent;
  /** Weight of each page as the target of a new in-site link. */
  attract: Float64Array;
}

/** Share of a later revision's new in-site links drawn by `attract` rather than by position. */
const PREFERENTIAL = 0.85;

export function buildLinks(L: Layout, carried?: Carried): Csr {
  return new LinkBuilder(L, carried).build();
}

/**
 * The CSR arrays being written, page by page in id order, and the scratch arrays reused by
 * every site (sized for the largest). Each site draws from its own seeded stream, in a fixed
 * order: its spanning tree, then per page the count of extra links and the links themselves.
 */
class LinkBuilder {
  private readonly ordinaryPages: number;
  private readonly offsets: Int32Array;
  private targets: Int32Array;
  private len = 0;
  /** stamp[t] === self: t is already linked from the page being written, `self`. */
  private readonly stamp: Int32Array;
  private self = 0;
  private readonly parents: Int32Array;
  private readonly discovery: Float64Array;
  private nextDiscovery = 0;
  private readonly childStart: Int32Array;
  private readonly cumAttract: Float64Array;
  private readonly children: Int32Array;
  private readonly parent: Int32Array;
  /** push() as a function, for the carried links; made once per build. */
  private readonly pushTarget = (t: number): void => this.push(t);

  constructor(
    private readonly L: Layout,
    private readonly carried: Carried | undefined,
  ) {
    const { ordinary, firsts, counts } = L;
    this.ordinaryPages = ordinary > 0 ? firsts[ordinary - 1]! + counts[ordinary - 1]! : 0;
    this.offsets = new Int32Array(L.pageCount + 1);
    this.targets = new Int32Array(Math.max(16, this.ordinaryPages * 6));
    this.stamp = new Int32Array(L.pageCount).fill(-1);
    this.parents = new Int32Array(L.pageCount).fill(-1);
    this.discovery = discoveryLinks(L);
    let maxCount = 0;
    for (let s = 0; s < ordinary; s++) maxCount = Math.max(maxCount, counts[s]!);
    this.childStart = new Int32Array(maxCount + 1);
    this.cumAttract = new Float64Array(maxCount);
    this.children = new Int32Array(maxCount);
    this.parent = new Int32Array(maxCount);
  }

  build(): Csr {
    const { firsts, ordinary, pageCount } = this.L;
    for (let s = 0; s < firsts.length; s++) {
      // Fault sites: their pages are served by faults.ts and are not part of the graph.
      if (s >= ordinary) this.offsets[firsts[s]! + 1] = this.len;
      else this.site(s);
    }
    this.offsets[pageCount] = this.len;
    return { offsets: this.offsets, targets: this.targets.slice(0, this.len), parents: this.parents };
  }

  private site(s: number): void {
    const L = this.L;
    const f = L.firsts[s]!;
    const n = L.counts[s]!;
    const rng = new Rng(hash(L.seed, L.salt, s));
    const attract = this.carried?.attract;
    if (attract) {
      let acc = 0;
      for (let j = 0; j < n; j++) this.cumAttract[j] = acc += attract[f + j]!;
    }
    this.tree(s, f, n, rng);
    for (let j = 0; j < n; j++) this.page(s, f, n, j, rng);
    this.offsets[f + n] = this.len;
  }

  /**
   * The spanning tree: parent of j is an earlier, fetchable HTML page. A page whose parent
   * in the previous revision survived keeps it (the draws are made anyway, so the stream of
   * the rest of the site does not depend on which parents were kept). Leaves each page's
   * children in children[childStart[j] .. childStart[j + 1]), ascending.
   */
  private tree(s: number, f: number, n: number, rng: Rng): void {
    const { seed, traits } = this.L;
    const t = traits[s]!;
    const keptParent = this.carried?.parent;
    const { childStart, children, parent } = this;
    childStart.fill(0, 0, n + 1);
    for (let j = 1; j < n; j++) {
      const r = rng.float();
      let p = r < 0.5 ? Math.floor(j * rng.float()) : Math.floor(j * rng.float() * rng.float());
      while (p > 0 && !isParentable(seed, s, t, this.urlNum(f, p))) p >>= 1;
      const old = keptParent ? keptParent(f + j) - f : -1;
      if (old >= 0 && old < j) p = old;
      parent[j] = p;
      this.parents[f + j] = f + p;
      childStart[p + 1]!++;
    }
    for (let j = 0; j < n; j++) childStart[j + 1]! += childStart[j]!;
    const cursor = childStart.slice(0, n);
    for (let j = 1; j < n; j++) children[cursor[parent[j]!]!++] = j;
  }

  /** Page j's links: its tree children, home-page links, carried links, extras, discovery links. */
  private page(s: number, f: number, n: number, j: number, rng: Rng): void {
    const { seed, ordinary, firsts } = this.L;
    const id = f + j;
    this.self = id;
    this.offsets[id] = this.len;
    const extras = Math.min(80, Math.floor(Math.exp(0.8 * rng.normal() + 1.25)));
    // Discovery sources are always HTML, so nothing is pending for other pages.
    if (pageKind(seed, s, this.urlNum(f, j)) !== PageKind.Html) return;
    for (let c = this.childStart[j]!; c < this.childStart[j + 1]!; c++) this.push(f + this.children[c]!);
    if (j === 0) {
      for (let k = 1; k < Math.min(n, TOP_LINKS + 1); k++) this.push(f + k);
      if (s === 0) {
        for (let o = 1; o < Math.min(ordinary, PORTAL_LINKS + 1); o++) this.push(firsts[o]!);
        for (let o = ordinary; o < firsts.length; o++) this.push(firsts[o]!);
      }
    }
    const before = this.len;
    this.carried?.links(id, this.pushTarget);
    const todo = extras - (this.len - before);
    for (let e = 0; e < todo; e++) this.extraLink(s, f, n, j, rng);
    const discovery = this.discovery;
    while (this.nextDiscovery < discovery.length && Math.floor(discovery[this.nextDiscovery]! / DISC_SCALE) === id) {
      this.push(firsts[discovery[this.nextDiscovery]! % DISC_SCALE]!);
      this.nextDiscovery++;
    }
  }

  /** One extra link of page j: to another site's home or top pages, or inside the site. */
  private extraLink(s: number, f: number, n: number, j: number, rng: Rng): void {
    const { ordinary, firsts, counts } = this.L;
    if (rng.float() < CROSS_SHARE || n === 1) {
      const r = rng.float();
      const ts = r < 0.7 ? searchFirst(firsts, rng.int(this.ordinaryPages)) : rng.int(ordinary);
      if (ts === s) return;
      const nt = counts[ts]!;
      const k = rng.float() < 0.6 ? 0 : Math.floor(nt * rng.float() ** 3);
      this.push(firsts[ts]! + k);
    } else {
      const r = rng.float();
      let k: number;
      if (this.carried?.attract && rng.float() < PREFERENTIAL) k = Math.min(n - 1, upperBound(this.cumAttract, n, rng.float() * this.cumAttract[n - 1]!));
      else if (r < 0.2) k = Math.floor(n * rng.float() ** 3);
      else if (r < 0.6) k = Math.min(n - 1, Math.max(0, j + Math.round(6 * rng.normal())));
      else k = rng.int(n);
      this.push(f + k);
    }
  }

  private push(t: number): void {
    const self = this.self;
    if (t === self || this.stamp[t] === self) return;
    this.stamp[t] = self;
    if (this.len === this.targets.length) {
      const bigger = new Int32Array(this.targets.length * 2);
      bigger.set(this.targets);
      this.targets = bigger;
    }
    this.targets[this.len++] = t;
  }

  private urlNum(f: number, j: number): number {
    return this.L.urlNums ? this.L.urlNums[f + j]! : j;
  }
}

/** First j in [0, n) with cum[j] > x. */
function upperBound(cum: Float64Array, n: number, x: number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cum[mid]! > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

const DISC_SCALE = 1 << 21; // sites < 2M; key = source id * DISC_SCALE + site

/**
 * One link to each site s >= 1 from a random page of an earlier site, sorted by source id.
 * The source is an HTML page outside robots-disallowed paths, on a site whose robots.txt does
 * not answer 500, so a polite crawler starting at site 0 can really follow the chain.
 */
function discoveryLinks(L: Layout): Float64Array {
  const { seed, firsts, ordinary } = L;
  const rng = new Rng(hash(seed, L.salt, 0x5eed));
  const keys = new Float64Array(Math.max(0, ordinary - 1));
  for (let s = 1; s < ordinary; s++) {
    let src = 0;
    for (let attempt = 0; attempt < 4; attempt++) {
      const g = rng.int(firsts[s]!);
      const ps = searchFirst(firsts, g);
      if (L.traits[ps]!.robots === 'server-error') continue;
      const j = g - firsts[ps]!;
      const uj = L.urlNums ? L.urlNums[g]! : j;
      src = isParentable(seed, ps, L.traits[ps]!, uj) ? g : firsts[ps]!;
      break;
    }
    keys[s - 1] = src * DISC_SCALE + s;
  }
  return keys.sort();
}
