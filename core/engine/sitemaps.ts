/**
 * Sitemaps (--sitemaps; sitemaps.org protocol 0.9). Once an origin's robots.txt is known, its
 * sitemaps are planned: the `Sitemap:` lines of robots.txt on the same origin, and
 * /sitemap.xml. They are then fetched as the crawl's own requests over the site's connections,
 * before its pages, as robots.txt is: each counts as one of the c requests of a connection, and
 * w separates connections as always (session-runner.ts), so politeness is the pages' own.
 *
 * A sitemap is read as it arrives (parse/sitemap-reader.ts: gzip, 50,000 entries, 50 MB).
 * One that answers 2xx becomes a fetched page (its content type, size, and its problem's code if
 * it is broken), the source of links of kind 'sitemap' to what it lists, each with its
 * <lastmod> (links.lastmod). Its URLs are discovered as a page's links are: scope, robots.txt
 * (when fetched) and the trap limits apply, at depth one below the sitemap (0 for robots.txt's
 * and /sitemap.xml, one more per index). The sitemaps table keeps every sitemap, with what
 * became of it. Bounds, beside the protocol's per file: indexes nested at most
 * MAX_INDEX_DEPTH deep, at most FILES_PER_SITE sitemap files per site, and at most
 * max(50,000, maxPagesPerSite) entries read per site; past one, the rest is not read and the
 * site's remaining sitemaps are skipped.
 */
import { ErrorCodes, isRetryable } from '../errors.js';
import type { BodySink, Connection, FetchResponse } from '../fetch/interfaces.js';
import { SITEMAP_MAX_BYTES, SITEMAP_MAX_ENTRIES, SitemapReader, type SitemapEntry } from '../parse/sitemap-reader.js';
import type { RobotsRules } from '../robots/robots.js';
import type { SiteState } from '../scheduler/site-state.js';
import { SitemapStore, type NewSitemap, type SitemapLink, type SitemapRow } from '../store/sitemap-store.js';
import { canonicalize } from '../url/canonical.js';
import { capturePage } from './capture.js';
import type { CrawlContext } from './context.js';
import { discover } from './discovery.js';
import { knownUrls } from './page-processor.js';

/** robots.txt's sitemaps and /sitemap.xml are at depth 0; an index's children one deeper. Deeper than this: not fetched. */
export const MAX_INDEX_DEPTH = 3;
/** Sitemap files per site, however many its indexes list. */
export const FILES_PER_SITE = 1000;
/** A body read to no end (an error page, a redirect) is read up to this, then the connection is dropped. */
const DISCARD_MAX = 64 * 1024;
/** Lines of robots.txt read for Sitemap: (its body is at most 500 KB). */
const SITEMAP_LINE = /^[ \t]*sitemap[ \t]*:[ \t]*(\S+)/gim;

/** Per crawl: the sitemaps store and each site's totals (files planned, entries read). */
class Book {
  readonly store: SitemapStore;
  private readonly totals = new Map<number, { files: number; entries: number }>();
  private readonly plannedOrigins = new Set<string>();
  constructor(ctx: CrawlContext) {
    this.store = new SitemapStore(ctx.store.db, ctx.store.writes, (src, links) => ctx.store.notePendingLinks(src, links));
  }
  /** The origin's sitemaps were planned: this run, or an earlier one (its /sitemap.xml is stored as guessed). */
  planned(origin: string): boolean {
    if (this.plannedOrigins.has(origin)) return true;
    if (this.store.byUrl(`${origin}/sitemap.xml`)?.source !== 'guess') return false;
    this.plannedOrigins.add(origin);
    return true;
  }
  markPlanned(origin: string): void {
    this.plannedOrigins.add(origin);
  }
  site(siteId: number): { files: number; entries: number } {
    let t = this.totals.get(siteId);
    if (!t) this.totals.set(siteId, (t = { ...this.store.siteTotals(siteId) }));
    return t;
  }
}

const books = new WeakMap<CrawlContext, Book>();

function book(ctx: CrawlContext): Book {
  let b = books.get(ctx);
  if (!b) books.set(ctx, (b = new Book(ctx)));
  return b;
}

/** Entries read per site at most: enough for the site's page cap, never fewer than one full file. */
export function entriesPerSite(ctx: CrawlContext): number {
  return Math.max(SITEMAP_MAX_ENTRIES, ctx.settings.maxPagesPerSite);
}

/**
 * The sitemap phase of a session, after robots.txt: the origin's sitemaps planned if they were
 * not, then fetched over `conn` while the connection allows (`requests` made so far, at most c).
 * Returns the requests made over the connection, those before included.
 */
export async function sitemapPhase(
  ctx: CrawlContext,
  site: SiteState,
  conn: Connection,
  origin: string,
  rules: RobotsRules,
  requests: number,
  result: { endedAt: number; extraDelayMs: number },
  stopping: () => boolean,
): Promise<number> {
  const b = book(ctx);
  if (!b.planned(origin)) {
    // A parallel crawl's worker that does not read this origin's sitemaps (another one does) goes on to the pages.
    if (ctx.parts?.readsSitemaps && !(await ctx.parts.readsSitemaps(origin))) return requests;
    plan(ctx, site, origin);
    b.markPlanned(origin);
  }
  for (const row of b.store.queued(origin)) {
    if (!rules.isAllowed(row.url)) {
      b.store.record(row.id, { ...NOTHING, state: 'skipped', errorCode: ErrorCodes.ROBOTS_DISALLOWED, message: 'disallowed by robots.txt', attempts: row.attempts });
      ctx.counters.bump(`skipped:${ErrorCodes.ROBOTS_DISALLOWED}`);
      continue;
    }
    if (stopping() || !conn.open || requests >= ctx.settings.c || pageLimitReached(ctx)) break;
    if (requests > 0 && ctx.settings.keepaliveGap > 0) await sleep(ctx.settings.keepaliveGap);
    requests++;
    const again = await fetchSitemap(ctx, site, conn, row, result);
    if (!again) break;
  }
  return requests;
}

/** A sitemap that answers is a fetched page: none is asked for once the crawl has its --max-pages. */
function pageLimitReached(ctx: CrawlContext): boolean {
  return ctx.settings.maxPages !== null && ctx.counters.pagesFetched >= ctx.settings.maxPages;
}

const NOTHING = {
  httpStatus: null, root: null, gzip: false, urls: 0, sitemaps: 0, bytes: null, decodedBytes: null, errorCode: null, message: null, fetchedAt: null,
} as const;

/** An origin's first sitemaps: robots.txt's Sitemap: lines on this origin, then /sitemap.xml. */
function plan(ctx: CrawlContext, site: SiteState, origin: string): void {
  const robotsUrl = `${origin}/robots.txt`;
  const body = ctx.store.getRobots(origin)?.body ?? '';
  for (const m of body.matchAll(SITEMAP_LINE)) {
    const url = canonicalize(m[1]!, robotsUrl);
    if (!url) continue;
    if (otherOrigin(ctx, url, origin)) continue;
    add(ctx, site, { siteId: site.id, origin, url, source: 'robots', parentId: null, depth: 0, lastmod: null });
  }
  const guess = `${origin}/sitemap.xml`;
  add(ctx, site, { siteId: site.id, origin, url: guess, source: 'guess', parentId: null, depth: 0, lastmod: null });
}

/**
 * A sitemap on another origin than the robots.txt, index or redirect naming it: not fetched
 * (the connections that would fetch it serve the other origin), only counted.
 */
function otherOrigin(ctx: CrawlContext, url: string, origin: string): boolean {
  if (new URL(url).origin === origin) return false;
  ctx.counters.bump('sitemaps:other-origin');
  return true;
}

/**
 * A sitemap named by robots.txt, an index or a redirect, stored unless already known or past
 * the site's cap on files. Returns false when the cap is reached (no more may be added).
 */
function add(ctx: CrawlContext, site: SiteState, s: NewSitemap): boolean {
  const b = book(ctx);
  if (b.store.byUrl(s.url)) return true;
  const totals = b.site(site.id);
  if (totals.files >= FILES_PER_SITE) return false;
  b.store.insert(s);
  totals.files++;
  return true;
}

/** One sitemap's fetch over the session's connection. False: stop using this connection for sitemaps. */
async function fetchSitemap(ctx: CrawlContext, site: SiteState, conn: Connection, row: SitemapRow, result: { endedAt: number; extraDelayMs: number }): Promise<boolean> {
  const read = new SitemapRead(ctx, site, row);
  const u = new URL(row.url);
  let res: FetchResponse;
  try {
    res = conn.stream ? await conn.stream(u.pathname + u.search, read) : await whole(conn, u.pathname + u.search, read);
  } catch (err) {
    result.endedAt = ctx.scheduler.clock.now();
    read.abandon();
    const code = (err as { code?: string }).code;
    if (typeof code !== 'string' || !code.startsWith('CRAWL_')) throw err;
    return read.failed(code, result);
  }
  ctx.counters.requests++;
  if (read.cut) {
    // Reading stopped before the body's end: the connection is dropped, w counts from now.
    await conn.close();
  }
  result.endedAt = read.cut ? ctx.scheduler.clock.now() : res.endedAt;
  await read.finish(res);
  return conn.open;
}

/** request(), for a connection that cannot stream: the body handed to the sink whole. */
async function whole(conn: Connection, path: string, sink: BodySink): Promise<FetchResponse> {
  const res = await conn.request(path);
  sink.head(res.status, res.headers);
  await sink.chunk(res.body);
  return res;
}

/** One sitemap being fetched and read: the BodySink of its request, then its outcome recorded. */
class SitemapRead implements BodySink {
  readonly maxBytes = SITEMAP_MAX_BYTES + 1024 * 1024;
  /** Reading stopped before the body ended. */
  cut = false;
  private status = 0;
  private headers: Record<string, string | string[] | undefined> = {};
  private reader: SitemapReader | null = null;
  private bytes = 0;
  private pageId: number | null = null;
  private pageDepth = 0;
  private readonly links: SitemapLink[] = [];
  private readonly targets: number[] = [];
  private readonly kept: Buffer[] | null;
  private siteCapped = false;
  private indexProblem: { code: string; message: string } | null = null;
  private readonly book: Book;
  /** This read's attempt at the sitemap (1 the first). */
  private readonly attempt: number;

  constructor(
    private readonly ctx: CrawlContext,
    private readonly site: SiteState,
    private readonly row: SitemapRow,
  ) {
    this.book = book(ctx);
    this.kept = ctx.content ? [] : null;
    this.attempt = row.attempts + 1;
  }

  head(status: number, headers: Record<string, string | string[] | undefined>): void {
    this.status = status;
    this.headers = headers;
    if (status < 200 || status >= 300) return;
    const type = text(headers['content-type']) ?? '';
    const gzipDeclared = /\.gz$/i.test(new URL(this.row.url).pathname) || /gzip/i.test(type);
    this.reader = new SitemapReader({ maxEntries: SITEMAP_MAX_ENTRIES, maxBytes: SITEMAP_MAX_BYTES }, text(headers['content-encoding']), gzipDeclared, (e) =>
      this.entry(e),
    );
    this.openPage();
  }

  async chunk(data: Buffer): Promise<boolean> {
    this.bytes += data.length;
    if (this.kept && this.bytes <= this.ctx.settings.maxBodyBytes) this.kept.push(data);
    const more = this.reader ? await this.reader.write(data) : this.bytes <= DISCARD_MAX;
    if (!more) this.cut = true;
    return more;
  }

  abandon(): void {
    this.reader?.abandon();
  }

  /** The sitemap's page: an existing page with its URL, or a new one (recorded as fetched by finish()). */
  private openPage(): void {
    const { store } = this.ctx;
    const parent = this.row.parent_id === null ? undefined : this.book.store.byId(this.row.parent_id);
    const parentPage = parent?.page_id ?? null;
    this.pageDepth = this.row.depth;
    let id = this.row.page_id ?? store.findPage(this.row.url)?.id ?? null;
    if (id === null) {
      id = store.insertPage({ url: this.row.url, siteId: this.site.id, depth: this.row.depth, parentId: parentPage, redirects: 0, status: 'skipped' });
      this.site.pagesKnown++;
      this.ctx.sites.touch(this.site);
    }
    this.pageId = id;
    this.book.store.setPage(this.row.id, id);
    this.row.page_id = id;
    if (parentPage !== null && parentPage !== id) this.book.store.insertLinks(parentPage, [{ dst: id, lastmod: this.row.lastmod }]);
  }

  /** One entry of the sitemap: a page to discover, or a sitemap to plan. False: stop reading. */
  private entry(e: SitemapEntry): boolean {
    const totals = this.book.site(this.site.id);
    if (totals.entries >= entriesPerSite(this.ctx)) {
      this.siteCapped = true;
      return false;
    }
    totals.entries++;
    if (e.kind === 'sitemap') return this.child(e);
    const url = canonicalize(e.loc, this.row.url);
    if (!url) {
      this.ctx.counters.bump('sitemaps:bad-loc');
      return true;
    }
    const known = knownUrls(this.ctx);
    const id =
      known.get(url, this.pageDepth + 1) ??
      discover(this.ctx, { url, depth: this.pageDepth + 1, parentId: this.pageId, redirects: 0, anchor: null, nofollow: false }, known);
    if (id === null || id === this.pageId) return true;
    this.links.push({ dst: id, lastmod: e.lastmod });
    this.targets.push(id);
    if (this.links.length >= 256) this.flushLinks();
    return true;
  }

  /** A sitemap listed by this index: planned unless a loop, too deep, another origin, or past the cap. */
  private child(e: SitemapEntry): boolean {
    const url = canonicalize(e.loc, this.row.url);
    if (!url) {
      this.ctx.counters.bump('sitemaps:bad-loc');
      return true;
    }
    if (this.isAncestor(url)) {
      this.indexProblem ??= { code: ErrorCodes.SITEMAP_LOOP, message: `lists ${url === this.row.url ? 'itself' : `${url}, an index above it`}` };
      return true;
    }
    const depth = this.row.depth + 1;
    if (depth > MAX_INDEX_DEPTH) {
      this.indexProblem ??= { code: ErrorCodes.SITEMAP_TOO_DEEP, message: `indexes nested more than ${MAX_INDEX_DEPTH} deep: what it lists is not fetched` };
      return true;
    }
    if (otherOrigin(this.ctx, url, this.row.origin)) return true;
    const added = add(this.ctx, this.site, { siteId: this.site.id, origin: this.row.origin, url, source: 'index', parentId: this.row.id, depth, lastmod: e.lastmod });
    if (!added) {
      this.indexProblem ??= { code: ErrorCodes.SITEMAP_SITE_CAP, message: `the site has ${FILES_PER_SITE.toLocaleString('en-US')} sitemap files, the most read per site: the rest is not fetched` };
      return false;
    }
    return true;
  }

  /** The URL is this sitemap or one of the indexes above it. */
  private isAncestor(url: string): boolean {
    for (let r: SitemapRow | undefined = this.row; r; r = r.parent_id === null ? undefined : this.book.store.byId(r.parent_id)) {
      if (r.url === url) return true;
    }
    return false;
  }

  private flushLinks(): void {
    if (this.pageId === null || this.links.length === 0) return;
    this.book.store.insertLinks(this.pageId, this.links);
    this.ctx.counters.links += this.links.length;
    this.links.length = 0;
  }

  /**
   * A parallel crawl's worker sends the URLs this read found for other parts (PartHook.pageDone),
   * once the read has ended, well or not: what a failed read found is sent too, and a read
   * again sends under its own attempt.
   */
  private sendForeign(): void {
    if (this.pageId !== null) this.ctx.parts?.pageDone(this.pageId, this.row.url, this.attempt);
  }

  /** The request failed (no answer): a retryable failure is retried at the site's next connection, up to maxAttempts. */
  failed(code: string, result: { extraDelayMs: number }): boolean {
    this.sendForeign();
    const attempts = this.row.attempts + 1;
    if (isRetryable(code) && attempts < this.ctx.settings.maxAttempts) {
      this.book.store.record(this.row.id, { ...NOTHING, state: 'queued', errorCode: code, message: `attempt ${attempts} failed: ${code}`, attempts });
      result.extraDelayMs = Math.max(result.extraDelayMs, this.ctx.settings.retryBase * 2 ** (attempts - 1));
      return false;
    }
    this.fail(null, isRetryable(code) ? `no answer after ${attempts} attempts (${code})` : `the request failed: ${code}`, attempts);
    return false;
  }

  /** A sitemap that could not be had: 'absent' for a guessed /sitemap.xml, otherwise an error. */
  private fail(httpStatus: number | null, message: string, attempts: number): void {
    const guess = this.row.source === 'guess' && httpStatus !== null && httpStatus >= 400 && httpStatus < 500;
    const code = guess ? null : ErrorCodes.SITEMAP_UNAVAILABLE;
    this.book.store.record(this.row.id, { ...NOTHING, state: guess ? 'absent' : 'failed', httpStatus, errorCode: code, message, attempts, bytes: this.bytes, fetchedAt: Date.now() });
    if (code) this.ctx.counters.error(code);
    // A page opened for a 2xx whose body then failed: it ends failed too.
    if (this.pageId !== null && this.ctx.store.findPage(this.row.url)?.status === 'skipped') {
      this.ctx.store.finishPage(this.pageId, 'failed', ErrorCodes.SITEMAP_UNAVAILABLE, attempts);
    }
  }

  /** The answer is in: recorded as what it was. */
  async finish(res: FetchResponse): Promise<void> {
    try {
      await this.record(res);
    } finally {
      this.sendForeign();
    }
  }

  private async record(res: FetchResponse): Promise<void> {
    const attempts = this.row.attempts + 1;
    const status = res.status;
    if (status >= 300 && status < 400) return this.redirected(res, attempts);
    if (status === 429 || status >= 500) {
      if (attempts < this.ctx.settings.maxAttempts) {
        this.book.store.record(this.row.id, { ...NOTHING, state: 'queued', httpStatus: status, message: `attempt ${attempts}: HTTP ${status}`, attempts });
        return;
      }
    }
    if (!this.reader) return this.fail(status, `HTTP ${status}`, attempts);
    if (this.cut) this.reader.abandon();
    const r = this.cut ? this.reader.result : await this.reader.end();
    this.flushLinks();
    const problem = r.problem ?? this.indexProblem ?? (this.siteCapped ? { code: ErrorCodes.SITEMAP_SITE_CAP, message: `the site's sitemaps reached ${entriesPerSite(this.ctx).toLocaleString('en-US')} entries, the most read per site` } : null);
    if (this.siteCapped) this.book.store.skipQueued(this.site.id, ErrorCodes.SITEMAP_SITE_CAP, 'the site reached its cap on sitemap entries');
    this.book.store.record(this.row.id, {
      state: 'fetched', httpStatus: status, root: r.root, gzip: r.gzip, urls: r.urls, sitemaps: r.sitemaps, bytes: this.bytes,
      decodedBytes: r.decodedBytes, errorCode: problem?.code ?? null, message: problem?.message ?? null, attempts, fetchedAt: res.endedAt,
    });
    if (problem) this.ctx.counters.error(problem.code);
    this.recordPage(res, attempts, problem?.code ?? null);
  }

  /** A redirect: its target planned in its place (same depth and parent), if on the same origin. */
  private redirected(res: FetchResponse, attempts: number): void {
    const location = text(res.headers['location']);
    const target = location ? canonicalize(location, this.row.url) : null;
    const message = target ? `redirects to ${target}` : 'a redirect without a location';
    this.book.store.record(this.row.id, { ...NOTHING, state: 'fetched', httpStatus: res.status, message, attempts, bytes: this.bytes, fetchedAt: res.endedAt });
    if (!target || this.isAncestor(target) || otherOrigin(this.ctx, target, this.row.origin)) return;
    add(this.ctx, this.site, {
      siteId: this.site.id, origin: this.row.origin, url: target, source: 'redirect', parentId: this.row.id, depth: this.row.depth, lastmod: this.row.lastmod,
    });
  }

  /** The sitemap's page recorded as fetched (unless it is a page of the crawl's own, fetched as one). */
  private recordPage(res: FetchResponse, attempts: number, errorCode: string | null): void {
    const { ctx, site } = this;
    const id = this.pageId!;
    const own = ctx.store.findPage(this.row.url);
    if (own && own.id === id && own.status !== 'skipped') {
      ctx.policy.onFetched?.(id, site, this.targets);
      return;
    }
    ctx.store.recordFetch(id, {
      status: 'fetched', httpStatus: res.status, contentType: res.contentType, bytes: this.bytes, contentHash: null, duplicateOf: null,
      title: null, noindex: false, errorCode, attempts, fetchedAt: res.endedAt, responseMs: res.headersAt - res.startedAt,
    });
    if (this.kept && !this.cut && this.bytes <= ctx.settings.maxBodyBytes) capturePage(ctx, id, { ...res, body: Buffer.concat(this.kept) });
    ctx.counters.pagesFetched++;
    ctx.counters.bytes += this.bytes;
    site.pagesFetched++;
    ctx.sites.touch(site);
    ctx.scheduler.pageDone();
    ctx.policy.onFetched?.(id, site, this.targets);
  }
}

function text(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(',') : v;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
