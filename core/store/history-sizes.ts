import { siteKey, type SiteKeyMode } from '../url/site-key.js';
import { withCrawlReader } from './crawl-reader.js';

/**
 * Pages per site in a history crawl (every page it knows, fetched or not), by the site key the
 * new crawl uses: the size that decides whether a site gets the small sites' w (--w-small).
 */
export function historySiteSizes(dbPath: string, mode: SiteKeyMode): Map<string, number> {
  return withCrawlReader(dbPath, (reader) => siteSizesOf((function* () {
    for (const p of reader.pages(['url'])) yield p.url;
  })(), mode));
}

/** Pages per site key of a list of URLs (a URL without a host is left out). */
export function siteSizesOf(urls: Iterable<string>, mode: SiteKeyMode): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const url of urls) {
    let key: string;
    try {
      key = siteKey(url, mode);
    } catch {
      continue;
    }
    sizes.set(key, (sizes.get(key) ?? 0) + 1);
  }
  return sizes;
}
