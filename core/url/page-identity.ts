/**
 * One page across crawls whatever its scheme: a page that moved from http to https between two
 * crawls is the same page to compare, to the historical policies and to a conditional recrawl
 * (docs/design.md section 4.10). Within one crawl both URLs stay as fetched; across crawls a URL
 * is matched on the rest of it, scheme aside. A site is a host whatever its scheme or port
 * (section 2.2), so this is the page-level counterpart of that rule.
 */

/** The URL without its scheme (`//host:port/path?query`): the key pages are matched by across crawls. */
export function pageKey(url: string): string {
  const colon = url.indexOf('://');
  return colon < 0 ? url : url.slice(colon + 1);
}

/** The URL under each scheme a page may have moved between (its own first). */
export function schemeVariants(url: string): [string, string] {
  if (url.startsWith('https://')) return [url, `http://${url.slice(8)}`];
  if (url.startsWith('http://')) return [url, `https://${url.slice(7)}`];
  return [url, url];
}
