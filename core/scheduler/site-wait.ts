import type { SiteState } from './site-state.js';

/**
 * w that depends on a site's size (Castillo, §4.5: the second real crawl waited w = 5 s between
 * accesses to a site, and 15 s for sites under 100 pages; docs/design.md section 2.3): a site
 * with fewer than `smallSite` pages waits `wSmall`, every other site `w`. A site's size is its
 * page count in the history crawl when there is one and it holds the site, else the pages the
 * crawl knows of it so far (which grows as the crawl goes, so a site may leave the small ones).
 */
export interface SmallSiteWait {
  /** ms, for sites under smallSite pages. */
  wSmall: number;
  /** Pages: a site with fewer is small. */
  smallSite: number;
  /** Pages per site key in the history crawl, when there is one. */
  historySizes?: ReadonlyMap<string, number> | null;
}

/** The scheduler's waitFor for these settings, or undefined when w is the same for every site. */
export function siteWait(w: number, small: SmallSiteWait | null | undefined): ((site: SiteState) => number) | undefined {
  if (!small) return undefined;
  const { wSmall, smallSite, historySizes } = small;
  return (site) => ((historySizes?.get(site.host) ?? site.pagesKnown) < smallSite ? wSmall : w);
}
