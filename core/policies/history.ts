import { CrawlError, ErrorCodes } from '../errors.js';
import type { PolicyContext } from './context.js';

/**
 * Old PageRank by canonical URL from --history, read by the context's loader (the crawler's
 * or the simulator's): a policy never opens a database itself. The loader's errors pass
 * through (DB_NOT_A_CRAWL, DB_MISSING...); a history with no page in this crawl's scope is a
 * BAD_OPTION naming --history.
 */
export function loadHistory(path: string, ctx: PolicyContext): ReadonlyMap<string, number> {
  if (!ctx.loadHistory) {
    throw new CrawlError(ErrorCodes.BAD_OPTION, `--history: ${path} cannot be read here (the crawler and the simulator read histories; this policy was built without a history loader)`, {
      field: 'policyParams.history',
    });
  }
  const ranks = ctx.loadHistory(path);
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
