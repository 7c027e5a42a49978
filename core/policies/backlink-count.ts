import type { DiscoveredPage, Policy, PolicyHost } from '../scheduler/policy.js';
import { distinctTargets, PageCounts, PendingPages } from './link-graph.js';

/**
 * Backlink-count (docs/design.md section 3.1): the page with the most in-links from the pages
 * fetched so far goes first. A page's count rises when a fetched page links to it; equal
 * counts fall back to discovery order.
 */
export class BacklinkCount implements Policy {
  readonly name = 'backlink-count';
  private host: PolicyHost | null = null;
  private readonly pending = new PendingPages();
  private readonly inLinks = new PageCounts();

  attach(host: PolicyHost): void {
    this.host = host;
  }

  pagePriority(page: DiscoveredPage): number {
    this.pending.add(page.id, page.site);
    return this.inLinks.get(page.id);
  }

  memoryBytes(): number {
    return this.pending.bytes + this.inLinks.bytes;
  }

  onFetched(pageId: number, _site: unknown, targets: readonly number[]): void {
    this.pending.remove(pageId);
    for (const t of distinctTargets(pageId, targets)) {
      const n = this.inLinks.increment(t);
      const site = this.pending.siteOf(t);
      if (site) this.host?.setPagePriority(t, site, n);
    }
  }
}
