import { CrawlError, ErrorCodes } from '../errors.js';
import type { Connection, FetchResponse } from '../fetch/interfaces.js';
import type { RobotsRules } from '../robots/robots.js';
import type { SiteState } from '../scheduler/site-state.js';
import type { CrawlContext } from './context.js';
import { conditionalHeaders } from '../store/history-pages.js';
import { failAttempt, processResponse, type Outcome, type PageJob } from './page-processor.js';
import type { SessionResult } from './session-result.js';
import { failOrigin, isTlsCode } from './tls-sites.js';

interface Sent {
  job: PageJob;
  /** Its place among the connection's requests (1 = the first). */
  nth: number;
  conditional: boolean;
  reply: Promise<FetchResponse | CrawlError>;
}

/**
 * The page loop with HTTP/1.1 pipelining (--pipelining-depth N, docs/design.md section 3.4):
 * up to N requests out over the one connection before their responses, answered in order and
 * processed in order. Never more than c requests in all (robots.txt counts), never past what
 * the server said it allows (on this connection, else on its last ones), never after it ended keep-alive; requests
 * already out when the server closes fail and their pages go back to the scheduler, as do
 * the pages not sent. Returns the requests made over the connection.
 */
export async function pipelinedLoop(
  ctx: CrawlContext,
  site: SiteState,
  conn: Connection,
  rules: RobotsRules,
  mine: PageJob[],
  requests: number,
  result: SessionResult,
  stopping: () => boolean,
): Promise<number> {
  const depth = ctx.settings.pipeliningDepth;
  const out: Sent[] = [];
  let next = 0;
  let broken = false;
  // What the server said on this connection, else on its earlier ones: requests sent past it would be lost.
  const allowed = () => conn.stated ?? (site.requestsPerConn !== null ? Math.max(1, Math.round(site.requestsPerConn)) : Infinity);
  const send = () => {
    while (!broken && out.length < depth && next < mine.length) {
      const job = mine[next]!;
      if (!rules.isAllowed(job.url)) {
        ctx.store.finishPage(job.id, 'disallowed', ErrorCodes.ROBOTS_DISALLOWED, job.attempts);
        ctx.counters.bump('skipped:' + ErrorCodes.ROBOTS_DISALLOWED);
        next++;
        continue;
      }
      if (stopping() || !conn.open || requests >= ctx.settings.c || requests >= allowed()) return;
      next++;
      requests++;
      const u = new URL(job.url);
      const validators = ctx.history?.validators(job.url) ?? null;
      const reply = conn.request(u.pathname + u.search, validators ? conditionalHeaders(validators) : undefined).catch((err: unknown) => {
        if (err instanceof CrawlError) return err;
        throw err;
      });
      out.push({ job, nth: requests, conditional: validators !== null, reply });
    }
  };
  send();
  for (let sent = out.shift(); sent; sent = out.shift()) {
    const reply = await sent.reply;
    if (broken) {
      // After the loop stopped: an answer that came is a fetched page, a failure goes back.
      if (reply instanceof CrawlError) result.returned.push(sent.job);
      else settle(ctx, site, sent.job, reply, sent.conditional, result);
      continue;
    }
    if (reply instanceof CrawlError && isTlsCode(reply.code)) {
      // The connection's TLS failed, and with it every page left.
      result.endedAt = ctx.scheduler.clock.now();
      failOrigin(ctx, site, conn.origin, [sent.job, ...out.map((o) => o.job), ...mine.slice(next)], reply.code, result);
      return requests;
    }
    if (!handle(ctx, site, conn, sent, reply, result)) {
      broken = true;
      result.returned.push(...mine.slice(next));
      next = mine.length;
    } else send();
  }
  result.returned.push(...mine.slice(next));
  return requests;
}

/** One reply in order: stored or failed; false when the loop must stop. */
function handle(ctx: CrawlContext, site: SiteState, conn: Connection, sent: Sent, reply: FetchResponse | CrawlError, result: SessionResult): boolean {
  if (!(reply instanceof CrawlError)) return settle(ctx, site, sent.job, reply, sent.conditional, result) && conn.open;
  result.endedAt = Math.max(result.endedAt, ctx.scheduler.clock.now());
  if (sent.nth > 1 && reply.code === ErrorCodes.CONNECTION_RESET) {
    // The server closed a kept-alive connection before this request: not the page's fault.
    result.returned.push(sent.job);
    return false;
  }
  const outcome = failAttempt(ctx, site, sent.job, reply.code);
  if (outcome.kind !== 'retry') return conn.open;
  result.extraDelayMs = Math.max(result.extraDelayMs, outcome.delayMs);
  result.returned.push(sent.job);
  return false;
}

/** A response stored; false when its page is to be tried again later (it went back). */
function settle(ctx: CrawlContext, site: SiteState, job: PageJob, res: FetchResponse, conditional: boolean, result: SessionResult): boolean {
  result.endedAt = Math.max(result.endedAt, res.endedAt);
  const outcome: Outcome = processResponse(ctx, site, job, res, conditional);
  if (outcome.kind !== 'retry') return true;
  result.extraDelayMs = Math.max(result.extraDelayMs, outcome.delayMs);
  result.returned.push(job);
  return false;
}
