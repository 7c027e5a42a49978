/**
 * What a policy factory may know about the crawl it is built for. Every field is optional
 * so that the simulator (or a test) can build a policy from less.
 */
export interface PolicyContext {
  /** The scheduler's batch size K when the crawl runs in batches (it then calls onBatch), else null. */
  batch?: number | null;
  /** Expected crawl size (settings.maxPages), for defaults such as K. */
  maxPages?: number | null;
  /** Whether a canonical URL is in this crawl's scope (to check that --history is about it). */
  inScope?: (url: string) => boolean;
  /**
   * Old PageRank by canonical URL from a history (--history): the only way a policy gets one,
   * since policies open no database. The crawler reads an earlier crawl's database
   * (engine/policy-context.ts), the simulator passes the map it was given. Without it, a
   * policy that needs a history is refused.
   */
  loadHistory?: (path: string) => ReadonlyMap<string, number>;
  /** The true final PageRank by canonical URL: only the simulator knows it (omniscient policies). */
  oracle?: ReadonlyMap<string, number>;
}
