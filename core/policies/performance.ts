import type { DiscoveredPage, Policy, PolicyHost } from '../scheduler/policy.js';
import type { SiteState } from '../scheduler/site-state.js';
import { adopt, pagesP, performanceRank, type ServerModel } from './server-rank.js';

/**
 * Performance (crawl-ability paper; docs/design.md section 3.4): servers by R(s) = P(s)/T(s),
 * pages per connection P(s), URLs of a server FIFO. Server choice is non-preemptive by
 * construction: the scheduler never cuts an open connection short.
 */
export class Performance implements Policy {
  readonly name = 'performance';
  /** The scheduler's c: P(s) is at most c (the scheduler takes no more). */
  private c = Infinity;
  constructor(readonly model: ServerModel) {}

  attach(host: PolicyHost): void {
    this.c = host.c;
  }
  pagePriority(page: DiscoveredPage): number {
    adopt(page.site, this.model);
    return 0;
  }
  sitePriority(site: SiteState): number {
    return performanceRank(site, this.model, this.c);
  }
  pagesPerConnection(site: SiteState): number {
    return pagesP(site, this.model, this.c);
  }
}
