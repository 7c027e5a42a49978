/**
 * What a crawl learns of its sites' schemes and certificates (issue 26), and what it does
 * with an origin whose TLS connections fail.
 *
 * Each session notes the scheme it reaches its site over (sites.schemes) and, over https,
 * the certificate as found (sites.tls): 'ok' or the problem's code. Under --tls record a
 * broken certificate is only noted: the pages are fetched. Under --tls verify, or when the
 * handshake itself fails, the session's pages fail with the code; a code that is not retried
 * (all but the handshake timeout, which is, until maxAttempts) marks the origin as refused for
 * the rest of the run, so its other pages fail with it without another connection. A resumed
 * crawl tries the origin again once.
 */
import { TLS_CODES } from '../errors.js';
import type { TlsOutcome } from '../fetch/connector.js';
import type { QueuedPage } from '../scheduler/scheduler.js';
import type { SiteState } from '../scheduler/site-state.js';
import type { CrawlContext } from './context.js';
import { failAttempt, type PageJob } from './page-processor.js';

const SCHEME_BITS: Readonly<Record<string, number>> = { 'http:': 1, 'https:': 2 };

/** Origins refused this run, with the code their pages fail with. */
const refusedByCrawl = new WeakMap<CrawlContext, Map<string, string>>();

function refused(ctx: CrawlContext): Map<string, string> {
  let map = refusedByCrawl.get(ctx);
  if (!map) refusedByCrawl.set(ctx, (map = new Map()));
  return map;
}

/** The code an origin was refused with this run, if it was. */
export function refusedWith(ctx: CrawlContext, origin: string): string | undefined {
  return refusedByCrawl.get(ctx)?.get(origin);
}

export function isTlsCode(code: string): boolean {
  return TLS_CODES.has(code);
}

/** The site is reached over this origin's scheme. */
export function noteScheme(ctx: CrawlContext, site: SiteState, origin: string): void {
  const bit = SCHEME_BITS[origin.slice(0, origin.indexOf('//'))] ?? 0;
  const row = ctx.sites.row(site);
  if ((row.schemes & bit) === 0) row.schemes |= bit;
}

/**
 * The certificate a connection found. A resumed session that found nothing wrong says nothing
 * new of a site already noted: the host name is checked on a full handshake only.
 */
export function noteCertificate(ctx: CrawlContext, site: SiteState, outcome: TlsOutcome): void {
  const row = ctx.sites.row(site);
  if (outcome.reused && outcome.certificate === 'ok' && row.tls !== null) return;
  row.tls = outcome.certificate;
}

/**
 * The session's pages of an origin whose TLS connection failed with `code`: the first carries
 * the attempt (a handshake timeout is retried with backoff, all pages handed back); once it
 * fails for good, the origin is refused and every page fails with the code.
 */
export function failOrigin(
  ctx: CrawlContext,
  site: SiteState,
  origin: string,
  jobs: PageJob[],
  code: string,
  result: { returned: QueuedPage[]; extraDelayMs: number },
): void {
  ctx.sites.row(site).tls = code;
  const refusals = refused(ctx);
  let rest = jobs;
  if (!refusals.has(origin)) {
    const first = jobs[0];
    if (!first) return;
    const outcome = failAttempt(ctx, site, first, code);
    if (outcome.kind === 'retry') {
      result.extraDelayMs = outcome.delayMs;
      result.returned.push(...jobs);
      return;
    }
    refusals.set(origin, code);
    rest = jobs.slice(1);
  }
  for (const job of rest) failForGood(ctx, site, job, code);
}

/** A page failed with `code` without a request of its own (its origin refused). */
function failForGood(ctx: CrawlContext, site: SiteState, job: PageJob, code: string): void {
  ctx.counters.error(code);
  const row = ctx.sites.row(site);
  row.errors++;
  row.pages_failed++;
  site.consecutiveErrors++;
  ctx.store.finishPage(job.id, 'failed', code, job.attempts + 1);
}
