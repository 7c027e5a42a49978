import { schemeVariants } from '../url/page-identity.js';
import { float64Pages, uint16Pages } from '../page-array.js';
import { mulberry32 } from '../random.js';
import type { DiscoveredPage, Policy, PolicyHost } from '../scheduler/policy.js';
import type { SiteState } from '../scheduler/site-state.js';
import { distinctTargets, PendingPages } from './link-graph.js';

export type NewPageRule = 'zero' | 'random' | 'parent' | 'omniscient';

/**
 * Historical PageRank (docs/design.md section 3.2): pages known to an earlier crawl of the same
 * domain go by their old PageRank (matched by canonical URL); a new page gets 0, a value
 * drawn uniformly from the old values (seeded: the same crawl draws the same values), or
 * PR(parent)/outdegree(parent), with the parent's own value (old or estimated) and its
 * out-degree in this crawl, known once the parent's links are (its onFetched). The
 * simulator's reference 'omniscient' gives a new page its true final PageRank (the oracle).
 */
export class HistoricalPageRank implements Policy {
  readonly name: string;
  private host: PolicyHost | null = null;
  private readonly pending = new PendingPages();
  /** Value (priority) of every page ranked so far, by page id (core/page-array.ts); NaN: not ranked. */
  private readonly value = float64Pages(NaN);
  /** Old PageRank of the pages the old crawl knew, by page id; NaN: a new page. */
  private readonly old = float64Pages(NaN);
  /** Pages of this crawl the old crawl knew. */
  private matched = 0;
  /** FETCHED and GIVEN (a new page that already got its parent's share), by page id. */
  private readonly flags = uint16Pages();
  private readonly oldValues: Float64Array;
  private readonly random: () => number;
  private knownOld = 0;
  private fetchedOld = 0;

  constructor(
    private readonly history: ReadonlyMap<string, number>,
    readonly rule: NewPageRule,
    seed = 1,
    private readonly oracle?: ReadonlyMap<string, number>,
  ) {
    this.name = `historical-pagerank-${rule}`;
    this.oldValues = Float64Array.from(history.values());
    this.random = mulberry32(seed);
  }

  attach(host: PolicyHost): void {
    this.host = host;
  }

  historyMatched(): number {
    return this.matched;
  }

  pagePriority(page: DiscoveredPage): number {
    this.pending.add(page.id, page.site);
    const known = this.value.get(page.id);
    if (!Number.isNaN(known)) return known;
    // The same page whatever its scheme: one that moved from http to https is still known.
    const [own, other] = schemeVariants(page.url);
    const old = this.history.get(own) ?? this.history.get(other);
    let v = 0;
    if (old !== undefined) {
      v = old;
      if (Number.isNaN(this.old.get(page.id))) this.matched++;
      this.old.set(page.id, old);
      this.knownOld += old;
    } else if (this.rule === 'omniscient') {
      v = this.oracle?.get(page.url) ?? 0;
    } else if (this.rule === 'random' && this.oldValues.length > 0) {
      v = this.oldValues[Math.floor(this.random() * this.oldValues.length)]!;
    }
    this.value.set(page.id, v);
    return v;
  }

  onFetched(pageId: number, _site: SiteState, targets: readonly number[]): void {
    const flags = this.flags.get(pageId);
    if ((flags & FETCHED) !== 0) return;
    this.flags.set(pageId, flags | FETCHED);
    this.pending.remove(pageId);
    const old = this.old.get(pageId);
    this.fetchedOld += Number.isNaN(old) ? 0 : old;
    if (this.rule !== 'parent') return;
    const out = distinctTargets(pageId, targets);
    const value = this.value.get(pageId);
    const share = (Number.isNaN(value) ? 0 : value) / Math.max(1, out.length);
    for (const t of out) {
      // A new page's first known parent (the one whose fetch discovered it) sets its value.
      const f = this.flags.get(t);
      if (!Number.isNaN(this.old.get(t)) || f !== 0 || Number.isNaN(this.value.get(t))) continue;
      this.flags.set(t, f | GIVEN);
      this.value.set(t, share);
      const site = this.pending.siteOf(t);
      if (site) this.host?.setPagePriority(t, site, share);
    }
  }

  /** Old PageRank of the pages fetched so far over that of all known pages. */
  estimate(): number | null {
    return this.knownOld > 0 ? Math.min(1, this.fetchedOld / this.knownOld) : null;
  }
}

const FETCHED = 1;
const GIVEN = 2;
