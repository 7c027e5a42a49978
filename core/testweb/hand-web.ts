/**
 * handWeb: small webs written out by hand in a test, for exact checks of crawl policies
 * ("site B's home is fetched before site A's page 3"). A site's first listed page is its home
 * page. Links may be absolute ('http://b.test/x'), site-relative ('/x') or document-relative
 * ('x.html'); they are rendered exactly as written (absolute ones get the server's port), and
 * those that point outside the web are served as 404. rel=nofollow links are rendered but are
 * not in outLinks.
 */
import { ListedWeb, toCsr } from './listed-web.js';
import type { Anchor, RobotsKind, SiteInfo, SitemapStyle, Web } from './web.js';

export interface HandLink {
  href: string;
  rel?: string;
  text?: string;
}

export interface HandPage {
  path: string;
  links?: Array<string | HandLink>;
  title?: string;
  latencyMs?: number;
  contentType?: string;
  /** Pad the page with filler up to this many bytes. */
  bodyBytes?: number;
}

export interface HandSite {
  host: string;
  pages: HandPage[];
  latencyMs?: number;
  keepAliveMax?: number;
  /** Say Keep-Alive: max on each response before the last (SiteInfo.keepAliveHeader). */
  keepAliveHeader?: boolean;
  /** robots.txt body, or a status to answer it with; default: allow all. */
  robotsTxt?: string | { status: number };
  bytesPerSec?: number;
  /** Sitemaps to serve, and the hidden pages they list (sitemaps.ts). */
  sitemap?: SitemapStyle;
}

export function handWeb(sites: HandSite[]): Web {
  const infos: SiteInfo[] = [];
  const paths: string[] = [];
  const key = (host: string, path: string) => `${host}\n${path}`;
  const ids = new Map<string, number>();
  for (const s of sites) {
    const host = s.host.toLowerCase();
    if (infos.some((i) => i.host === host)) throw new Error(`handWeb: host ${host} listed twice`);
    if (s.pages.length === 0) throw new Error(`handWeb: site ${host} has no pages`);
    infos.push({
      host,
      first: paths.length,
      count: s.pages.length,
      latencyMs: s.latencyMs ?? 0,
      bytesPerSec: s.bytesPerSec ?? 0,
      keepAliveMax: s.keepAliveMax ?? 100,
      ...(s.keepAliveHeader ? { keepAliveHeader: true } : {}),
      robots: robotsKind(s.robotsTxt),
      ...(s.robotsTxt !== undefined ? { robotsTxt: s.robotsTxt } : {}),
      ...(s.sitemap !== undefined ? { sitemap: s.sitemap } : {}),
    });
    for (const p of s.pages) {
      if (!p.path.startsWith('/')) throw new Error(`handWeb: path '${p.path}' of ${host} must start with '/'`);
      if (ids.has(key(host, p.path))) throw new Error(`handWeb: ${host}${p.path} listed twice`);
      ids.set(key(host, p.path), paths.length);
      paths.push(p.path);
    }
  }
  const lists: number[][] = [];
  const anchors: Anchor[][] = [];
  for (const s of sites) {
    const host = s.host.toLowerCase();
    for (const p of s.pages) {
      const list: number[] = [];
      const own: Anchor[] = [];
      for (const l of p.links ?? []) {
        const a: Anchor = typeof l === 'string' ? { href: l } : { ...l };
        own.push(a);
        if (a.rel && /\bnofollow\b/i.test(a.rel)) continue;
        const target = resolve(a.href, host, p.path);
        const t = target ? ids.get(key(target.host, target.path)) : undefined;
        if (t !== undefined && !list.includes(t)) list.push(t);
      }
      lists.push(list);
      anchors.push(own);
    }
  }
  const all = sites.flatMap((s) => s.pages);
  return new ListedWeb({
    sites: infos,
    paths,
    ...toCsr(lists),
    titles: all.map((p) => p.title),
    types: all.map((p) => p.contentType),
    sizes: all.map((p) => p.bodyBytes),
    latencies: all.map((p) => p.latencyMs),
    anchors,
  });
}

function robotsKind(r: HandSite['robotsTxt']): RobotsKind {
  if (r === undefined || typeof r === 'string') return 'allow-all';
  return r.status >= 500 ? 'server-error' : r.status >= 400 ? 'not-found' : 'allow-all';
}

function resolve(href: string, host: string, fromPath: string): { host: string; path: string } | undefined {
  try {
    const u = new URL(href, `http://${host}${fromPath}`);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    return { host: u.hostname.toLowerCase(), path: u.pathname + u.search };
  } catch {
    return undefined;
  }
}
