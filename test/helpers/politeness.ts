import type { ConnRecord, ServedRequest } from '../../core/testweb/server.js';

export interface PolitenessRules {
  /** Minimum wait between connections to one host, ms. */
  w: number;
  /** Maximum requests over one connection. */
  c: number;
  /** Per-host minimum wait overriding w (Crawl-delay). */
  wFor?: (host: string) => number;
}

/**
 * Reads the test web's own log (the server's side of every connection) and lists every
 * breach of design.md's politeness rules: two connections to one site open at once, less
 * than w between the end of one connection's last response and the next connection's
 * first request, more than c requests over one connection.
 */
export function politenessViolations(requests: readonly ServedRequest[], connections: ReadonlyMap<number, ConnRecord>, rules: PolitenessRules): string[] {
  const out: string[] = [];
  const byConn = new Map<number, ServedRequest[]>();
  for (const r of requests) {
    let list = byConn.get(r.connId);
    if (!list) byConn.set(r.connId, (list = []));
    list.push(r);
  }
  const byHost = new Map<string, Array<{ id: number; first: number; last: number; opened: number; closed: number; n: number }>>();
  for (const [id, reqs] of byConn) {
    const conn = connections.get(id);
    const host = reqs[0]!.host;
    if (reqs.length > rules.c) out.push(`${host}: ${reqs.length} requests over connection ${id} (c = ${rules.c})`);
    const entry = {
      id,
      first: Math.min(...reqs.map((r) => r.t)),
      last: Math.max(...reqs.map((r) => r.tEnd)),
      opened: conn?.openedAt ?? Math.min(...reqs.map((r) => r.t)),
      closed: conn?.closedAt ?? Infinity,
      n: reqs.length,
    };
    let list = byHost.get(host);
    if (!list) byHost.set(host, (list = []));
    list.push(entry);
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
