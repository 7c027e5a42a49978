import type { ConnRecord, ServedRequest } from './request-log.js';

export interface PolitenessRules {
  /** Minimum wait between connections to one host, ms. */
  w: number;
  /** Maximum requests over one connection. */
  c: number;
  /** Per-host minimum wait overriding w (Crawl-delay). */
  wFor?: (host: string) => number;
}

/** What the checker needs of a request (ServedRequest has it; so does a parsed NDJSON log line). */
export type LoggedRequest = Pick<ServedRequest, 't' | 'tEnd' | 'host' | 'connId'>;

/**
 * Reads the test web's own log (the server's side of every connection) and lists every
 * breach of the politeness rules of docs/design.md section 2: two connections to one site
 * open at once, less than w between the end of one connection's last response and the next
 * connection's first request, more than c requests over one connection. `connections` may be
 * empty (the NDJSON log of `crawlbench testweb` has requests only): a connection then spans
 * its first request to its last response. Linear in the log; fine for millions of requests.
 */
export function politenessViolations(
  requests: Iterable<LoggedRequest>,
  connections: ReadonlyMap<number, ConnRecord>,
  rules: PolitenessRules,
): string[] {
  const out: string[] = [];
  const byConn = new Map<number, { host: string; first: number; last: number; n: number }>();
  for (const r of requests) {
    const e = byConn.get(r.connId);
    if (!e) byConn.set(r.connId, { host: r.host, first: r.t, last: r.tEnd, n: 1 });
    else {
      if (r.t < e.first) e.first = r.t;
      if (r.tEnd > e.last) e.last = r.tEnd;
      e.n++;
    }
  }
  const byHost = new Map<string, Array<{ id: number; first: number; last: number; opened: number; closed: number }>>();
  for (const [id, e] of byConn) {
    if (e.n > rules.c) out.push(`${e.host}: ${e.n} requests over connection ${id} (c = ${rules.c})`);
    const conn = connections.get(id);
    let list = byHost.get(e.host);
    if (!list) byHost.set(e.host, (list = []));
    list.push({ id, first: e.first, last: e.last, opened: conn?.openedAt ?? e.first, closed: conn?.closedAt ?? Infinity });
  }
  for (const [host, conns] of byHost) {
    conns.sort((a, b) => a.first - b.first);
    const w = rules.wFor?.(host) ?? rules.w;
    for (let i = 1; i < conns.length; i++) {
      const prev = conns[i - 1]!;
      const cur = conns[i]!;
      if (cur.opened < prev.closed && cur.first < prev.last) {
        out.push(`${host}: connections ${prev.id} and ${cur.id} open at the same time`);
      }
      const gap = cur.first - prev.last;
      // 1 ms of slack for timer rounding between two clocks read on different sides.
      if (gap < w - 1) out.push(`${host}: only ${gap.toFixed(1)} ms between connections ${prev.id} and ${cur.id} (w = ${w})`);
    }
  }
  return out;
}
