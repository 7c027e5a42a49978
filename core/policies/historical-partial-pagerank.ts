import { schemeVariants } from '../url/page-identity.js';
import type { DiscoveredPage } from '../scheduler/policy.js';
import { BatchPageRank } from './batch-pagerank.js';
import { PageValues } from './link-graph.js';

/**
 * Historical partial PageRank, crawlbench's own policy (docs/design.md section 3.2). Three
 * estimates of a page's PageRank in this crawl, each in units of the mean page (a PageRank
 * times the number of pages it was computed over, so that an average page is worth 1 whatever
 * the size of the graph behind the estimate):
 *
 * - old: its PageRank in the history crawl, times the pages of the history;
 * - seen: its PageRank in the graph seen so far, computed every K fetched pages as
 *   batch-pagerank does, times the nodes of that graph;
 * - in-links: (1 - d) + d * the sum over its fetched parents of priority(parent) /
 *   outdegree(parent): the PageRank equation over the links this crawl has found, kept up to
 *   date at every fetch (every parent counts, not only the first as historical-pagerank-parent's).
 *
 * Its priority is the largest of those it has. Each sees only some of the page's in-links
 * (those of the old web, or those found so far in this one), so each tends to underrate it,
 * and the largest is the least incomplete. A new page is then no longer ranked by one parent
 * alone, and an old page whose importance grew is no longer held at its old value.
 */
export class HistoricalPartialPageRank extends BatchPageRank {
  override readonly name = 'historical-partial-pagerank';
  private readonly old = new PageValues();
  /** Sum over a page's fetched parents of priority(parent) / outdegree(parent). */
  private readonly inflow = new PageValues();
  private matched = 0;

  constructor(
    private readonly history: ReadonlyMap<string, number>,
    k: number,
    scheduled: boolean,
  ) {
    super(k, scheduled);
  }

  override pagePriority(page: DiscoveredPage): number {
    if (this.graph.nodeOf(page.id) === undefined) {
      // The same page whatever its scheme: one that moved from http to https is still known.
      const [own, other] = schemeVariants(page.url);
      const old = this.history.get(own) ?? this.history.get(other);
      if (old !== undefined) {
        this.old.set(page.id, old);
        this.matched++;
      }
    }
    return super.pagePriority(page);
  }

  historyMatched(): number {
    return this.matched;
  }

  protected override priorityOf(id: number): number {
    const seen = this.rankOf(id);
    return Math.max(
      this.old.get(id) * this.history.size,
      seen === undefined ? 0 : seen * this.ranks.length,
      1 - this.damping + this.damping * this.inflow.get(id),
    );
  }

  protected override afterFetch(pageId: number, targets: readonly number[]): void {
    if (targets.length === 0) return;
    const share = this.priorityOf(pageId) / targets.length;
    for (const t of targets) {
      this.inflow.add(t, share);
      const site = this.pending.siteOf(t);
      if (site) this.host?.setPagePriority(t, site, this.priorityOf(t));
    }
  }
}
