import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { CrawlError, ErrorCodes } from '../errors.js';
import { pageRankByUrl } from '../ranking/crawl-graph.js';
import type { PolicyContext } from './context.js';

/** The last history loaded: a crawl builds its policy twice (check, then run), the file is read once. */
let cached: { key: string; ranks: ReadonlyMap<string, number> } | null = null;

/**
 * Old PageRank by canonical URL from --history (an earlier crawl's database). A file that
 * is not a crawl fails with the store's error (DB_NOT_A_CRAWL, DB_MISSING...); a crawl
 * with no page in this crawl's scope is a BAD_OPTION naming --history.
 */
export function loadHistory(path: string, ctx: PolicyContext): ReadonlyMap<string, number> {
  let ranks: ReadonlyMap<string, number>;
  if (ctx.loadHistory) ranks = ctx.loadHistory(path);
  else {
    const abs = resolve(path);
    let key = abs;
    try {
      const st = statSync(abs);
      key = `${abs}\n${st.size}\n${st.mtimeMs}`;
    } catch {
      /* pageRankByUrl reports a missing file */
    }
    if (cached?.key !== key) cached = { key, ranks: pageRankByUrl(abs) };
    ranks = cached.ranks;
  }
  if (ctx.inScope) {
    let any = false;
    for (const url of ranks.keys()) {
      if (ctx.inScope(url)) {
        any = true;
        break;
      }
    }
    if (!any) throw new CrawlError(ErrorCodes.BAD_OPTION, `--history: ${path} holds no page of a host in this crawl's scope`, { field: 'policyParams.history' });
  }
  return ranks;
}
