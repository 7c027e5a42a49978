import { float64Pages, int32Pages } from '../page-array.js';
import type { DiscoveredPage, Policy, PolicyHost } from '../scheduler/policy.js';
import type { SiteState } from '../scheduler/site-state.js';
import { distinctTargets, PendingPages } from './link-graph.js';

/** Priority of the hot queue: above every cold page. */
export const HOT = 1e9;
/** By default a page this many links or fewer from a hot page is hot too (Cho et al.'s Fig. 5 crawler). */
export const HOT_RADIUS = 3;

/**
 * Topic-driven crawling (Cho, Garcia-Molina, Page, section 7; docs/design.md section 3.5): a hot
 * queue served first, holding the URLs whose anchor text or URL contains the topic word (case-
 * insensitive) and those within `radius` links of such a page (3: the paper's Fig. 5 crawler;
 * 0: its Fig. 4 crawler, the anchor and the URL only). Both queues are ordered by `order`, the
 * paper's three ordering metrics: breadth-first (none given: FIFO), backlink count or PageRank.
 * Modelled as a priority band (hot = 1e9 + the ordering's priority, cold = that priority), so the
 * scheduler is the same as for every policy. The anchor text seen is that of the link that
 * discovered the page.
 */
export class Topic implements Policy {
  readonly name = 'topic';
  private host: PolicyHost | null = null;
  private readonly word: string;
  private readonly pending = new PendingPages();
  /** Links from the nearest page that matches the word, by page id; -1: not hot. */
  private readonly distance = int32Pages(-1);
  /** The ordering's latest priority of each pending page, by page id (only with an ordering: FIFO has none). */
  private readonly base = float64Pages();

  constructor(
    word: string,
    private readonly order: Policy | null = null,
    private readonly radius = HOT_RADIUS,
  ) {
    this.word = word.toLowerCase();
  }

  attach(host: PolicyHost): void {
    this.host = host;
    // The ordering re-ranks its pages through this: each keeps its band.
    this.order?.attach?.({
      clock: host.clock,
      c: host.c,
      setPagePriority: (id, site, priority) => {
        this.base.set(id, priority);
        host.setPagePriority(id, site, this.band(id) + priority);
      },
      refreshSite: (site) => host.refreshSite(site),
      sites: () => host.sites(),
    });
  }

  matches(url: string, anchor: string | null): boolean {
    return url.toLowerCase().includes(this.word) || (anchor !== null && anchor.toLowerCase().includes(this.word));
  }

  pagePriority(page: DiscoveredPage): number {
    this.pending.add(page.id, page.site);
    let d = this.distance.get(page.id);
    if (this.matches(page.url, page.anchor)) d = 0;
    else if (page.parentId !== null) {
      const pd = this.distance.get(page.parentId);
      if (pd >= 0 && pd < this.radius && (d < 0 || pd + 1 < d)) d = pd + 1;
    }
    if (d >= 0) this.distance.set(page.id, d);
    const base = this.order ? this.order.pagePriority(page) : 0;
    if (this.order) this.base.set(page.id, base);
    return this.band(page.id) + base;
  }

  /** A hot page's links bring already known pages within the radius too. */
  onFetched(pageId: number, site: SiteState, targets: readonly number[]): void {
    this.order?.onFetched?.(pageId, site, targets);
    this.pending.remove(pageId);
    this.base.delete(pageId);
    const d = this.distance.get(pageId);
    if (d < 0 || d >= this.radius) return;
    for (const t of distinctTargets(pageId, targets)) {
      const before = this.distance.get(t);
      if (before >= 0 && before <= d + 1) continue;
      this.distance.set(t, d + 1);
      const site = this.pending.siteOf(t);
      if (before < 0 && site) this.host?.setPagePriority(t, site, HOT + this.base.get(t));
    }
  }

  onBatch(): void {
    this.order?.onBatch?.();
  }

  estimate(): number | null {
    return this.order?.estimate?.() ?? null;
  }

  isHot(id: number): boolean {
    return this.distance.get(id) >= 0;
  }

  private band(id: number): number {
    return this.distance.get(id) >= 0 ? HOT : 0;
  }
}
