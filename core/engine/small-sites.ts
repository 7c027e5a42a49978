import type { CrawlSettings } from '../config/settings.js';
import type { SiteState } from '../scheduler/site-state.js';
import { siteWait } from '../scheduler/site-wait.js';
import { historySiteSizes } from '../store/history-sizes.js';

/**
 * The scheduler's per-site w of a crawl made with --w-small and --small-site: a site's size is
 * its page count in the history crawl (--history) when that holds the site, else the pages
 * this crawl knows of it so far.
 */
export function crawlSiteWait(settings: CrawlSettings): ((site: SiteState) => number) | undefined {
  if (settings.wSmall === null || settings.smallSite === null) return undefined;
  const history = settings.policyParams.history;
  const historySizes = typeof history === 'string' ? historySiteSizes(history, settings.siteKey) : null;
  return siteWait(settings.w, { wSmall: settings.wSmall, smallSite: settings.smallSite, historySizes });
}
