/** Plain node:http requests to the loopback test web, with the virtual host in the Host header. */
import http from 'node:http';

export interface Got {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Local port of the client socket: equal ports on one agent mean a reused connection. */
  localPort: number;
}

export interface GetOptions {
  agent?: http.Agent;
  method?: string;
  /** Abort (rejecting with an error whose code is 'TIMEOUT') if nothing completes in time. */
  timeoutMs?: number;
  /** Stop reading after this many body bytes and destroy the request. */
  maxBytes?: number;
  headers?: http.OutgoingHttpHeaders;
}

export function get(port: number, host: string, path: string, opts: GetOptions = {}): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: opts.method ?? 'GET',
        agent: opts.agent ?? false,
        headers: { host: `${host}:${port}`, ...opts.headers },
      },
      (res) => {
        const parts: Buffer[] = [];
        let n = 0;
        res.on('data', (b: Buffer) => {
          parts.push(b);
          n += b.length;
          if (opts.maxBytes !== undefined && n >= opts.maxBytes) {
            req.destroy();
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts), localPort: res.socket?.localPort ?? 0 });
          }
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts), localPort: req.socket?.localPort ?? 0 }),
        );
        res.on('error', reject);
      },
    );
    if (opts.timeoutMs !== undefined) {
      req.setTimeout(opts.timeoutMs, () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    }
    req.on('error', reject);
    req.end();
  });
}

/** hrefs of <a> elements in the well-formed HTML the generator serves. */
export function hrefs(html: string): string[] {
  return [...html.matchAll(/<a\s[^>]*?href="([^"]*)"[^>]*>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
