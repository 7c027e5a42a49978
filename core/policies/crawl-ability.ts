import type { SiteState } from '../scheduler/site-state.js';
import { Quality } from './quality.js';
import { crawlabilityRank } from './server-rank.js';

/**
 * Crawl-ability (crawl-ability paper; docs/design.md section 3.4): URLs by quality, servers by
 * C(s) = (sum of the quality of the next P(s) URLs) / T(s), quality per unit of time;
 * P(s) pages per connection (at most c). Best overall in the paper.
 */
export class CrawlAbility extends Quality {
  override readonly name = 'crawl-ability';
  sitePriority(site: SiteState): number {
    return crawlabilityRank(site, this.model, this.c);
  }
}
