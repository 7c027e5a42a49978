import type { SiteState } from '../scheduler/site-state.js';
import { numberParam } from './params.js';

/**
 * The server-level formulas of the crawl-ability paper (Cao, Jiang, Singh; docs/design.md
 * section 3.4), on the EWMA estimates a SiteState keeps:
 *   P(s) = min(RequestsPerConnection(s), pending URLs of s, c)
 *   T(s) = 2*ConnectionTime(s) + P(s)*ResponseTime(s)/p, p only for a server measured to
 *          pipeline (a pipelined exchange with it succeeded), 1 for the others
 * RequestsPerConnection is what the server said it allows (SiteState.requestsPerConn); c caps
 * P because the scheduler takes no more than c pages over a connection whatever P says.
 *   performance R(s) = P(s)/T(s); crawl-ability C(s) = (quality of the next P(s) URLs)/T(s)
 * A server whose response time is not measured yet has no T: it ranks above every measured
 * one (Infinity; equal ranks fall back to the older pending page), so that each server gets
 * a first connection and a measurement.
 */
export interface ServerModel {
  /** Pipelining saving p (default 1.2). */
  p: number;
  /** RequestsPerConnection of a server not yet measured (default 50). */
  requestsPerConnection: number;
  /** EWMA weight of the old estimate (default 0.8). */
  alpha: number;
}

export function serverModel(params: Record<string, unknown>): ServerModel {
  return {
    p: numberParam(params, 'p', 1.2, Number.MIN_VALUE),
    requestsPerConnection: numberParam(params, 'requestsPerConnection', 50, 1),
    alpha: numberParam(params, 'alpha', 0.8, 0, 1),
  };
}

/** Applies the model's alpha to a site's EWMAs (before it is first measured). */
export function adopt(site: SiteState, m: ServerModel): void {
  if (site.ewmaAlpha !== m.alpha) site.ewmaAlpha = m.alpha;
}

/** P(s): pages worth taking over one connection (a whole number, at least 1), at most c. */
export function pagesP(site: SiteState, m: ServerModel, c = Infinity): number {
  const rpc = site.requestsPerConn ?? m.requestsPerConnection;
  return Math.max(1, Math.min(Math.round(rpc), site.pending, c));
}

/** T(s) in ms for P pages, or null while the server's response time is unknown. */
export function timeT(site: SiteState, P: number, m: ServerModel): number | null {
  if (site.responseMs === null) return null;
  return 2 * (site.connectMs ?? 0) + (P * site.responseMs) / (site.pipelines ? m.p : 1);
}

/** Smallest T used as a divisor (a server measured at 0 ms is fast, not infinitely so). */
const MIN_T = 1e-3;

export function performanceRank(site: SiteState, m: ServerModel, c = Infinity): number {
  const P = pagesP(site, m, c);
  const T = timeT(site, P, m);
  return T === null ? Infinity : P / Math.max(T, MIN_T);
}

/** C(s): summed priority (quality) of the site's next P pending pages, per ms of T. */
export function crawlabilityRank(site: SiteState, m: ServerModel, c = Infinity): number {
  const P = pagesP(site, m, c);
  const T = timeT(site, P, m);
  if (T === null) return Infinity;
  let quality = 0;
  for (const q of site.queue.topPriorities(P)) quality += q;
  return quality / Math.max(T, MIN_T);
}
