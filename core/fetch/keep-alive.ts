/**
 * What a server says about one connection, read from its responses in order (docs/design.md
 * section 3.4, the crawl-ability paper's RequestsPerConnection and pipelining):
 *  - `Connection: close` on the k-th response: the server allows k requests over it;
 *  - `Keep-Alive: max=N` on the k-th response: N more after it (RFC 2068 section 19.7.1.1,
 *    as Apache counts: MaxKeepAliveRequests 100 says max=100 on the first of 101), so k + N;
 *  - a response to a request sent before the previous response was complete (a pipelined
 *    request), received in full: the server pipelines.
 */
export class ConnectionStatement {
  /** Complete responses so far. */
  answered = 0;
  /** Requests the server allows over the connection, as it last said; null if it said nothing. */
  allowed: number | null = null;
  pipelined = false;

  /** Notes one complete response; true when the server closes the connection after it. */
  answer(headers: Record<string, string | string[] | undefined>, overlapped: boolean): boolean {
    this.answered++;
    if (overlapped) this.pipelined = true;
    const closes = headerTokens(headers['connection']).includes('close');
    if (closes) {
      this.allowed = this.answered;
      return true;
    }
    const max = keepAliveMax(headers['keep-alive']);
    if (max !== null) this.allowed = this.answered + max;
    return false;
  }
}

/** The max parameter of a Keep-Alive header ("timeout=5, max=100"), or null. */
export function keepAliveMax(value: string | string[] | undefined): number | null {
  for (const part of [value ?? []].flat().join(',').split(',')) {
    const m = /^\s*max\s*=\s*"?(\d{1,9})"?\s*$/i.exec(part);
    if (m) return Number(m[1]);
  }
  return null;
}

function headerTokens(value: string | string[] | undefined): string[] {
  return [value ?? []]
    .flat()
    .join(',')
    .split(',')
    .map((t) => t.trim().toLowerCase());
}
