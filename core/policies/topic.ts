import { int32Pages } from '../page-array.js';
import type { DiscoveredPage, Policy, PolicyHost } from '../scheduler/policy.js';
import type { SiteState } from '../scheduler/site-state.js';
import { distinctTargets, PendingPages } from './link-graph.js';

/** Priority of the hot queue: above every cold page. */
export const HOT = 1e9;
/** A page this many links or fewer from a hot page is hot too. */
export const HOT_RADIUS = 3;

/**
 * Topic-driven crawling (Cho, Garcia-Molina, Page; docs/design.md section 3.5): a hot queue
 * served first, holding the URLs whose anchor text or URL contains the topic word (case-
 * insensitive) and those within 3 links of such a page; both queues FIFO. Modelled as a
 * priority band (hot = 1e9, cold = 0), so the scheduler is the same as for every policy.
 * The anchor text seen is that of the link that discovered the page.
 */
export class Topic implements Policy {
  readonly name = 'topic';
  private host: PolicyHost | null = null;
  private readonly word: string;
  private readonly pending = new PendingPages();
  /** Links from the nearest page that matches the word, by page id; -1: not hot. */
  private readonly distance = int32Pages(-1);

  constructor(word: string) {
    this.word = word.toLowerCase();
  }

  attach(host: PolicyHost): void {
    this.host = host;
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
      if (pd >= 0 && pd < HOT_RADIUS && (d < 0 || pd + 1 < d)) d = pd + 1;
    }
    if (d >= 0) this.distance.set(page.id, d);
    return d < 0 ? 0 : HOT;
  }

  /** A hot page's links bring already known pages within the radius too. */
  onFetched(pageId: number, _site: SiteState, targets: readonly number[]): void {
    this.pending.remove(pageId);
    const d = this.distance.get(pageId);
    if (d < 0 || d >= HOT_RADIUS) return;
    for (const t of distinctTargets(pageId, targets)) {
      const before = this.distance.get(t);
      if (before >= 0 && before <= d + 1) continue;
      this.distance.set(t, d + 1);
      const site = this.pending.siteOf(t);
      if (before < 0 && site) this.host?.setPagePriority(t, site, HOT);
    }
  }

  isHot(id: number): boolean {
    return this.distance.get(id) >= 0;
  }
}
