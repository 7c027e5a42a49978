/**
 * Browser mode: the built renderer and the API (HTTP POST /api/call and WebSocket /api) on
 * 127.0.0.1 only, behind the token printed at start. The rules, in order:
 * - Every request (and every WebSocket upgrade) must name this server in its Host header,
 *   127.0.0.1:PORT or localhost:PORT, else 403: this defeats DNS rebinding.
 * - POST /api/call takes no cookie-borne authority. A browser sends the session cookie with any
 *   page's request to any port of this host (cookies ignore ports, so SameSite=Strict does not
 *   help against a page on another local port), and a `no-cors` text/plain POST needs no
 *   preflight. So /api/call refuses (403) an Origin header that is not this server's own
 *   origin and a Sec-Fetch-Site other than same-origin or none (another port is same-site);
 *   wants the token in `Authorization: Bearer` (not ?token=, not the cookie; else 401); only
 *   POST (405); and only `Content-Type: application/json` (else 415), which a page can send
 *   cross-origin only after a CORS preflight, which this server never approves.
 * - The WebSocket /api (ws-server.ts) checks Host and Origin the same way, then the token
 *   (?token= or the cookie; browsers always send Origin on a socket, so the cookie is safe there).
 * - Static files take the token from ?token= or the cookie (the first page load carries
 *   ?token= and gets it back as an HttpOnly SameSite=Strict cookie); GET and HEAD only (405).
 * - Finished exports are downloaded from GET /exports/ID/FILE under the same rules as static
 *   files (token from ?token= or the cookie), as attachments; a file still being written (a
 *   `.partial` name) or a path leaving the exports folder is not found.
 * - An unparsable request target or a malformed percent-encoded path gets 400.
 * - No request takes the server down (issue 23): a call over the size of one message
 *   (limits.ts) gets 413 (over HTTP) or closes its own socket with 1009 (ws-server.ts); an
 *   error a method did not mean is logged with the method's name and answered as
 *   CRAWL_INTERNAL (rpc-server.ts); `crawlbench serve` logs what fails outside any request
 *   and serves on (keepServing).
 * The CSP allows nothing but this origin, and no framing.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { basename, extname, join, normalize, sep } from 'node:path';
import type { CrawlbenchApi } from './contract.js';
import { API_LIMITS, sizeInWords } from './limits.js';
import { dispatch } from './rpc-server.js';
import { isRpcMessage } from './rpc.js';
import { bearerToken, foreignRequest, newToken, requestAuthorized, requestToken, tokenMatches, TOKEN_COOKIE } from './token.js';
import { attachWebSocketApi } from './ws-server.js';

export interface BrowserServerOptions {
  api: CrawlbenchApi;
  /** The vite build output (index.html + assets/). */
  staticDir: string;
  /** The workspace's exports folder, whose finished files are downloadable under /exports/. */
  exportsDir?: string;
  port?: number;
  token?: string;
  /** Told of internal errors and socket errors, one line each (default: stderr, `crawlbench serve: ...`). */
  log?: (line: string) => void;
}

export interface BrowserServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export function contentSecurityPolicy(port: number): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** What the handlers need; `port` is known once the server listens. */
interface Served {
  api: CrawlbenchApi;
  staticDir: string;
  exportsDir: string | null;
  token: string;
  port: number;
  log: (line: string) => void;
}

/** The Host headers that name this server. */
function hostsOf(s: Served): string[] {
  return [`127.0.0.1:${s.port}`, `localhost:${s.port}`];
}

function originsOf(s: Served): string[] {
  return hostsOf(s).map((h) => `http://${h}`);
}

export async function startBrowserServer(opts: BrowserServerOptions): Promise<BrowserServer> {
  const log = opts.log ?? serveLog;
  const served: Served = { api: opts.api, staticDir: opts.staticDir, exportsDir: opts.exportsDir ?? null, token: opts.token ?? newToken(), port: 0, log };
  const server = http.createServer((req, res) => {
    handle(served, req, res).catch((err: Error) => {
      log(`internal error in ${req.method} ${(req.url ?? '').split('?')[0]}: ${err?.message ?? String(err)}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`internal error: ${err?.message ?? String(err)}\n`);
    });
  });
  const ws = attachWebSocketApi(server, opts.api, {
    token: served.token,
    allowedOrigins: () => originsOf(served),
    allowedHosts: () => hostsOf(served),
    log,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (served.port = (server.address() as { port: number }).port);
  return {
    url: `http://127.0.0.1:${port}/?token=${served.token}`,
    port,
    token: served.token,
    close: () =>
      new Promise<void>((resolve) => {
        ws.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(s: Served, req: IncomingMessage, res: ServerResponse): Promise<void> {
  res.setHeader('Content-Security-Policy', contentSecurityPolicy(s.port));
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cache-Control', 'no-store');
  if (!hostsOf(s).includes(req.headers.host ?? '')) return text(res, 403, 'wrong Host header\n');
  let url: URL;
  try {
    url = new URL(req.url ?? '/', 'http://127.0.0.1');
  } catch {
    return text(res, 400, 'bad request target\n');
  }
  if (url.pathname === '/api/call') return apiCall(s, req, res);
  if (!requestAuthorized(req, s.token)) return text(res, 401, 'crawlbench: open the URL (with ?token=) printed by `crawlbench serve`\n');
  if (url.searchParams.has('token')) {
    res.setHeader('Set-Cookie', `${TOKEN_COOKIE}=${requestToken(req)}; HttpOnly; SameSite=Strict; Path=/`);
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') return text(res, 405, 'method not allowed\n');
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return text(res, 400, 'malformed percent-encoding in the path\n');
  }
  if (path.startsWith('/exports/')) return serveExport(res, s.exportsDir, path.slice('/exports/'.length));
  return serveStatic(res, s.staticDir, path);
}

/** A finished export's file, as an attachment; `rel` is already percent-decoded. */
function serveExport(res: ServerResponse, dir: string | null, rel: string): void {
  const file = dir ? join(dir, normalize(rel)) : '';
  const name = basename(file);
  if (!dir || !file.startsWith(dir + sep) || name.startsWith('.') || name.includes('.partial') || !existsSync(file) || !statSync(file).isFile()) {
    return text(res, 404, 'no such export file\n');
  }
  res.writeHead(200, {
    'content-type': 'application/octet-stream',
    'content-length': statSync(file).size,
    'content-disposition': `attachment; filename="${name.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
  });
  sendFile(res, file);
}

async function apiCall(s: Served, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const foreign = foreignRequest(req, originsOf(s));
  if (foreign) return text(res, 403, `crawlbench: the API answers only its own page (${foreign})\n`);
  if (!tokenMatches(bearerToken(req), s.token)) return text(res, 401, 'crawlbench: /api/call wants the token in an `Authorization: Bearer` header\n');
  if (req.method !== 'POST') return text(res, 405, 'POST a call message\n');
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') return text(res, 415, 'crawlbench: /api/call wants Content-Type: application/json\n');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > API_LIMITS.messageBytes) return text(res, 413, `crawlbench: one call can be at most ${sizeInWords(API_LIMITS.messageBytes)}\n`);
    chunks.push(c as Buffer);
  }
  let msg: unknown;
  try {
    msg = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return text(res, 400, 'not JSON\n');
  }
  if (!isRpcMessage(msg)) return text(res, 400, 'not a call message\n');
  const reply = await dispatch(s.api, msg, { log: s.log });
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(reply));
}

/** A file as the body; a read that fails (the file gone meanwhile) ends this response only. */
function sendFile(res: ServerResponse, file: string): void {
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
}

/** One line on stderr, as `crawlbench serve` says things. */
function serveLog(line: string): void {
  process.stderr.write(`crawlbench serve: ${line}\n`);
}

/**
 * What `crawlbench serve` does with an error no request caught (a timer's, a stream's, a
 * promise nobody awaited): logs it in one line and serves on, where Node would end the
 * process and every socket with it. The crawls are safe either way (each runs in its own
 * process); SIGINT and SIGTERM still pause them cleanly. Returns the function that removes it.
 */
export function keepServing(log: (line: string) => void = serveLog): () => void {
  const say = (what: string) => (err: unknown) => {
    const message = (err instanceof Error ? err.message : String(err)).split('\n', 1)[0];
    const where = err instanceof Error ? err.stack?.split('\n').find((l) => /^\s+at /.test(l))?.trim() : undefined;
    try {
      log(`${what} outside any request, serving on: ${message}${where ? ` (${where})` : ''}`);
    } catch {
      // Nothing left to tell.
    }
  };
  const onException = say('uncaught error');
  const onRejection = say('unhandled rejection');
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return () => {
    process.off('uncaughtException', onException);
    process.off('unhandledRejection', onRejection);
  };
}

function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(body);
}

/** `path` is the request's path, already percent-decoded. */
function serveStatic(res: ServerResponse, root: string, path: string): void {
  const rel = normalize(path === '/' ? '/index.html' : path).replace(/^([/\\])+/, '');
  const file = join(root, rel);
  if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) {
    if (!existsSync(join(root, 'index.html'))) return text(res, 404, `renderer not built: run \`npm run build:renderer\` (looked in ${root})\n`);
    return text(res, 404, 'not found\n');
  }
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
  sendFile(res, file);
}
