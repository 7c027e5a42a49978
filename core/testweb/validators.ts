/**
 * Honest validators for the test web's pages (ETag, Last-Modified) and the conditional answer
 * they allow: 304 Not Modified only for a page whose bytes are those the client saw. The ETag
 * is a hash of the page's bytes; Last-Modified is revision 1's date for a page whose bytes are
 * the same in both revisions, and revision 2's for one that changed or is new. So a recrawl of
 * revision 2 guided by a crawl of revision 1 is told "not modified" exactly for the pages that
 * did not change. Each page's validators are computed once (a hash of its body) and kept.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { renderPage } from './html.js';
import type { Web } from './web.js';

/** The dates the two revisions were "published". */
export const REVISION_DATES = { 1: 'Mon, 01 Jan 2024 00:00:00 GMT', 2: 'Mon, 01 Jul 2024 00:00:00 GMT' } as const;

export interface PageValidatorHeaders {
  etag: string;
  'last-modified': string;
}

const etagOf = (body: Buffer) => `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;

export class PageValidators {
  private readonly known = new Map<number, PageValidatorHeaders>();

  constructor(
    private readonly web: Web,
    private readonly port: () => number,
  ) {}

  /** The page's validators, from its body as served (`body`). */
  headers(id: number, body: Buffer): PageValidatorHeaders {
    let v = this.known.get(id);
    if (!v) {
      const etag = etagOf(body);
      const prev = this.web.previous;
      const oldId = prev ? prev.id(id) : -1;
      const same = !prev || (oldId >= 0 && etagOf(renderPage(prev.web, oldId, this.port())) === etag);
      v = { etag, 'last-modified': same ? REVISION_DATES[1] : REVISION_DATES[2] };
      this.known.set(id, v);
    }
    return v;
  }
}

/**
 * Whether a GET with these request headers may be answered 304 (RFC 9110 section 13.2.2:
 * If-None-Match decides when present; If-Modified-Since only without it).
 */
export function notModified(req: IncomingMessage, v: PageValidatorHeaders): boolean {
  const inm = req.headers['if-none-match'];
  if (inm !== undefined) {
    const tags = String(inm).split(',').map((t) => t.trim().replace(/^W\//, ''));
    return tags.includes('*') || tags.includes(v.etag);
  }
  const ims = req.headers['if-modified-since'];
  if (ims === undefined) return false;
  const since = Date.parse(String(ims));
  return Number.isFinite(since) && Date.parse(v['last-modified']) <= since;
}
