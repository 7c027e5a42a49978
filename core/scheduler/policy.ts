import type { Clock } from './clock.js';
import type { SiteState } from './site-state.js';

/** A page as policies see it when it is discovered. */
export interface DiscoveredPage {
  id: number;
  site: SiteState;
  depth: number;
  parentId: number | null;
  url: string;
  anchor: string | null;
}

/** What the scheduler offers a policy: ways to change priorities in bulk or one by one. */
export interface PolicyHost {
  readonly clock: Clock;
  readonly c: number;
  /** Changes the priority of a pending page (no-op if it is not pending). */
  setPagePriority(pageId: number, site: SiteState, priority: number): void;
  /** Recomputes a site's rank after something the policy reads changed. */
  refreshSite(site: SiteState): void;
  sites(): Iterable<SiteState>;
}

/**
 * An ordering policy (docs/design.md section 3). The scheduler owns this interface and the policies
 * implement it, as Heritrix's frontier owns its precedence policies: the scheduler depends on
 * no policy, and a policy sees the scheduler only through PolicyHost.
 * It ranks pages within a site and sites among
 * ready sites, may react to fetched pages and discovered links, and may choose how many
 * pages to take over one connection (at most c). Politeness is not its business: the
 * scheduler enforces w, c, r and one connection per site for every policy alike.
 * A global "hot" queue (topic-driven crawling) is a priority band: hot pages get a
 * priority above every cold one and their sites rank accordingly.
 *
 * Priorities: higher first; ties broken by lower page id (discovery order).
 */
export interface Policy {
  readonly name: string;
  attach?(host: PolicyHost): void;
  pagePriority(page: DiscoveredPage): number;
  /** Rank of a site among ready sites. Default: the priority of its best pending page. */
  sitePriority?(site: SiteState): number;
  /** Pages to take over the next connection to this site (1..c). Default: c. */
  pagesPerConnection?(site: SiteState, c: number): number;
  /** A page was fetched; `targets` are the page ids it links to (known or new). */
  onFetched?(pageId: number, site: SiteState, targets: readonly number[]): void;
  /** Called every K fetched pages in batch mode, before the next batch is formed. */
  onBatch?(): void;
  /**
   * Live estimate: the share (0..1) of the estimated total importance held by the pages
   * fetched so far (OPIC: cash history; PageRank policies: latest PageRank; historical:
   * old PageRank), or null if the policy has none (yet).
   */
  estimate?(): number | null;
  /** Policies guided by an earlier crawl: how many of this crawl's known pages it knew. */
  historyMatched?(): number | undefined;
  /** Bytes of per-page state it holds in typed arrays (bench/frontier's accounting). */
  memoryBytes?(): number;
}
