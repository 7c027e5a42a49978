import type { SmallSiteWait } from '../scheduler/site-wait.js';
import { historySiteSizes, siteSizesOf } from '../store/history-sizes.js';
import type { SiteKeyMode } from '../url/site-key.js';

/** The options of a simulation this reads (SimulateOptions' fields of the same names). */
interface SmallSiteOptions {
  wSmall?: number | null;
  smallSite?: number | null;
  history?: string;
  siteKey?: SiteKeyMode;
}

/**
 * The small sites' w of a simulation (--w-small, --small-site), with the sites' sizes from the
 * history the historical policies read (--history's crawl, or the one derived from the graph),
 * else from --history's crawl; without either, a site's size is its pages known so far.
 */
export function smallSiteWait(opts: SmallSiteOptions, history?: ReadonlyMap<string, number>): SmallSiteWait | null {
  if (opts.wSmall == null || opts.smallSite == null) return null;
  const mode = opts.siteKey ?? 'host';
  const historySizes = history ? siteSizesOf(history.keys(), mode) : opts.history !== undefined ? historySiteSizes(opts.history, mode) : null;
  return { wSmall: opts.wSmall, smallSite: opts.smallSite, historySizes };
}
