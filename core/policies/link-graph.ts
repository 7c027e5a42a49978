import { csrFromEdges, type CsrGraph } from '../ranking/csr.js';
import type { SiteState } from '../scheduler/site-state.js';

/**
 * Pages a policy has ranked and not yet seen fetched, with their site: what it needs to
 * re-rank pending pages through PolicyHost.setPagePriority. (A page that fails for good
 * stays listed; re-ranking it is a no-op in the scheduler.)
 *
 * Page ids are dense (1, 2, 3... in discovery order), so the site of each page is kept in a
 * typed array indexed by page id, not in a Map: 4 bytes per page instead of some 50, which
 * is most of a policy's memory in a crawl of millions of pending pages (bench/frontier).
 */
export class PendingPages {
  /** page id -> its site's id + 1; 0: not pending. */
  private siteOfPage = new Int32Array(1024);
  private readonly sites = new Map<number, SiteState>();
  private maxId = -1;

  add(id: number, site: SiteState): void {
    if (id >= this.siteOfPage.length) this.siteOfPage = grow(this.siteOfPage, id + 1);
    this.siteOfPage[id] = site.id + 1;
    if (this.sites.get(site.id) !== site) this.sites.set(site.id, site);
    if (id > this.maxId) this.maxId = id;
  }
  remove(id: number): void {
    if (id < this.siteOfPage.length) this.siteOfPage[id] = 0;
  }
  siteOf(id: number): SiteState | undefined {
    const s = id < this.siteOfPage.length ? this.siteOfPage[id]! : 0;
    return s === 0 ? undefined : this.sites.get(s - 1);
  }
  /** Every pending page with its site, by page id. */
  *entries(): IterableIterator<[number, SiteState]> {
    const a = this.siteOfPage;
    for (let id = 0; id <= this.maxId; id++) {
      const s = a[id]!;
      if (s !== 0) yield [id, this.sites.get(s - 1)!];
    }
  }
}

/** A count per page id, in a typed array that grows with the largest id (ids are dense). */
export class PageCounts {
  private counts = new Uint32Array(1024);
  get(id: number): number {
    return id < this.counts.length ? this.counts[id]! : 0;
  }
  /** Adds one to the page's count and returns the new count. */
  increment(id: number): number {
    if (id >= this.counts.length) this.counts = grow(this.counts, id + 1);
    return ++this.counts[id]!;
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
  private readonly index = new Map<number, number>();
  /** node -> page id */
  readonly ids: number[] = [];
  private fetchedFlag = new Uint8Array(1024);
  private outDeg = new Uint32Array(1024);
  private src = new Uint32Array(4096);
  private dst = new Uint32Array(4096);
  private m = 0;

  get nodes(): number {
    return this.ids.length;
  }
  nodeOf(id: number): number | undefined {
    return this.index.get(id);
  }
  /** The node of a page, added if new. */
  node(id: number): number {
    let v = this.index.get(id);
    if (v === undefined) {
      v = this.ids.length;
      this.index.set(id, v);
      this.ids.push(id);
      if (v >= this.fetchedFlag.length) {
        this.fetchedFlag = grow(this.fetchedFlag, v + 1);
        this.outDeg = grow(this.outDeg, v + 1);
      }
    }
    return v;
  }
  isFetched(id: number): boolean {
    const v = this.index.get(id);
    return v !== undefined && this.fetchedFlag[v] === 1;
  }
  isFetchedNode(v: number): boolean {
    return this.fetchedFlag[v] === 1;
  }
  outDegree(id: number): number {
    const v = this.index.get(id);
    return v === undefined ? 0 : this.outDeg[v]!;
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

function grow<T extends Uint8Array | Uint32Array | Int32Array | Float64Array>(a: T, need: number): T {
  let size = a.length;
  while (size < need) size *= 2;
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}
