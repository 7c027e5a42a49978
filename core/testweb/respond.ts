/**
 * Response helpers shared by the page server and the fault sites: latency before headers and
 * bandwidth pacing of bodies, both scaled by the server's timeFactor, with every timer dropped
 * when the connection closes (so stop() never leaves work behind).
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { now, type ServedRequest } from './request-log.js';
import type { SiteInfo } from './web.js';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  site: SiteInfo;
  host: string;
  /** Path and query as requested. */
  path: string;
  /** The server's port, for absolute links. */
  port: number;
  /** Multiplies latencies and transfer times; 0 = no waiting at all. */
  timeFactor: number;
  /** The request's log record; helpers add body bytes to it. */
  entry: ServedRequest;
  head: boolean;
}

/** Runs fn after ms (already scaled) unless the connection closes first. */
export function later(ctx: Ctx, ms: number, fn: () => void): void {
  if (ms <= 0) return fn();
  const timer = setTimeout(fn, ms);
  ctx.res.once('close', () => clearTimeout(timer));
}

export function scaled(ctx: Ctx, ms: number): number {
  return ms * ctx.timeFactor;
}

/** Sends a whole response, paced to the site's bandwidth when it has one. */
export function send(ctx: Ctx, status: number, headers: OutgoingHttpHeaders, body: Buffer | string): void {
  const { res } = ctx;
  if (res.destroyed) return;
  const buf = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(status, { 'content-length': buf.length, ...headers });
  if (ctx.head || buf.length === 0) {
    res.end();
    return;
  }
  const bps = ctx.site.bytesPerSec > 0 && ctx.timeFactor > 0 ? ctx.site.bytesPerSec / ctx.timeFactor : 0;
  if (bps === 0) {
    ctx.entry.bytes += buf.length;
    res.end(buf);
    return;
  }
  // Pace against an absolute schedule (start + bytes/bps) so timer lateness does not add up.
  const chunk = Math.max(1024, Math.floor(bps / 20));
  const start = now();
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  res.once('close', () => clearTimeout(timer));
  const step = (): void => {
    while (sent < buf.length) {
      if (res.destroyed) return;
      // A piece goes out when the link would have finished carrying it: n bytes take n/bps.
      const wait = start + ((sent + Math.min(chunk, buf.length - sent)) / bps) * 1000 - now();
      if (wait > 0.5) {
        timer = setTimeout(step, wait);
        return;
      }
      const piece = buf.subarray(sent, sent + chunk);
      sent += piece.length;
      ctx.entry.bytes += piece.length;
      if (!res.write(piece)) {
        res.once('drain', step);
        return;
      }
    }
    res.end();
  };
  step();
}

export function sendHtml(ctx: Ctx, status: number, html: string, headers: OutgoingHttpHeaders = {}): void {
  send(ctx, status, { 'content-type': 'text/html; charset=utf-8', ...headers }, html);
}

export function notFound(ctx: Ctx): void {
  sendHtml(ctx, 404, '<!doctype html><html><head><title>Not found</title></head><body><h1>404 Not found</h1></body></html>\n');
}

export function redirect(ctx: Ctx, status: number, location: string): void {
  send(ctx, status, { location, 'content-type': 'text/plain; charset=utf-8' }, `Moved to ${location}\n`);
}

/**
 * Writes `chunk` repeatedly, respecting backpressure, until `total` bytes (or forever when
 * total is Infinity, as chunked encoding) or until the client goes away.
 */
export function stream(ctx: Ctx, headers: OutgoingHttpHeaders, chunk: Buffer, total: number): void {
  const { res } = ctx;
  res.writeHead(200, Number.isFinite(total) ? { 'content-length': total, ...headers } : headers);
  if (ctx.head) return void res.end();
  let left = total;
  const pump = (): void => {
    while (left > 0 && !res.destroyed) {
      const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
      left -= piece.length;
      ctx.entry.bytes += piece.length;
      if (!res.write(piece)) return void res.once('drain', pump);
    }
    if (left <= 0) res.end();
  };
  pump();
}
