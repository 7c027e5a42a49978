import { pagerank } from '../ranking/pagerank.js';
import type { DiscoveredPage, Policy, PolicyHost } from '../scheduler/policy.js';
import type { SiteState } from '../scheduler/site-state.js';
import { LinkGraph, PendingPages } from './link-graph.js';

/**
 * Batch-PageRank (docs/design.md section 3.1): every K fetched pages, the PageRank of the graph
 * seen so far (known but unfetched pages are nodes too, as dangling pages) re-ranks every
 * pending page; pages discovered in between wait with priority 0 (partial-pagerank gives
 * them an estimate instead). When the scheduler runs in batches it calls onBatch every K
 * pages, just before the K-th page's links are known: the recomputation then waits for
 * that page's onFetched. Otherwise the policy counts fetched pages itself.
 */
export class BatchPageRank implements Policy {
  readonly name: string = 'batch-pagerank';
  protected host: PolicyHost | null = null;
  protected readonly pending = new PendingPages();
  protected readonly graph = new LinkGraph();
  /** Latest PageRank by node (empty before the first computation). */
  protected ranks: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private sinceBatch = 0;
  private due = false;
  /** Sum of the latest estimates of the pages fetched so far (null before the first computation). */
  private fetchedRank: number | null = null;
  computations = 0;

  constructor(
    readonly k: number,
    /** true: the scheduler calls onBatch every K pages; false: count them here. */
    private readonly scheduled: boolean,
    protected readonly damping = 0.85,
  ) {}

  attach(host: PolicyHost): void {
    this.host = host;
  }

  pagePriority(page: DiscoveredPage): number {
    this.pending.add(page.id, page.site);
    this.graph.node(page.id);
    return this.priorityOf(page.id);
  }

  onBatch(): void {
    this.due = true;
  }

  onFetched(pageId: number, _site: SiteState, targets: readonly number[]): void {
    if (this.graph.isFetched(pageId)) return;
    this.pending.remove(pageId);
    const out = this.graph.addFetched(pageId, targets);
    this.afterFetch(pageId, out);
    if (this.fetchedRank !== null) this.fetchedRank += this.valueOf(pageId);
    if (!this.scheduled && ++this.sinceBatch >= this.k) this.due = true;
    if (this.due) this.recompute();
  }

  /** Between recomputations: what a fetched page's links change (nothing here). */
  protected afterFetch(_pageId: number, _targets: readonly number[]): void {}

  /** The latest PageRank of a page, or undefined if it is newer than the last computation. */
  rankOf(id: number): number | undefined {
    const v = this.graph.nodeOf(id);
    return v !== undefined && v < this.ranks.length ? this.ranks[v]! : undefined;
  }

  /** A page's estimated importance: its latest PageRank, 0 for a page newer than that. */
  valueOf(id: number): number {
    return this.rankOf(id) ?? 0;
  }

  /** A pending page's priority: its estimated importance, unless a subclass ranks otherwise. */
  protected priorityOf(id: number): number {
    return this.valueOf(id);
  }

  /** Computes PageRank of the graph seen so far and re-ranks every pending page by it. */
  recompute(): void {
    this.due = false;
    this.sinceBatch = 0;
    this.computations++;
    const n = this.graph.nodes;
    const start = new Float64Array(n).fill(1 / Math.max(1, n));
    start.set(this.ranks.subarray(0, Math.min(n, this.ranks.length)));
    this.ranks = pagerank(this.graph.csr(), { damping: this.damping, start }).ranks;
    this.onRecomputed();
    let fetched = 0;
    for (let v = 0; v < n; v++) if (this.graph.isFetchedNode(v)) fetched += this.ranks[v]!;
    this.fetchedRank = fetched;
    for (const [id, site] of this.pending.entries()) this.host?.setPagePriority(id, site, this.priorityOf(id));
  }

  protected onRecomputed(): void {}

  estimate(): number | null {
    return this.fetchedRank === null ? null : Math.min(1, this.fetchedRank);
  }
}
