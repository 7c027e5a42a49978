import type { LoggedRequest } from '../../core/testweb/politeness-check.js';

/** What the bound needs to know of a site besides its requests. */
export interface SiteLimits {
  /** Requests the server allows per connection (min with c gives pages per connection). */
  keepAliveMax: number;
}

export interface BoundParams {
  w: number;
  c: number;
  r: number;
  /** Extra wait after a connection whose robots.txt answered 5xx (--robots-retry). */
  robotsRetry: number;
}

export interface Bound {
  /** The crawl cannot end sooner than this after `from` (ms). */
  boundMs: number;
  /** The longest per-site chain and its site. */
  chainMs: number;
  chainHost: string;
  /** Total service time / r. */
  workMs: number;
  /** What the crawl took from `from` to its last response (ms). */
  actualMs: number;
  /** boundMs / actualMs: 1 = as fast as politeness allows. */
  ratio: number;
  requests: number;
  sites: number;
}

/**
 * The lower bound on crawl time that politeness allows (docs/design.md section 2), computed from
 * the server's log of the crawl: each request costs what the server took to answer it (the
 * site's latency and transfer; loopback connects are free, which only lowers the bound).
 *
 * - Per site, with n requests (robots.txt included) and at most k = min(c, keep-alive max)
 *   per connection, at least ceil(n/k) connections are needed, one after another, with w
 *   between them; a robots.txt answered 5xx ends its connection and adds --robots-retry.
 *   The site's chain = its service time + (connections - 1) * w + failed robots * retry.
 * - All sites together hold at most r connections at a time: total service time / r.
 * The bound is the larger of the longest chain and total work / r.
 *
 * `from` restricts everything to requests that started at or after it (the tail of a crawl):
 * a site then also cannot start before its previous connection ended plus w.
 */
export function politenessBound(
  requests: readonly LoggedRequest[],
  isRobotsFailure: (r: LoggedRequest) => boolean,
  limits: (host: string) => SiteLimits | undefined,
  p: BoundParams,
  from = -Infinity,
): Bound {
  interface S { n: number; busy: number; robotsFail: number; firstConn: number; prevEnd: number; }
  const sites = new Map<string, S>();
  let start = Infinity;
  let end = -Infinity;
  let total = 0;
  let count = 0;
  // First pass: what each site did after `from`, and which connection it began with.
  for (const r of requests) {
    if (r.t < from) continue;
    let s = sites.get(r.host);
    if (!s) sites.set(r.host, (s = { n: 0, busy: 0, robotsFail: 0, firstConn: r.connId, prevEnd: -Infinity }));
    s.n++;
    s.busy += r.tEnd - r.t;
    if (isRobotsFailure(r)) s.robotsFail++;
    total += r.tEnd - r.t;
    count++;
    if (r.t < start) start = r.t;
    if (r.tEnd > end) end = r.tEnd;
  }
  if (count === 0) return { boundMs: 0, chainMs: 0, chainHost: '', workMs: 0, actualMs: 0, ratio: 1, requests: 0, sites: 0 };
  const origin = Number.isFinite(from) ? from : start;
  // Second pass (tail only): a site's earliest start is w after its last earlier connection.
  if (Number.isFinite(from)) {
    for (const r of requests) {
      if (r.t >= from) continue;
      const s = sites.get(r.host);
      if (s && r.connId !== s.firstConn && r.tEnd > s.prevEnd) s.prevEnd = r.tEnd;
    }
  }
  let chainMs = 0;
  let chainHost = '';
  for (const [host, s] of sites) {
    const k = Math.max(1, Math.min(p.c, limits(host)?.keepAliveMax ?? p.c));
    const pageRequests = s.n - s.robotsFail;
    const conns = s.robotsFail + Math.ceil(pageRequests / k);
    const earliest = Math.max(0, s.prevEnd + p.w - origin);
    const chain = earliest + s.busy + Math.max(0, conns - 1) * p.w + s.robotsFail * p.robotsRetry - (pageRequests === 0 ? p.robotsRetry : 0) * Math.min(1, s.robotsFail);
    if (chain > chainMs) {
      chainMs = chain;
      chainHost = host;
    }
  }
  const workMs = total / p.r;
  const boundMs = Math.max(chainMs, workMs);
  const actualMs = end - origin;
  return { boundMs, chainMs, chainHost, workMs, actualMs, ratio: actualMs > 0 ? boundMs / actualMs : 1, requests: count, sites: sites.size };
}

export interface ChainLoss {
  host: string;
  connections: number;
  requests: number;
  /** Server time answering the site's requests. */
  serviceMs: number;
  /** Between a response and the next request on the same connection (the crawler's turnaround). */
  insideMs: number;
  /** Between connections beyond w (scheduler wake-up, connect, loading the session's pages). */
  betweenBeyondWMs: number;
  /** Median and 90th percentile of the gap between connections, ms. */
  gapP50: number;
  gapP90: number;
}

/** Where one site's chain lost time against the bound, from `from` on (server's view). */
export function chainLoss(requests: readonly LoggedRequest[], host: string, w: number, from = -Infinity): ChainLoss {
  const mine = requests.filter((r) => r.host === host && r.t >= from).sort((a, b) => a.t - b.t);
  const conns = new Map<number, LoggedRequest[]>();
  let serviceMs = 0;
  for (const r of mine) {
    serviceMs += r.tEnd - r.t;
    let list = conns.get(r.connId);
    if (!list) conns.set(r.connId, (list = []));
    list.push(r);
  }
  let insideMs = 0;
  const spans: Array<{ first: number; last: number }> = [];
  for (const list of conns.values()) {
    for (let i = 1; i < list.length; i++) insideMs += Math.max(0, list[i]!.t - list[i - 1]!.tEnd);
    spans.push({ first: list[0]!.t, last: list.at(-1)!.tEnd });
  }
  spans.sort((a, b) => a.first - b.first);
  const gaps: number[] = [];
  for (let i = 1; i < spans.length; i++) gaps.push(spans[i]!.first - spans[i - 1]!.last);
  gaps.sort((a, b) => a - b);
  const q = (p: number) => (gaps.length ? gaps[Math.floor(p * (gaps.length - 1))]! : 0);
  return {
    host,
    connections: conns.size,
    requests: mine.length,
    serviceMs,
    insideMs,
    betweenBeyondWMs: gaps.reduce((n, g) => n + Math.max(0, g - w), 0),
    gapP50: q(0.5),
    gapP90: q(0.9),
  };
}
