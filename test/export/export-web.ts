/**
 * A small web on 127.0.0.1 with every kind of answer a WARC export must keep as received:
 * header lines in mixed case, order and repeats, a gzip-encoded page, a chunked page, a
 * redirect, a 404, a 503 that never recovers (the page gives up), two pages with the same
 * body, a robots.txt with rules and one that is missing. Every request's head is kept as the
 * server received it, to compare with the WARC's request records.
 */
import http from 'node:http';
import { gzipSync } from 'node:zlib';

export interface ReceivedRequest {
  host: string;
  path: string;
  /** The request line and header lines as received (CRLF-separated, ending with an empty line). */
  head: string;
}

export const SAME_BODY = '<html><head><title>same</title></head><body>identical bytes on two URLs</body></html>';
export const GZIP_TEXT = `<html><head><title>gzip</title></head><body>${'compressed words '.repeat(200)}<a href="/target">t</a></body></html>`;
export const CHUNKS = ['<html><head><title>chunked</title></head><body>', 'part two of the page ', 'and the end</body></html>'];

export class ExportWeb {
  readonly received: ReceivedRequest[] = [];
  private server: http.Server | null = null;
  port = 0;

  async start(): Promise<number> {
    this.server = http.createServer((req, res) => this.answer(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this.port;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private answer(req: http.IncomingMessage, res: http.ServerResponse): void {
    const host = (req.headers.host ?? '').split(':')[0]!;
    const path = req.url ?? '/';
    const lines = [`${req.method} ${path} HTTP/${req.httpVersion}`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    this.received.push({ host, path, head: lines.join('\r\n') + '\r\n\r\n' });
    const port = this.port;
    const html = (title: string, links: string[]) =>
      `<html><head><title>${title}</title></head><body>${links.map((l) => `<a href="${l}">${l}</a>`).join(' ')}</body></html>`;
    const send = (status: number, raw: string[], body: string | Buffer) => {
      const buf = typeof body === 'string' ? Buffer.from(body) : body;
      res.writeHead(status, [...raw, 'Content-Length', String(buf.length)]);
      res.end(buf);
    };
    if (host === 'a.test') {
      switch (path) {
        case '/robots.txt':
          return send(200, ['Content-Type', 'text/plain'], 'User-agent: *\nDisallow: /private\n');
        case '/':
          // Case, order and repeats as a server may send them: Set-Cookie twice, apart, in two spellings.
          return send(200, ['content-type', 'text/html; charset=utf-8', 'Set-Cookie', 'a=1; Path=/', 'X-Crawlbench-Test', 'one,,,two', 'set-cookie', 'b=2'],
            html('home', ['/gzip', '/chunked', '/redirect', '/missing', '/dup1', '/dup2', '/flaky', '/private', `http://b.test:${port}/`]));
        case '/gzip':
          return send(200, ['Content-Type', 'text/html', 'Content-Encoding', 'gzip', 'Vary', 'Accept-Encoding'], gzipSync(GZIP_TEXT));
        case '/chunked': {
          res.writeHead(200, ['Content-Type', 'text/html']);
          for (const c of CHUNKS) res.write(c);
          res.end();
          return;
        }
        case '/redirect':
          return send(301, ['Location', '/target', 'Content-Type', 'text/html'], '<a href="/target">moved</a>');
        case '/target':
          return send(200, ['Content-Type', 'text/html'], html('target', ['/']));
        case '/missing':
          return send(404, ['Content-Type', 'text/html'], '<html><body>not here</body></html>');
        case '/dup1':
        case '/dup2':
          return send(200, ['Content-Type', 'text/html'], SAME_BODY);
        case '/flaky':
          return send(503, ['Content-Type', 'text/plain', 'Retry-After', '0'], 'try later');
      }
    }
    if (host === 'b.test') {
      if (path === '/robots.txt') return send(404, ['Content-Type', 'text/plain'], 'no robots here');
      if (path === '/') return send(200, ['Content-Type', 'text/html'], html('b home', [`http://a.test:${port}/dup1`]));
    }
    send(404, ['Content-Type', 'text/plain'], 'not found');
  }
}
