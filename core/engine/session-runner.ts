import { CrawlError, ErrorCodes, type ErrorCode } from '../errors.js';
import type { Connection } from '../fetch/interfaces.js';
import { robotsRequest, robotsText } from '../fetch/robots-text.js';
import type { RobotsRules } from '../robots/robots.js';
import type { QueuedPage, Session } from '../scheduler/scheduler.js';
import type { SiteState } from '../scheduler/site-state.js';
import { captureRobots } from './capture.js';
import type { CrawlContext } from './context.js';
import { conditionalHeaders } from '../store/history-pages.js';
import { failAttempt, processResponse, type PageJob } from './page-processor.js';
import type { RobotsStatus } from './robots-cache.js';
import { failOrigin, isTlsCode, noteCertificate, noteScheme, refusedWith } from './tls-sites.js';
import { sitemapPhase } from './sitemaps.js';
import { pipelinedLoop } from './pipelined-loop.js';
import type { SessionResult } from './session-result.js';

const MAX_ROBOTS_REDIRECTS = 5;

export type { SessionResult } from './session-result.js';

/**
 * Runs one connection's worth of work: robots.txt first if the origin has none cached,
 * then up to c pages back to back over one keep-alive connection (docs/design.md section 2.4).
 * Stops early when the server ends keep-alive, an error breaks the connection, or the
 * crawl is pausing; unfetched pages are handed back to the scheduler.
 */
export async function runSession(ctx: CrawlContext, session: Session, stopping: () => boolean): Promise<SessionResult> {
  const { site } = session;
  const jobs = loadJobs(ctx, session.pages);
  const origin = new URL(jobs[0]!.url).origin;
  // A connection serves one origin: pages of the site on another scheme or port wait.
  const returned: QueuedPage[] = [];
  const mine: PageJob[] = [];
  for (const job of jobs) (new URL(job.url).origin === origin ? mine : returned).push(job);
  const result: SessionResult = { endedAt: ctx.scheduler.clock.now(), returned, extraDelayMs: 0, park: null };

  let conn: Connection | null = null;
  /** Pages handed to the parse pool: the session ends once each is stored. */
  const later: Array<Promise<void>> = [];
  try {
    noteScheme(ctx, site, origin);
    // An origin whose TLS failed for good this run: its pages fail with it, no connection made.
    const refusal = refusedWith(ctx, origin);
    if (refusal !== undefined) throw new CrawlError(refusal as ErrorCode, `${origin}: refused earlier in this run (${refusal})`);
    conn = await ctx.fetcher.connect(origin);
    const cached = ctx.robots.status(origin, Date.now());
    const robotsOnConn = { requests: 0 };
    const rules = cached.kind === 'known' ? cached.rules : await robotsPhase(ctx, site, conn, origin, cached, result, robotsOnConn);
    if (rules === null) {
      giveBack(mine, 0, returned);
      return result;
    }
    // robots.txt fetched over this connection counts against c (each redirect hop it followed
    // over it too); so does each sitemap (--sitemaps).
    let before = robotsOnConn.requests;
    if (ctx.settings.sitemaps) before = await sitemapPhase(ctx, site, conn, origin, rules, before, result, stopping);
    if (ctx.settings.pipeliningDepth > 1) await pipelinedLoop(ctx, site, conn, rules, mine, before, result, stopping);
    else await pageLoop(ctx, site, conn, rules, mine, before, result, stopping, later);
    measure(ctx, site, conn);
  } catch (err) {
    if (!(err instanceof CrawlError)) throw err;
    // Could not connect at all (DNS, refused): the first page carries the failure.
    result.endedAt = ctx.scheduler.clock.now();
    const first = mine[0];
    // A TLS failure (a certificate under --tls verify, a handshake): the origin's pages carry it.
    if (isTlsCode(err.code)) failOrigin(ctx, site, origin, mine, err.code, result);
    else if (first) {
      const outcome = failAttempt(ctx, site, first, err.code);
      if (outcome.kind === 'retry') {
        result.extraDelayMs = outcome.delayMs;
        returned.push(...mine);
      } else giveBack(mine, 1, returned);
    }
  } finally {
    if (conn?.tls) noteCertificate(ctx, site, conn.tls);
    await conn?.close();
    await Promise.all(later);
  }
  if (site.consecutiveErrors >= ctx.settings.siteErrorBudget) result.park = ErrorCodes.SITE_PARKED;
  return result;
}

/**
 * The robots.txt phase, for an origin with no rules cached: fetched over the session's
 * connection, its Crawl-delay applied to the site. Null when the session must fetch nothing
 * (RFC 9309 §2.3.1.4: robots.txt unreachable); `result` then says when to try again, or to
 * park the site once robotsMaxAttempts were spent.
 */
async function robotsPhase(
  ctx: CrawlContext,
  site: SiteState,
  conn: Connection,
  origin: string,
  cached: RobotsStatus,
  result: SessionResult,
  onConn: { requests: number },
): Promise<RobotsRules | null> {
  if (cached.kind === 'unavailable' && cached.attempts >= ctx.settings.robotsMaxAttempts) {
    result.park = ErrorCodes.ROBOTS_UNAVAILABLE;
    return null;
  }
  const robots = await fetchRobots(ctx, site, conn, origin, result, onConn);
  if (robots.kind !== 'known') {
    result.extraDelayMs = ctx.settings.robotsRetry;
    const attempts = robots.kind === 'unavailable' ? robots.attempts : 1;
    if (attempts >= ctx.settings.robotsMaxAttempts) result.park = ErrorCodes.ROBOTS_UNAVAILABLE;
    return null;
  }
  const delay = robots.rules.crawlDelaySeconds();
  if (delay !== undefined) {
    site.crawlDelayMs = Math.min(delay * 1000, ctx.settings.maxCrawlDelay);
    ctx.sites.touch(site);
  }
  return robots.rules;
}

/**
 * The page loop: the session's pages fetched back to back over `conn`, each allowed by
 * robots.txt. Returns the requests made over the connection (`requests` already made, plus
 * the pages'); the pages not fetched go to `result.returned`.
 */
async function pageLoop(
  ctx: CrawlContext,
  site: SiteState,
  conn: Connection,
  rules: RobotsRules,
  mine: PageJob[],
  requests: number,
  result: SessionResult,
  stopping: () => boolean,
  later?: Array<Promise<void>>,
): Promise<number> {
  const returned = result.returned;
  for (let i = 0; i < mine.length; i++) {
    const job = mine[i]!;
    if (!rules.isAllowed(job.url)) {
      ctx.store.finishPage(job.id, 'disallowed', ErrorCodes.ROBOTS_DISALLOWED, job.attempts);
      ctx.counters.bump('skipped:' + ErrorCodes.ROBOTS_DISALLOWED);
      continue;
    }
    // Each request over one connection: never after the server ended keep-alive,
    // never once c requests were made (robots.txt counts as one).
    if (stopping() || !conn.open || requests >= ctx.settings.c) {
      giveBack(mine, i, returned);
      break;
    }
    if (requests > 0 && ctx.settings.keepaliveGap > 0) await sleep(ctx.settings.keepaliveGap);
    const u = new URL(job.url);
    // A page the history crawl holds is asked for only if it changed (its validators sent back).
    const validators = ctx.history?.validators(job.url) ?? null;
    let outcome;
    try {
      requests++;
      const res = await conn.request(u.pathname + u.search, validators ? conditionalHeaders(validators) : undefined);
      result.endedAt = res.endedAt;
      outcome = processResponse(ctx, site, job, res, validators !== null, later);
    } catch (err) {
      result.endedAt = ctx.scheduler.clock.now();
      if (!(err instanceof CrawlError)) throw err;
      if (requests > 1 && err.code === ErrorCodes.CONNECTION_RESET) {
        // The server closed a kept-alive connection before this request: not the page's fault.
        giveBack(mine, i, returned);
        break;
      }
      if (isTlsCode(err.code)) {
        // The connection's first request: its TLS failed, and with it every page left.
        failOrigin(ctx, site, conn.origin, mine.slice(i), err.code, result);
        break;
      }
      outcome = failAttempt(ctx, site, job, err.code);
    }
    if (outcome.kind === 'retry') {
      result.extraDelayMs = outcome.delayMs;
      giveBack(mine, i, returned);
      break;
    }
    if (!conn.open) {
      giveBack(mine, i + 1, returned);
      break;
    }
  }
  return requests;
}

/** The session's pages from `from` on, handed back unfetched. */
function giveBack(mine: PageJob[], from: number, returned: QueuedPage[]): void {
  for (let i = from; i < mine.length; i++) returned.push(mine[i]!);
}

function loadJobs(ctx: CrawlContext, pages: QueuedPage[]): PageJob[] {
  return pages.map((p) => {
    const row = ctx.store.pageForFetch(p.id);
    return { id: p.id, url: row.url, depth: row.depth, redirects: row.redirects, attempts: row.attempts, priority: p.priority };
  });
}

function measure(ctx: CrawlContext, site: SiteState, conn: Connection): void {
  // RequestsPerConnection: what the server said it allows, not what this session asked for.
  site.measureConnection(conn.connectMs, conn.stated ?? null, conn.pipelined === true);
  const row = ctx.sites.row(site);
  row.connections++;
}

/**
 * Fetches robots.txt over the session's connection (following up to five redirects,
 * RFC 9309 §2.3.1.2). 2xx: rules; 4xx: allow all; 5xx or no answer: unavailable.
 * `onConn.requests` counts the requests made over `conn` (against c, as the pages' are).
 */
async function fetchRobots(
  ctx: CrawlContext,
  site: SiteState,
  conn: Connection,
  origin: string,
  result: SessionResult,
  onConn: { requests: number },
): Promise<RobotsStatus> {
  let url = `${origin}/robots.txt`;
  let current = conn;
  let used = 0;
  const extra: Connection[] = [];
  try {
    for (let hop = 0; hop <= MAX_ROBOTS_REDIRECTS; hop++) {
      const u = new URL(url);
      if (u.origin !== new URL(current.origin).origin || !current.open || used >= ctx.settings.c) {
        // A new connection to the site (its server closed the last one after the redirect, or
        // the last one made its c requests: a redirect hop is a request like any other):
        // w after the end of that response, as between any two connections to a site. A
        // redirect to the site's other scheme (http to https) leaves the last one open: it is
        // closed first, one connection to a site at a time (the session's pages then wait).
        if (current.open && new URL(current.origin).hostname === u.hostname) await current.close();
        const wait = ctx.scheduler.connectionGap(site) - (ctx.scheduler.clock.now() - result.endedAt);
        if (wait > 0) await sleep(wait);
        current = await ctx.fetcher.connect(u.origin);
        extra.push(current);
        used = 0;
      }
      let res;
      let cut;
      try {
        used++;
        if (current === conn) onConn.requests++;
        // Its first ROBOTS_READ_BYTES whatever --max-body-size says (RFC 9309 §2.5 reads its first 500 KiB).
        ({ res, cut } = await robotsRequest(current, u.pathname + u.search, ctx.settings.maxBodyBytes));
      } catch (err) {
        if (!(err instanceof CrawlError)) throw err;
        // The session's own connection failing its TLS: the pages carry it, not robots.txt.
        if (current === conn && isTlsCode(err.code)) throw err;
        result.endedAt = ctx.scheduler.clock.now();
        ctx.counters.error(err.code);
        return ctx.robots.record(origin, site.id, { status: null, body: null, unavailable: true });
      }
      result.endedAt = res.endedAt;
      ctx.counters.requests++;
      // A robots.txt cut off is not stored as if whole: its head's length would not be its body's.
      if (ctx.content && !cut) captureRobots(ctx, site.id, url, res);
      const status = res.status;
      if (status >= 300 && status < 400 && typeof res.headers['location'] === 'string') {
        url = new URL(res.headers['location'], url).href;
        continue;
      }
      if (status >= 200 && status < 300) {
        const body = await robotsText(res.body, res.headers['content-encoding']);
        if (body !== null) return ctx.robots.record(origin, site.id, { status, body, unavailable: false });
        // Rules that cannot be read are not no rules: as a robots.txt that could not be fetched.
        ctx.counters.error(ErrorCodes.BAD_ENCODING);
        return ctx.robots.record(origin, site.id, { status, body: null, unavailable: true });
      }
      if (status >= 400 && status < 500 && status !== 429) {
        return ctx.robots.record(origin, site.id, { status, body: null, unavailable: false });
      }
      ctx.counters.error(ErrorCodes.ROBOTS_UNAVAILABLE);
      return ctx.robots.record(origin, site.id, { status, body: null, unavailable: true });
    }
    // Too many redirects: treated as unavailable-but-allowed (RFC 9309 §2.3.1.2).
    return ctx.robots.record(origin, site.id, { status: null, body: null, unavailable: false });
  } finally {
    for (const c of extra) await c.close();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
