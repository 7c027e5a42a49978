import { int32Pages, uint32Pages } from '../page-array.js';
import { csrFromEdges, type CsrGraph } from '../ranking/csr.js';
import type { SiteState } from '../scheduler/site-state.js';

/**
 * Pages a policy has ranked and not yet seen fetched, with their site: what it needs to
 * re-rank pending pages through PolicyHost.setPagePriority. (A page that fails for good
 * stays listed; re-ranking it is a no-op in the scheduler.)
 *
 * Page ids are dense (1, 2, 3... in discovery order), so the site of each page is kept in a
 * typed array indexed by page id (core/page-array.ts), not in a Map: 4 bytes per page instead
 * of some 50, which is most of a policy's memory in a crawl of millions of pending pages
 * (bench/frontier; 200 MB at 50 million pages).
 */
export class PendingPages {
  /** page id -> its site's id + 1; 0: not pending. */
  private readonly siteOfPage = int32Pages();
  private readonly sites = new Map<number, SiteState>();
  private maxId = -1;

  add(id: number, site: SiteState): void {
    this.siteOfPage.set(id, site.id + 1);
    if (this.sites.get(site.id) !== site) this.sites.set(site.id, site);
    if (id > this.maxId) this.maxId = id;
  }
  remove(id: number): void {
    if (id < this.siteOfPage.end) this.siteOfPage.set(id, 0);
  }
  siteOf(id: number): SiteState | undefined {
    const s = this.siteOfPage.get(id);
    return s === 0 ? undefined : this.sites.get(s - 1);
  }
  /** Every pending page with its site, by page id. */
  *entries(): IterableIterator<[number, SiteState]> {
    const a = this.siteOfPage;
    for (let id = 0; id <= this.maxId; id++) {
      const s = a.get(id);
      if (s !== 0) yield [id, this.sites.get(s - 1)!];
    }
  }
  /** Bytes held (for the benchmarks' accounting). */
  get bytes(): number {
    return this.siteOfPage.bytes;
  }
}

/** A count per page id (4 bytes a page, in chunks: core/page-array.ts). */
export class PageCounts {
  private readonly counts = uint32Pages();
  get(id: number): number {
    return this.counts.get(id);
  }
  /** Adds one to the page's count and returns the new count. */
  increment(id: number): number {
    return this.counts.add(id, 1);
  }
  get bytes(): number {
    return this.counts.bytes;
  }
}

/** A number per page id (0 until set), in a typed array that grows with the largest id. */
export class PageValues {
  private values = new Float64Array(1024);
  get(id: number): number {
    return id < this.values.length ? this.values[id]! : 0;
  }
  set(id: number, value: number): void {
    if (id >= this.values.length) this.values = grow(this.values, id + 1);
    this.values[id] = value;
  }
  add(id: number, value: number): void {
    this.set(id, this.get(id) + value);
  }
}

/** Distinct targets of a fetched page, without self-links, in the order first seen. */
export function distinctTargets(pageId: number, targets: readonly number[]): number[] {
  const seen = new Set<number>();
  const out: number[] = [];
  for (const t of targets) {
    if (t === pageId || seen.has(t)) continue;
    seen.add(t);
    out.push(t);
  }
  return out;
}

/**
 * The link graph a crawl has seen so far: a node per known page (fetched, or only linked
 * to: those are dangling), an edge per link of a fetched page. Node numbers are dense and
 * stable, so a rank vector of an earlier graph is a prefix of the next one's.
 */
export class LinkGraph {
  /** page id -> node; -1: none (by page id: a Map holds at most 2^24 entries, a crawl more). */
  private readonly index = int32Pages(-1);
  private n = 0;
  private fetchedFlag = new Uint8Array(1024);
  private outDeg = new Uint32Array(1024);
  private src = new Uint32Array(4096);
  private dst = new Uint32Array(4096);
  private m = 0;

  get nodes(): number {
    return this.n;
  }
  nodeOf(id: number): number | undefined {
    const v = this.index.get(id);
    return v < 0 ? undefined : v;
  }
  /** The node of a page, added if new. */
  node(id: number): number {
    let v = this.index.get(id);
    if (v < 0) {
      v = this.n++;
      this.index.set(id, v);
      if (v >= this.fetchedFlag.length) {
        this.fetchedFlag = grow(this.fetchedFlag, v + 1);
        this.outDeg = grow(this.outDeg, v + 1);
      }
    }
    return v;
  }
  isFetched(id: number): boolean {
    const v = this.index.get(id);
    return v >= 0 && this.fetchedFlag[v] === 1;
  }
  isFetchedNode(v: number): boolean {
    return this.fetchedFlag[v] === 1;
  }
  outDegree(id: number): number {
    const v = this.index.get(id);
    return v < 0 ? 0 : this.outDeg[v]!;
  }
  /** Records a fetched page and its links; returns its distinct targets ([] if already recorded). */
  addFetched(id: number, targets: readonly number[]): number[] {
    const v = this.node(id);
    if (this.fetchedFlag[v] === 1) return [];
    this.fetchedFlag[v] = 1;
    const out = distinctTargets(id, targets);
    this.outDeg[v] = out.length;
    if (this.m + out.length > this.src.length) {
      this.src = grow(this.src, this.m + out.length);
      this.dst = grow(this.dst, this.m + out.length);
    }
    for (const t of out) {
      const w = this.node(t);
      this.src[this.m] = v;
      this.dst[this.m++] = w;
    }
    return out;
  }
  csr(): CsrGraph {
    return csrFromEdges(this.nodes, this.src.subarray(0, this.m), this.dst.subarray(0, this.m));
  }
}

/** Grows by half: the edge arrays of a crawl of 100 million links doubled would hold up to 800 MB unused. */
function grow<T extends Uint8Array | Uint32Array | Int32Array | Float64Array>(a: T, need: number): T {
  let size = a.length;
  while (size < need) size = Math.ceil(size * 1.5);
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}
