/**
 * What a crawl that stores content keeps of each fetch for a WARC export: the request as
 * sent, the status line and headers as received (reason phrase, case, order, repeats) and
 * the body as received (de-chunked, still content-encoded). Pages go to the `content` table,
 * robots.txt answers to `robots_content`; both point into the content segments.
 */
import type { FetchResponse } from '../fetch/interfaces.js';
import type { CrawlContext } from './context.js';

/**
 * The response head as received, or (a fetcher that does not capture, e.g. a test double)
 * rebuilt from the parsed headers. The one part not as received is the protocol version:
 * undici does not report it, and as it speaks HTTP/1.1 the line says so even when a server
 * answered HTTP/1.0.
 */
export function responseHead(res: FetchResponse): string {
  if (res.raw) {
    let lines = '';
    const h = res.raw.headers;
    for (let i = 0; i + 1 < h.length; i += 2) lines += `${h[i]}: ${h[i + 1]}\r\n`;
    return `HTTP/1.1 ${res.status}${res.raw.statusText ? ` ${res.raw.statusText}` : ''}\r\n${lines}\r\n`;
  }
  const lines = Object.entries(res.headers)
    .flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => `${k}: ${x}\r\n`) : v === undefined ? [] : [`${k}: ${v}\r\n`]))
    .join('');
  return `HTTP/1.1 ${res.status}\r\n${lines}\r\n`;
}

/** Stores a page's fetch, while the content budget lasts. */
export function capturePage(ctx: CrawlContext, pageId: number, res: FetchResponse): void {
  const content = ctx.content;
  if (!content || content.full) return;
  const at = content.append(res.rawRequest ?? '', responseHead(res), res.body);
  if (at) ctx.store.insertContent(pageId, at.segment, at.offset, at.reqLen, at.hdrLen, res.body.length);
}

/** Stores a robots.txt answer (each redirect hop is one), while the content budget lasts. */
export function captureRobots(ctx: CrawlContext, siteId: number, url: string, res: FetchResponse): void {
  const content = ctx.content;
  if (!content || content.full) return;
  const at = content.append(res.rawRequest ?? '', responseHead(res), res.body);
  if (at) ctx.store.insertRobotsContent({ siteId, url, httpStatus: res.status, fetchedAt: res.endedAt }, at, res.body.length);
}
