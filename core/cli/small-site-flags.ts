import { badOption } from '../errors.js';
import { durationFlag, intFlag } from './args.js';

/** The options crawl and simulate share for a w that depends on a site's size. */
export const SMALL_SITE_OPTIONS = {
  'w-small': { type: 'string' },
  'small-site': { type: 'string' },
} as const;

export const SMALL_SITE_USAGE = `  --w-small DURATION     w for sites under --small-site pages (Castillo's second crawl: w 5s,
                         --w-small 15s --small-site 100); a site's size is its pages in the
                         history crawl, else the pages known of it so far
  --small-site PAGES     a site with fewer pages is small (both flags or neither)`;

/** --w-small and --small-site, given together or not at all. */
export function smallSiteFlags(flags: { 'w-small'?: string; 'small-site'?: string }): { wSmall: number; smallSite: number } | null {
  const wSmall = durationFlag(flags, 'w-small');
  const smallSite = intFlag(flags, 'small-site', 1);
  if (wSmall === undefined && smallSite === undefined) return null;
  if (wSmall === undefined) throw badOption('--w-small', 'required with --small-site (the wait for small sites)');
  if (smallSite === undefined) throw badOption('--small-site', 'required with --w-small (the page count under which a site is small)');
  return { wSmall, smallSite };
}
