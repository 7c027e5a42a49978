import type { CrawlSettings } from '../config/settings.js';
import { Scope } from '../url/scope.js';

/** The factory context of a crawl's policy, from its settings (the crawler's side of createPolicy). */
export function policyContext(settings: CrawlSettings): PolicyContext {
  let scope: Scope | null = null;
  return {
    batch: settings.batch,
    maxPages: settings.maxPages,
    inScope: (url) => {
      scope ??= new Scope({ ...settings.scope, seedHosts: settings.seeds.map((s) => new URL(s).hostname) });
      return scope.inScope(url);
    },
  };
}

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
  /** Old PageRank by canonical URL from a history file (default: pageRankByUrl of a crawl database). */
  loadHistory?: (path: string) => ReadonlyMap<string, number>;
  /** The true final PageRank by canonical URL: only the simulator knows it (omniscient policies). */
  oracle?: ReadonlyMap<string, number>;
}
