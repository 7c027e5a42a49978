import type { Policy } from '../scheduler/policy.js';
import type { SiteState } from '../scheduler/site-state.js';

/**
 * Larger-sites-first (docs/design.md section 3.1): the site with the most pending (known,
 * unfetched) pages goes first, which keeps many sites busy late in the crawl; pages
 * within a site in discovery order. Equal sites: the one holding the older page first.
 */
export class LargerSitesFirst implements Policy {
  readonly name = 'larger-sites-first';
  pagePriority(): number {
    return 0;
  }
  sitePriority(site: SiteState): number {
    return site.pending;
  }
}
