/**
 * The contract every test web satisfies (generated, hand-made or loaded from a graph dir), and
 * small helpers on it. Pages have dense global ids 0..pageCount-1; each site's pages are one
 * contiguous id range starting at its home page, which keeps `siteOf` a binary search and lets
 * the link graph live in two typed arrays (CSR) instead of millions of objects.
 */

/** The sitemaps a site serves (sitemaps.ts has what each style is). */
export type SitemapStyle =
  | 'plain'
  | 'index'
  | 'gzip'
  | 'malformed'
  | 'self-index'
  | 'over-limit'
  | 'billion'
  | 'not-gzip'
  | 'bomb'
  | 'scope';

export type RobotsKind =
  | 'allow-all'
  | 'disallow-private' // Disallow: /private/
  | 'not-found' // 404: everything allowed
  | 'server-error' // 500: a polite crawler treats the site as disallowed
  | 'crawl-delay' // Crawl-delay: 1
  | 'agent-groups' // crawlbench group disallows /no-crawlbench/, the * group disallows everything
  | 'redirect'; // 301 to /robots-real.txt, which disallows /private/

export type FaultKind =
  | 'stall-headers'
  | 'stall-body'
  | 'reset'
  | 'redirect-loop'
  | 'redirect-chain'
  | 'calendar'
  | 'session'
  | 'huge'
  | 'gzip-bomb'
  | 'binary'
  | 'broken-html'
  | 'latin1'
  | 'slow'
  | 'robots500'
  | 'robots404'
  | 'error5xx'
  | 'ratelimit'
  | TlsFaultKind;

/**
 * The TLS fault sites (https only; tls-certs.ts makes their certificates, server.ts their
 * handshakes): a certificate expired, self-signed, issued for another name, under a chain
 * deeper than a client verifies or bigger than it takes; a handshake refused or never
 * answered; and, once connected, a flood of one-byte TLS records.
 */
export type TlsFaultKind =
  | 'tls-expired'
  | 'tls-self-signed'
  | 'tls-wrong-name'
  | 'tls-handshake-fail'
  | 'tls-handshake-stall'
  | 'tls-long-chain'
  | 'tls-huge-chain'
  | 'tls-record-flood';

/** How a site answers: over http only (the default), https only, or both, its http answers redirecting to https. */
export type SiteScheme = 'http' | 'https' | 'both';

export interface SiteInfo {
  /** Virtual host without port, e.g. 's0001.demo'; the server routes on the Host header. */
  host: string;
  /** Global id of the site's home page '/'. */
  first: number;
  /** Number of pages (ids first .. first+count-1). */
  count: number;
  /** Delay before the response headers, before the server's timeFactor. */
  latencyMs: number;
  /** Transfer rate of bodies; 0 = unthrottled. */
  bytesPerSec: number;
  /** Requests the server allows per connection; the last one is answered with Connection: close. */
  keepAliveMax: number;
  /** Say the limit on each response before the last (Keep-Alive: timeout=T, max=requests left), as Apache does; default false. */
  keepAliveHeader?: boolean;
  robots: RobotsKind;
  /** Set on the fault sites only; their pages beyond '/' are served by faults.ts, not the graph. */
  fault?: FaultKind;
  /** Hand webs: an explicit robots.txt body or status, overriding `robots`. */
  robotsTxt?: string | { status: number };
  /** Default 'http'. */
  scheme?: SiteScheme;
  /** The sitemaps the site serves (sitemaps.ts), beside its hidden pages; none by default. */
  sitemap?: SitemapStyle;
}

/** Whether the site answers TLS handshakes. */
export function isTlsSite(site: SiteInfo): boolean {
  return site.scheme === 'https' || site.scheme === 'both';
}

/** The scheme of a site's pages' URLs: https for a site on TLS (a site on both redirects http there). */
export function siteScheme(site: SiteInfo): 'http' | 'https' {
  return isTlsSite(site) ? 'https' : 'http';
}

/** An anchor exactly as a hand-made page renders it. */
export interface Anchor {
  href: string;
  rel?: string;
  text?: string;
}

export interface Web {
  readonly sites: SiteInfo[];
  readonly pageCount: number;
  /** Seed of the deterministic choices made when rendering (href forms, filler); 0 for hand webs. */
  readonly seed?: number;
  /** Index into `sites` of the site holding page `id`. */
  siteOf(id: number): number;
  /** Path plus query, '/' for a home page. */
  path(id: number): string;
  /** Reverse of (sites[siteOf(id)].host, path(id)); undefined when the web has no such page. */
  id(host: string, pathAndQuery: string): number | undefined;
  /** Followable links (global ids), a view into shared storage: do not modify. */
  outLinks(id: number): Int32Array;
  title(id: number): string;
  /** Target body size in bytes; the server pads HTML with filler text up to it. */
  size(id: number): number;
  contentType(id: number): string;
  /** Hand webs only: the anchors to render instead of hrefs derived from outLinks. */
  anchors?(id: number): Anchor[];
  /**
   * Generated webs with `quality: 'zipf'`: a page's quality, drawn once from a Zipf law
   * (quality.ts; the crawl-ability paper's section 5.3.2), independent of links and sites.
   */
  quality?(id: number): number;
  /** Hand webs only: a per-page latency overriding the site's. */
  pageLatencyMs?(id: number): number | undefined;
  /**
   * Generated webs: a page of the same site that this page also links to with rel=nofollow,
   * or -1. Such links are not in outLinks (outLinks are the links a crawler may follow).
   */
  nofollow?(id: number): number;
  /**
   * Generated webs: the number a page's filler text and nofollow choice are drawn from – its
   * id in revision 1, and in revision 2 the revision-1 id of the same URL – so that a page that
   * did not change between revisions renders the same bytes (the validators depend on it).
   */
  contentKey?(id: number): number;
  /** Revision 2 of a generated web: revision 1, and the id there of a page's URL (-1: a new page). */
  readonly previous?: { web: Web; id(id: number): number };
}

/** Binary search over ascending site start ids: the last site whose first id is <= id. */
export function searchFirst(firsts: ArrayLike<number>, id: number): number {
  let lo = 0;
  let hi = firsts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (firsts[mid]! <= id) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Absolute URL of a page as served on loopback (https for a site on TLS; one port serves both schemes). */
export function pageUrl(web: Web, id: number, port: number): string {
  const site = web.sites[web.siteOf(id)]!;
  return `${siteScheme(site)}://${site.host}:${port}${web.path(id)}`;
}

/** Ids of every site's home page (fault sites included unless asked otherwise). */
export function homePages(web: Web, opts: { faults?: boolean } = {}): number[] {
  const out: number[] = [];
  for (const s of web.sites) if (s.count > 0 && (opts.faults !== false || !s.fault)) out.push(s.first);
  return out;
}

/**
 * Home page URLs, to seed a crawl with every site. A site on both schemes is seeded with its
 * http URL, as a seed list made years ago names it: the crawl follows its redirect to https.
 */
export function seedUrls(web: Web, port: number, opts: { faults?: boolean } = {}): string[] {
  return homePages(web, opts).map((id) => {
    const url = pageUrl(web, id, port);
    return web.sites[web.siteOf(id)]!.scheme === 'both' ? 'http' + url.slice(5) : url;
  });
}

export const HTML_TYPE = 'text/html; charset=utf-8';

export function isHtml(contentType: string): boolean {
  return contentType.startsWith('text/html');
}

/** Content type guessed from a path's extension (graph dirs and hand webs carry no types). */
export function typeFromPath(path: string): string {
  const p = path.split('?')[0]!.toLowerCase();
  const dot = p.lastIndexOf('.');
  if (dot < 0 || dot < p.lastIndexOf('/')) return HTML_TYPE;
  switch (p.slice(dot + 1)) {
    case 'pdf':
      return 'application/pdf';
    case 'png':
      return 'image/png';
    case 'jpg':
    case 'jpeg':
      return 'image/jpeg';
    case 'gif':
      return 'image/gif';
    case 'txt':
    case 'text':
      return 'text/plain; charset=utf-8';
    case 'zip':
    case 'gz':
    case 'tar':
    case 'bin':
      return 'application/octet-stream';
    default:
      return HTML_TYPE;
  }
}
