import { ErrorCodes, isRetryable } from '../errors.js';
import type { FetchResponse } from '../fetch/interfaces.js';
import { isHtml } from '../parse/charset.js';
import type { ExtractedLink } from '../parse/extract-links.js';
import { parsePage, type ParsedPage, type ParseInput } from '../parse/page-parser.js';
import type { SiteState } from '../scheduler/site-state.js';
import { canonicalize } from '../url/canonical.js';
import type { NewLink } from '../store/crawl-store.js';
import type { CrawlContext } from './context.js';
import { capturePage } from './capture.js';
import { discover, linkDepth, type KnownPages } from './discovery.js';
import type { HistoryPage } from '../store/history-pages.js';
import { urlFingerprintInto } from '../store/url-index.js';

/**
 * URLs recently seen to be pages that are not skipped, with their ids. For these discover()
 * would only look the URL up and return its id, so a hit skips the lookup (a query by URL per
 * link was the crawl's largest cost after parsing). A hit needs a link no shorter than the
 * depth the page is stored at: a shorter one goes to discover(), which lowers it. Bounded,
 * recent first: a site's navigation links repeat on all its pages, so recent URLs are the ones
 * that come back. Two generations of max/2 each, the older dropped whole when the newer fills.
 *
 * Keyed by the URL index's 64-bit fingerprint (store/url-index.ts), in open-addressing tables
 * of [hi, lo, id, depth] in Uint32Arrays: a lookup hashes the URL once, and a miss leaves that
 * hash for discover()'s lookup in the URL index, which takes the same fingerprint; where a Map
 * keyed by the URL hashed it again, compared the strings on a hit and held 100,000 strings
 * across the heap (1M lookups of flat strings: 0.30-0.35 s against 0.57-0.58 s).
 *
 * So it trusts the 64 bits, as CrawlStore.findPage does for a page its facts call plain, but for
 * every page it holds (failed ones too, whose row findPage would read to confirm the URL), and
 * ahead of discover()'s scope check: a URL whose fingerprint equals a cached page's would count
 * as that page. With 100,000 URLs held that is about 5 x 10^-15 a lookup, about 3 x 10^-6 over
 * the ~500 million links of a 50M-URL crawl (findPage's own risk: 7 x 10^-5, CrawlStore).
 */
export class KnownUrls implements KnownPages {
  private recent: Uint32Array;
  private older: Uint32Array;
  private readonly mask: number;
  private readonly half: number;
  private inRecent = 0;
  /** The fingerprint of the URL last looked up. */
  private h = 0;
  private l = 0;
  constructor(max = 100_000) {
    if (!Number.isInteger(max) || max < 2 || max > 2 ** 26) throw new RangeError(`KnownUrls: max must be an integer from 2 to 2^26, got ${max}`);
    this.half = Math.floor(max / 2);
    // At most 40% full: a miss ends after a probe or two.
    let slots = 16;
    while (slots * 2 < this.half * 5) slots *= 2;
    this.mask = slots - 1;
    this.recent = new Uint32Array(slots * 4);
    this.older = new Uint32Array(slots * 4);
  }
  /** The page's id, if it is known at `depth` or less (any depth when not given). */
  get(url: string, depth = Infinity): number | undefined {
    let t = this.recent;
    let j = this.slotInRecent(url);
    if (t[j + 2] === 0) {
      t = this.older;
      j = probe(t, this.mask, this.h, this.l);
      if (t[j + 2] === 0) return undefined;
    }
    return t[j + 3]! <= depth ? t[j + 2] : undefined;
  }
  set(url: string, id: number, depth: number): void {
    let t = this.recent;
    let j = this.slotInRecent(url);
    if (t[j + 2] === 0) {
      if (this.inRecent >= this.half) {
        const dropped = this.older;
        this.older = this.recent;
        this.recent = t = dropped.fill(0);
        this.inRecent = 0;
        j = probe(t, this.mask, this.h, this.l);
      }
      this.inRecent++;
    }
    t[j] = this.h;
    t[j + 1] = this.l;
    t[j + 2] = id;
    t[j + 3] = Math.min(depth, MAX_KNOWN_DEPTH);
  }
  /** Hashes the URL (into h and l) and answers its slot in the recent table. */
  private slotInRecent(url: string): number {
    urlFingerprintInto(url, FP_HI, FP_LO, 0);
    this.h = FP_HI[0]!;
    this.l = FP_LO[0]!;
    return probe(this.recent, this.mask, this.h, this.l);
  }
  clear(): void {
    this.recent.fill(0);
    this.older.fill(0);
    this.inRecent = 0;
  }
}

/** urlFingerprintInto's answer for the URL being looked up. */
const FP_HI = new Uint32Array(1);
const FP_LO = new Uint32Array(1);

/** The slot of fingerprint (h, l) in table t: where it is, or the empty slot where it would go. */
function probe(t: Uint32Array, mask: number, h: number, l: number): number {
  for (let i = l & mask; ; i = (i + 1) & mask) {
    const j = i * 4;
    if (t[j + 2] === 0 || (t[j + 1] === l && t[j] === h)) return j;
  }
}

/** Depths stored at most this (a depth limit is far below it). */
const MAX_KNOWN_DEPTH = 2 ** 20;

const knownByCrawl = new WeakMap<CrawlContext, KnownUrls>();

/** The crawl's KnownUrls; forget them when the write batch they came from is rolled back. */
export function knownUrls(ctx: CrawlContext): KnownUrls {
  let known = knownByCrawl.get(ctx);
  if (!known) knownByCrawl.set(ctx, (known = new KnownUrls()));
  return known;
}

/** A page taken from the frontier, with what discovery stored about it. */
export interface PageJob {
  id: number;
  url: string;
  depth: number;
  redirects: number;
  attempts: number;
  priority: number;
}

export type Outcome =
  | { kind: 'done' }
  /** Try again later; the site waits `delayMs` (backoff or Retry-After) before its next connection. */
  | { kind: 'retry'; delayMs: number; code: string };

/** What the parser needs of a response. */
function parseInput(ctx: CrawlContext, job: PageJob, res: FetchResponse): ParseInput {
  return {
    body: res.body,
    contentEncoding: headerText(res.headers['content-encoding']),
    contentType: res.contentType ?? undefined,
    url: job.url,
    maxDecodedBytes: ctx.settings.maxDecodedBytes,
  };
}

/**
 * What a response turned out to be: filled by classify(), read by record() and discoverLinks().
 * One object for the module, reset on each use: processResponse is synchronous and is never
 * re-entered, so sharing it spares an allocation per page on the crawl's hottest path.
 */
interface Classification {
  title: string | null;
  noindex: boolean;
  errorCode: string | null;
  hash: string | null;
  duplicateOf: number | null;
  links: ExtractedLink[];
  followLinks: boolean;
  redirectTarget: string | null;
}

const NO_LINKS: ExtractedLink[] = [];
const found: Classification = {
  title: null, noindex: false, errorCode: null, hash: null, duplicateOf: null, links: NO_LINKS, followLinks: true, redirectTarget: null,
};

/**
 * What happens to a response: stored with its status, decoded, its links extracted and
 * turned into pages and links, and the policy told. Runs inside the current write batch.
 * With a parse pool (ctx.parser) and `later`, an HTML page is parsed on a thread and the
 * rest happens when it is back: its completion goes into `later`, for the session to wait
 * for at its end, and the answer is 'done' at once (a parsed page never asks for a retry).
 */
export function processResponse(ctx: CrawlContext, site: SiteState, job: PageJob, res: FetchResponse, conditional = false, later?: Array<Promise<void>>): Outcome {
  const status = res.status;
  ctx.counters.requests++;
  // ResponseTime (docs/design.md section 3.4): the whole transfer, not the time to the headers.
  site.measureResponse(res.transferMs ?? res.endedAt - res.startedAt);
  ctx.sites.touch(site);
  const row = ctx.sites.row(site);
  row.requests++;
  row.bytes += res.body.length;

  if (status === 429 || status >= 500) {
    const code = status === 429 ? ErrorCodes.HTTP_429 : ErrorCodes.HTTP_5XX;
    const retryAfter = parseRetryAfter(res.headers['retry-after']);
    return failAttempt(ctx, site, job, code, retryAfter, status, res);
  }
  if (status === 304) {
    if (conditional) return notModified(ctx, site, job, res);
    return failAttempt(ctx, site, job, ErrorCodes.HTTP_304_UNASKED, null, status, res);
  }
  if (later && ctx.parser && status >= 200 && status < 300 && isHtml(res.contentType ?? undefined)) {
    const stored = ctx.parser.parse(parseInput(ctx, job, res)).then((page) => parsed(ctx, site, job, res, page));
    // Its failure (a write refused: the disk full, the file's size budget spent) is the
    // session's, thrown where the session waits for `later`; handled from now on, so that it
    // does not end the process as an unhandled rejection while the session fetches on.
    stored.catch(() => {});
    later.push(stored);
    return { kind: 'done' };
  }
  parsed(ctx, site, job, res);
  return { kind: 'done' };
}

/** The response classified (`page`: parsed already, on a thread), stored, its links discovered. */
function parsed(ctx: CrawlContext, site: SiteState, job: PageJob, res: FetchResponse, page?: ParsedPage): void {
  const c = classify(ctx, job, res, found, page);
  record(ctx, site, job, res, c);
  discoverLinks(ctx, site, job, c);
  c.links = NO_LINKS;
}

/**
 * A redirect, a client error, or a page: decoded, parsed and checked for duplicate content.
 * A duplicate's links are not followed (its original's were).
 */
function classify(ctx: CrawlContext, job: PageJob, res: FetchResponse, c: Classification, parsedPage?: ParsedPage): Classification {
  const status = res.status;
  c.title = null;
  c.noindex = false;
  c.errorCode = null;
  c.hash = null;
  c.duplicateOf = null;
  c.links = NO_LINKS;
  c.followLinks = true;
  c.redirectTarget = null;
  if (status >= 300 && status < 400) {
    const location = res.headers['location'];
    c.redirectTarget = typeof location === 'string' ? canonicalize(location, job.url) : null;
  } else if (status >= 400) {
    c.errorCode = ErrorCodes.HTTP_4XX;
    ctx.counters.error(c.errorCode);
  } else if (isHtml(res.contentType ?? undefined)) {
    const page = parsedPage ?? parsePage(parseInput(ctx, job, res));
    if ('errorCode' in page) {
      c.errorCode = page.errorCode;
      ctx.counters.error(page.errorCode);
    } else {
      c.hash = page.hash;
      // Most pages are new: insert first, look up only when the content was seen before.
      const first = ctx.store.claimHash(page.hash, job.id);
      if (first !== job.id) {
        c.duplicateOf = first;
      } else {
        c.title = page.title || null;
        c.noindex = page.noindex;
        c.followLinks = !page.nofollow;
        c.links = page.links;
      }
    }
  }
  return c;
}

/**
 * 304 Not Modified to a conditional request (docs/design.md section 4.10): the page counts as
 * fetched, with the history crawl's content hash, size, type and title, and the history
 * crawl's links stand for the ones a download would have extracted (the server says the page
 * is the same), so the link graph is as complete as with a full download.
 */
function notModified(ctx: CrawlContext, site: SiteState, job: PageJob, res: FetchResponse): Outcome {
  const past = ctx.history!.page(job.url)!;
  const c = found;
  c.title = past.title;
  c.noindex = past.noindex;
  c.errorCode = null;
  c.hash = past.contentHash;
  c.duplicateOf = null;
  c.followLinks = true;
  c.redirectTarget = null;
  c.links = NO_LINKS;
  if (past.contentHash !== null) {
    const first = ctx.store.claimHash(past.contentHash, job.id);
    if (first !== job.id) c.duplicateOf = first;
  }
  if (c.duplicateOf === null) c.links = ctx.history!.outLinks(past.id);
  else c.title = null;
  record(ctx, site, job, res, c, past);
  discoverLinks(ctx, site, job, c);
  c.links = NO_LINKS;
  return { kind: 'done' };
}

/**
 * The fetch stored with the page (and its bytes, when the crawl keeps content), and counted.
 * `past`: a 304's page as the history crawl holds it (type and size are the page's, not the 304's).
 */
function record(ctx: CrawlContext, site: SiteState, job: PageJob, res: FetchResponse, c: Classification, past?: HistoryPage): void {
  const { store, counters } = ctx;
  store.recordFetch(job.id, {
    status: c.duplicateOf !== null ? 'duplicate' : 'fetched',
    // A 304 stands for the page the history holds: its status (200) is the page's; not_modified says a 304 came.
    httpStatus: past ? past.httpStatus : res.status,
    contentType: past ? past.contentType : res.contentType,
    bytes: past ? (past.bytes ?? 0) : res.body.length,
    contentHash: c.hash,
    duplicateOf: c.duplicateOf,
    title: c.title,
    noindex: c.noindex,
    errorCode: c.errorCode,
    attempts: job.attempts + 1,
    fetchedAt: res.endedAt,
    responseMs: res.headersAt - res.startedAt,
    // A 304 need not repeat the validators: the history's stay good for the next recrawl.
    etag: headerText(res.headers['etag']) ?? past?.etag ?? null,
    lastModified: headerText(res.headers['last-modified']) ?? past?.lastModified ?? null,
    notModified: past !== undefined,
  });
  if (ctx.content) capturePage(ctx, job.id, res);
  counters.pagesFetched++;
  counters.bytes += res.body.length;
  site.pagesFetched++;
  site.consecutiveErrors = 0;
  ctx.scheduler.pageDone();
}

/**
 * The redirect's target and the page's links turned into pages (new ones queued) and stored
 * as links; the policy is told the page's targets.
 */
function discoverLinks(ctx: CrawlContext, site: SiteState, job: PageJob, c: Classification): void {
  const targets: number[] = [];
  const rows: NewLink[] = [];
  const known = knownUrls(ctx);
  const depth = linkDepth(ctx, job.id, job.depth);
  const redirectTarget = c.redirectTarget;
  if (redirectTarget !== null && redirectTarget !== job.url) {
    const target = discover(ctx, {
      url: redirectTarget, depth, parentId: job.id, redirects: job.redirects + 1, anchor: null, nofollow: false,
    }, known);
    if (target !== null) {
      rows.push({ dst: target, anchor: null, nofollow: false, kind: 'redirect' });
      targets.push(target);
    }
  }
  for (const link of c.links) {
    if (link.url === job.url) continue;
    const nofollow = link.nofollow || !c.followLinks;
    const target =
      known.get(link.url, depth + 1) ??
      discover(ctx, { url: link.url, depth: depth + 1, parentId: job.id, redirects: 0, anchor: link.anchor || null, nofollow }, known);
    if (target === null) continue;
    rows.push({ dst: target, anchor: link.anchor || null, nofollow, kind: link.kind });
    targets.push(target);
  }
  ctx.store.insertLinks(job.id, rows);
  ctx.parts?.pageDone(job.id, job.url);
  ctx.counters.links += rows.length;
  ctx.policy.onFetched?.(job.id, site, targets);
}

/**
 * A failed attempt (network error, timeout, 5xx, 429). Retryable failures go back to the
 * frontier with exponential backoff until maxAttempts; the rest fail for good.
 */
export function failAttempt(
  ctx: CrawlContext,
  site: SiteState,
  job: PageJob,
  code: string,
  retryAfterMs: number | null = null,
  httpStatus: number | null = null,
  res: FetchResponse | null = null,
): Outcome {
  const { settings, store, counters } = ctx;
  counters.error(code);
  const row = ctx.sites.row(site);
  row.errors++;
  site.consecutiveErrors++;
  const attempts = job.attempts + 1;
  if (isRetryable(code) && attempts < settings.maxAttempts) {
    store.recordAttempt(job.id, attempts, code);
    job.attempts = attempts;
    const backoff = settings.retryBase * 2 ** (attempts - 1);
    return { kind: 'retry', delayMs: Math.max(backoff, retryAfterMs ?? 0), code };
  }
  row.pages_failed++;
  if (httpStatus !== null) {
    // The server did answer: keep its status with the page.
    store.recordFetch(job.id, {
      status: 'failed', httpStatus, contentType: null, bytes: 0, contentHash: null, duplicateOf: null, title: null,
      noindex: false, errorCode: code, attempts, fetchedAt: ctx.scheduler.clock.now(), responseMs: null,
    });
    // The answer the page gave up on is kept for a WARC export (the retried ones are not).
    if (res && ctx.content) capturePage(ctx, job.id, res);
    counters.pagesFetched++;
    ctx.scheduler.pageDone();
  } else {
    store.finishPage(job.id, 'failed', code, attempts);
  }
  return { kind: 'done' };
}

function headerText(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(',') : v;
}

/** Retry-After as seconds or an HTTP date, in ms; capped at one hour. */
export function parseRetryAfter(v: string | string[] | undefined): number | null {
  const text = headerText(v)?.trim();
  if (!text) return null;
  const seconds = Number(text);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(text) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), 3_600_000) : null;
}
