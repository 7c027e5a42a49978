import { float64Pages } from '../page-array.js';
import type { DiscoveredPage, Policy, PolicyHost } from '../scheduler/policy.js';
import type { SiteState } from '../scheduler/site-state.js';
import { distinctTargets, PendingPages } from './link-graph.js';

/** Cash every page starts with. */
export const OPIC_START_CASH = 1;

/**
 * OPIC, On-line Page Importance Computation (Abiteboul, Preda, Cobena 2003; docs/design.md
 * section 3.1). Every page starts with the same cash; when a page is fetched its cash is
 * added to its history and split equally among its out-links (a page without out-links
 * keeps it in its history only); an unfetched page's priority is its cash. The importance
 * estimate of a page is (history + cash) / (total history + total cash), so the share of
 * the fetched pages is their (history + cash) over the total. No iteration: cheap.
 */
export class Opic implements Policy {
  readonly name: string = 'opic';
  private host: PolicyHost | null = null;
  private readonly pending = new PendingPages();
  /** By page id (core/page-array.ts), NaN: not seen yet; 16 bytes a page for both. */
  private readonly cash = float64Pages(NaN);
  /** By page id, NaN: not fetched. */
  private readonly history = float64Pages(NaN);
  private totalCash = 0;
  private totalHistory = 0;
  /** Cash that fetched pages received after they were fetched. */
  private fetchedCash = 0;

  attach(host: PolicyHost): void {
    this.host = host;
  }

  pagePriority(page: DiscoveredPage): number {
    this.pending.add(page.id, page.site);
    return this.cashOf(page.id);
  }

  onFetched(pageId: number, _site: SiteState, targets: readonly number[]): void {
    if (this.fetched(pageId)) return;
    this.pending.remove(pageId);
    const c = this.cashOf(pageId);
    this.cash.set(pageId, 0);
    this.history.set(pageId, c);
    this.totalHistory += c;
    this.totalCash -= c;
    const out = distinctTargets(pageId, targets);
    if (out.length === 0) return;
    const share = c / out.length;
    for (const t of out) {
      const now = this.cashOf(t) + share;
      this.cash.set(t, now);
      this.totalCash += share;
      if (this.fetched(t)) {
        this.fetchedCash += share;
        continue;
      }
      const site = this.pending.siteOf(t);
      if (site) this.host?.setPagePriority(t, site, now);
    }
  }

  /** The cash of a page (its priority while unfetched); a page seen for the first time gets the start cash. */
  cashOf(id: number): number {
    const c = this.cash.get(id);
    if (!Number.isNaN(c)) return c;
    this.cash.set(id, OPIC_START_CASH);
    this.totalCash += OPIC_START_CASH;
    return OPIC_START_CASH;
  }
  historyOf(id: number): number {
    const h = this.history.get(id);
    return Number.isNaN(h) ? 0 : h;
  }
  private fetched(id: number): boolean {
    return !Number.isNaN(this.history.get(id));
  }

  estimate(): number | null {
    const total = this.totalHistory + this.totalCash;
    return total > 0 ? Math.min(1, (this.totalHistory + this.fetchedCash) / total) : null;
  }
}
