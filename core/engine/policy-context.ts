import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CrawlSettings } from '../config/settings.js';
import type { PolicyContext } from '../policies/context.js';
import { pageRankByUrl } from '../ranking/crawl-graph.js';
import { Scope } from '../url/scope.js';
import { readQualityFile } from './quality-file.js';

/**
 * The factory context of a crawl's policy, from its settings (the crawler's side of
 * createPolicy). The crawler, not the policy, reads --history: policies reach no database
 * (docs/architecture.md, "Layers"), so the context hands them an earlier crawl's PageRank.
 */
export function policyContext(settings: CrawlSettings): PolicyContext {
  let scope: Scope | null = null;
  return {
    batch: settings.batch,
    maxPages: settings.maxPages,
    inScope: (url) => {
      scope ??= new Scope({ ...settings.scope, seedHosts: settings.seeds.map((s) => new URL(s).hostname), checkExcludes: false });
      return scope.inScope(url);
    },
    loadHistory: readHistory,
  };
}

/** The last history read: a crawl builds its policy twice (check, then run), the file is read once. */
let cached: { key: string; ranks: ReadonlyMap<string, number> } | null = null;

/**
 * PageRank by canonical URL of an earlier crawl's database, or qualities from a .tsv file of
 * URL<TAB>quality (quality-file.ts). A file that is not a crawl fails with the store's error
 * (DB_NOT_A_CRAWL, DB_MISSING...).
 */
function readHistory(path: string): ReadonlyMap<string, number> {
  const abs = resolve(path);
  let key = abs;
  try {
    const st = statSync(abs);
    key = `${abs}\n${st.size}\n${st.mtimeMs}`;
  } catch {
    /* pageRankByUrl reports a missing file */
  }
  if (cached?.key !== key) cached = { key, ranks: abs.endsWith('.tsv') ? readQualityFile(abs) : pageRankByUrl(abs) };
  return cached.ranks;
}
