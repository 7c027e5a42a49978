import type { DiscoveredPage, Policy, PolicyHost } from '../scheduler/policy.js';
import type { SiteState } from '../scheduler/site-state.js';
import { choiceParam, numberParam, stringParam } from './params.js';
import { HistoricalPageRank, type NewPageRule } from './historical-pagerank.js';
import { loadHistory } from './history.js';
import { Opic } from './opic.js';
import type { PolicyContext } from './context.js';
import { adopt, pagesP, type ServerModel } from './server-rank.js';

/**
 * Where page quality comes from for the server-level policies: the old PageRank when
 * --history is given (new pages by newPages, default parent), else the running OPIC cash.
 */
export function qualitySource(params: Record<string, unknown>, ctx: PolicyContext): Policy {
  const history = stringParam(params, 'history');
  if (history === undefined) return new Opic();
  const rule = choiceParam<NewPageRule>(params, 'newPages', ['zero', 'random', 'parent'], 'parent');
  return new HistoricalPageRank(loadHistory(history, ctx), rule, numberParam(params, 'seed', 1, 0, 2 ** 32 - 1, true));
}

/**
 * Quality (crawl-ability paper; docs/design.md section 3.4): every server's URLs ordered by
 * quality, a server ranked by the quality of its best URL (the scheduler's default site
 * rank), P(s) pages per connection. The quality source does the page-level work.
 */
export class Quality implements Policy {
  readonly name: string = 'quality';
  /** The scheduler's c: P(s) is at most c (the scheduler takes no more). */
  protected c = Infinity;
  constructor(
    readonly source: Policy,
    readonly model: ServerModel,
  ) {}

  attach(host: PolicyHost): void {
    this.c = host.c;
    this.source.attach?.(host);
  }
  pagePriority(page: DiscoveredPage): number {
    adopt(page.site, this.model);
    return this.source.pagePriority(page);
  }
  onFetched(pageId: number, site: SiteState, targets: readonly number[]): void {
    this.source.onFetched?.(pageId, site, targets);
  }
  onBatch(): void {
    this.source.onBatch?.();
  }
  pagesPerConnection(site: SiteState): number {
    return pagesP(site, this.model, this.c);
  }
  estimate(): number | null {
    return this.source.estimate?.() ?? null;
  }
  historyMatched(): number | undefined {
    return this.source.historyMatched?.();
  }
}
