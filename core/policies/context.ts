import type { CrawlSettings } from '../config/settings.js';
import { Scope } from '../url/scope.js';
import type { PolicyContext } from './policy.js';

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
