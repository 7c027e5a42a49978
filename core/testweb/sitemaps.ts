/**
 * Sitemaps of the test web (WebSpec.sitemaps, HandSite.sitemap): a site with a sitemap style
 * serves sitemaps, and HIDDEN_PAGES pages that no page links to (`/hidden/page-N.html`), so
 * that only a crawler reading sitemaps finds them. Good styles, and the broken ones, each on a
 * site of its own:
 *
 * | style       | where the crawler learns of it              | what it is                                                        | crawler should record |
 * |-------------|---------------------------------------------|-------------------------------------------------------------------|-----------------------|
 * | plain       | /sitemap.xml (asked of every site)          | urlset: /, the hidden pages, with lastmod                         | -                     |
 * | index       | robots.txt Sitemap: /sitemap-index.xml      | index of /sitemaps/part-1.xml (hidden 1, 2) and part-2.xml.gz (3) | -                     |
 * | gzip        | robots.txt Sitemap: /sitemap.xml.gz         | gzip file of a urlset: the hidden pages                           | -                     |
 * | malformed   | /sitemap.xml                                | hidden 1, then an ampersand left unescaped (not well-formed)      | CRAWL_SITEMAP_MALFORMED (hidden 1 kept) |
 * | self-index  | robots.txt Sitemap: /sitemap-loop.xml       | an index listing itself and /sitemaps/loop-part.xml (hidden 1)    | CRAWL_SITEMAP_LOOP    |
 * | over-limit  | /sitemap.xml                                | hidden 1, then 60 MB of entries padded with spaces, made lazily   | CRAWL_SITEMAP_TOO_LARGE |
 * | billion     | /sitemap.xml                                | a billion entries (the hidden pages over and over), made lazily    | CRAWL_SITEMAP_TOO_LARGE |
 * | not-gzip    | robots.txt Sitemap: /sitemap.xml.gz         | a text file sent as application/x-gzip                            | CRAWL_SITEMAP_NOT_GZIP |
 * | bomb        | robots.txt Sitemap: /sitemap-bomb.xml.gz    | gzip, ~1 MB: hidden 1, then 1 GiB of spaces                        | CRAWL_SITEMAP_TOO_LARGE |
 * | scope       | /sitemap.xml; robots.txt disallows a page   | hidden 1, a URL outside any .demo/.test scope, a disallowed page  | neither of the two fetched |
 */
import type { TLSSocket } from 'node:tls';
import zlib from 'node:zlib';
import { crc32Combine } from './bombs.js';
import { simplePage } from './fault-pages.js';
import { later, notFound, scaled, send, sendHtml, type Ctx } from './respond.js';
import type { RobotsAnswer } from './robots.js';
import type { SiteInfo, SitemapStyle } from './web.js';

export type { SitemapStyle } from './web.js';

/** In the order a generated web hands them to its eligible sites. */
export const SITEMAP_STYLES: readonly SitemapStyle[] = ['plain', 'index', 'gzip', 'malformed', 'self-index', 'over-limit', 'billion', 'not-gzip', 'bomb', 'scope'];
/** The styles that list only what they should: every hidden page of their site is found through them. */
export const GOOD_SITEMAP_STYLES: readonly SitemapStyle[] = ['plain', 'index', 'gzip'];
export const HIDDEN_PAGES = 3;
export const OVER_LIMIT_BYTES = 60 * 1024 * 1024;
export const BILLION = 1_000_000_000;
/** The page of a 'scope' site that its robots.txt disallows and its sitemap lists. */
export const DISALLOWED_PATH = '/hidden/disallowed.html';
/** The URL outside the test web that a 'scope' site's sitemap lists. */
export const OUTSIDE_URL = 'http://outside.invalid/listed.html';

export function hiddenPath(n: number): string {
  return `/hidden/page-${n}.html`;
}

/**
 * A generated web's sitemap styles: each style in turn to the ordinary sites (the portal, site
 * 0, aside) whose robots.txt allows all, then 'plain' to every third of the rest of them.
 */
export function assignSitemaps(sites: SiteInfo[], ordinary: number): void {
  let k = 0;
  for (let s = 1; s < ordinary; s++) {
    const site = sites[s]!;
    if (site.robots !== 'allow-all' || site.robotsTxt !== undefined) continue;
    if (k < SITEMAP_STYLES.length) site.sitemap = SITEMAP_STYLES[k];
    else if ((k - SITEMAP_STYLES.length) % 3 === 0) site.sitemap = 'plain';
    k++;
  }
}

/** robots.txt of a site with sitemaps: its lines for the style appended to a 200 answer. */
export function sitemapRobots(answer: RobotsAnswer | undefined, ctx: Ctx): RobotsAnswer | undefined {
  const style = ctx.site.sitemap;
  if (!answer || !style || answer.status !== 200) return answer;
  const base = baseUrl(ctx);
  const named: Partial<Record<SitemapStyle, string>> = {
    index: '/sitemap-index.xml',
    gzip: '/sitemap.xml.gz',
    'self-index': '/sitemap-loop.xml',
    'not-gzip': '/sitemap.xml.gz',
    bomb: '/sitemap-bomb.xml.gz',
  };
  let body = answer.body.endsWith('\n') || answer.body === '' ? answer.body : `${answer.body}\n`;
  if (style === 'scope') body += `Disallow: ${DISALLOWED_PATH}\n`;
  if (named[style]) body += `\nSitemap: ${base}${named[style]}\n`;
  return { ...answer, body };
}

/** Serves the site's sitemaps and hidden pages; false for any other path. */
export function serveSitemap(ctx: Ctx): boolean {
  const style = ctx.site.sitemap;
  if (!style) return false;
  const path = ctx.path;
  if (!path.startsWith('/hidden/') && !path.startsWith('/sitemap')) return false;
  later(ctx, scaled(ctx, ctx.site.latencyMs), () => {
    if (path.startsWith('/hidden/')) return hiddenPage(ctx);
    if (!answer(ctx, style, baseUrl(ctx))) notFound(ctx);
  });
  return true;
}

function hiddenPage(ctx: Ctx): void {
  const n = /^\/hidden\/page-(\d+)\.html$/.exec(ctx.path);
  const known = (n && Number(n[1]) >= 1 && Number(n[1]) <= HIDDEN_PAGES) || (ctx.path === DISALLOWED_PATH && ctx.site.sitemap === 'scope');
  if (!known) return notFound(ctx);
  sendHtml(ctx, 200, simplePage(`${ctx.host}: ${ctx.path}, listed only in its sitemap`, ['/']));
}

const XML = 'application/xml; charset=utf-8';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/** A urlset of these URLs, each with a lastmod. */
function urlset(urls: string[]): string {
  const entries = urls.map((u, i) => `  <url><loc>${u}</loc><lastmod>2024-0${(i % 9) + 1}-15</lastmod></url>\n`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS}">\n${entries}</urlset>\n`;
}

function sitemapIndex(urls: string[]): string {
  const entries = urls.map((u) => `  <sitemap><loc>${u}</loc><lastmod>2024-05-01</lastmod></sitemap>\n`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${NS}">\n${entries}</sitemapindex>\n`;
}

function hidden(base: string, ...ns: number[]): string[] {
  return ns.map((n) => base + hiddenPath(n));
}

const ALL = Array.from({ length: HIDDEN_PAGES }, (_, i) => i + 1);

/** The answer to a /sitemap* path of a site of this style; false: none (404). */
function answer(ctx: Ctx, style: SitemapStyle, base: string): boolean {
  const xml = (body: string) => () => send(ctx, 200, { 'content-type': XML }, body);
  const gz = (body: string, type = 'application/gzip') => () => send(ctx, 200, { 'content-type': type }, zlib.gzipSync(body));
  const files: Record<string, (() => void) | undefined> = {
    'plain /sitemap.xml': () => xml(urlset([`${base}/`, ...hidden(base, ...ALL)]))(),
    'index /sitemap-index.xml': () => xml(sitemapIndex([`${base}/sitemaps/part-1.xml`, `${base}/sitemaps/part-2.xml.gz`]))(),
    'index /sitemaps/part-1.xml': () => xml(urlset(hidden(base, 1, 2)))(),
    'index /sitemaps/part-2.xml.gz': () => gz(urlset(hidden(base, 3)))(),
    'gzip /sitemap.xml.gz': () => gz(urlset(hidden(base, ...ALL)), 'application/x-gzip')(),
    // The classic: an ampersand left unescaped in a URL.
    'malformed /sitemap.xml': () => xml(urlset(hidden(base, 1)).replace('</urlset>', `<url><loc>${base}${hiddenPath(2)}?from=sitemap&id=2</loc></url>\n</urlset>`))(),
    'self-index /sitemap-loop.xml': () => xml(sitemapIndex([`${base}/sitemap-loop.xml`, `${base}/sitemaps/loop-part.xml`]))(),
    'self-index /sitemaps/loop-part.xml': () => xml(urlset(hidden(base, 1)))(),
    'over-limit /sitemap.xml': () => overLimit(ctx, base),
    'billion /sitemap.xml': () => billion(ctx, base),
    'not-gzip /sitemap.xml.gz': () => send(ctx, 200, { 'content-type': 'application/x-gzip' }, 'This is a text file, not gzip, whatever its name says.\n'),
    'bomb /sitemap-bomb.xml.gz': () => send(ctx, 200, { 'content-type': 'application/gzip' }, sitemapBomb(base)),
    'scope /sitemap.xml': () => xml(urlset([...hidden(base, 1), OUTSIDE_URL, base + DISALLOWED_PATH]))(),
  };
  const serve = files[`${style} ${ctx.path}`];
  serve?.();
  return serve !== undefined;
}

/**
 * Streams pieces from `next` (null: the end) as the client takes them, never holding more than
 * one piece: a body of any size costs the server no memory.
 */
function streamLazily(ctx: Ctx, headers: Record<string, string | number>, next: () => Buffer | null): void {
  const { res } = ctx;
  res.writeHead(200, headers);
  if (ctx.head) return void res.end();
  const pump = (): void => {
    while (!res.destroyed) {
      const piece = next();
      if (piece === null) return void res.end();
      ctx.entry.bytes += piece.length;
      if (!res.write(piece)) return void res.once('drain', pump);
    }
  };
  pump();
}

/** hidden 1, then entries padded with 64 KB of spaces each, OVER_LIMIT_BYTES in all (Content-Length given). */
function overLimit(ctx: Ctx, base: string): void {
  const head = Buffer.from(urlset(hidden(base, 1)).replace('</urlset>\n', ''));
  const entry = Buffer.from(`<url><loc>${base}${hiddenPath(2)}</loc></url>${' '.repeat(64 * 1024)}\n`);
  const tail = Buffer.from('</urlset>\n');
  const copies = Math.ceil((OVER_LIMIT_BYTES - head.length - tail.length) / entry.length);
  let i = -1;
  streamLazily(ctx, { 'content-type': XML, 'content-length': head.length + copies * entry.length + tail.length }, () => {
    i++;
    return i === 0 ? head : i <= copies ? entry : i === copies + 1 ? tail : null;
  });
}

/** BILLION entries, the hidden pages over and over, 1,000 to a piece, sent chunked. */
function billion(ctx: Ctx, base: string): void {
  const head = Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS}">\n`);
  const piece = Buffer.from(
    Array.from({ length: 1000 }, (_, k) => `<url><loc>${base}${hiddenPath((k % HIDDEN_PAGES) + 1)}</loc></url>\n`).join(''),
  );
  const pieces = BILLION / 1000;
  let i = -1;
  streamLazily(ctx, { 'content-type': XML }, () => {
    i++;
    return i === 0 ? head : i <= pieces ? piece : i === pieces + 1 ? Buffer.from('</urlset>\n') : null;
  });
}

const bombs = new Map<string, Buffer>();

/**
 * A gzip file of three members: a urlset's start with hidden 1, 1 GiB of spaces (1 MiB of
 * them deflated once with a full flush and repeated, as bombs.ts does with zeros), its end.
 * About 1 MB; kept per base URL (one per site and port).
 */
export function sitemapBomb(base: string): Buffer {
  const cached = bombs.get(base);
  if (cached) return cached;
  const head = zlib.gzipSync(urlset(hidden(base, 1)).replace('</urlset>\n', ''));
  const tail = zlib.gzipSync('</urlset>\n');
  const out = Buffer.concat([head, spacesMember(), tail]);
  bombs.set(base, out);
  return out;
}

let spaces: Buffer | undefined;

/** One gzip member of 1 GiB of spaces, ~1 MB. */
function spacesMember(): Buffer {
  if (spaces) return spaces;
  const piece = 1 << 20;
  const copies = 1024;
  const block = zlib.deflateRawSync(Buffer.alloc(piece, 0x20), { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  let crc = zlib.crc32(Buffer.alloc(piece, 0x20));
  for (let len = piece; len < piece * copies; len *= 2) crc = crc32Combine(crc, crc, len);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE((piece * copies) % 2 ** 32, 4);
  const parts = [Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 0xff]), ...Array.from({ length: copies }, () => block), Buffer.from([0x03, 0x00]), trailer];
  spaces = Buffer.concat(parts);
  return spaces;
}

/** The scheme, host and port the request came to. */
function baseUrl(ctx: Ctx): string {
  const scheme = (ctx.req.socket as TLSSocket).encrypted ? 'https' : 'http';
  return `${scheme}://${ctx.host}:${ctx.port}`;
}
