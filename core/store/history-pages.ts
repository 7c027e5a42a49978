/**
 * A recrawl's questions to its history crawl, for conditional requests (docs/design.md
 * section 4.10): the validators the server gave a page last time (ETag, Last-Modified), sent
 * back as If-None-Match and If-Modified-Since; and, when the server answers 304 Not Modified,
 * what the page was (content hash, size, type, title) and its links, so that the recrawl's
 * link graph is as complete as with a full download. Pages are matched whatever their scheme.
 *
 * The history file is opened read-only and asked one page at a time (its pages are indexed
 * by URL): a national crawl's history is never loaded whole.
 */
import type Database from 'better-sqlite3';
import { linksOfPage } from './crawl-rows.js';
import Sqlite from './sqlite.js';
import { schemeVariants } from '../url/page-identity.js';

/** A link of a history page as stored (the kinds of extracted links: a, area, frame, iframe, refresh). */
export interface HistoryLink {
  url: string;
  anchor: string;
  nofollow: boolean;
  kind: 'a' | 'area' | 'frame' | 'iframe' | 'refresh';
}

export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

export interface HistoryPage extends Validators {
  id: number;
  httpStatus: number;
  contentType: string | null;
  bytes: number | null;
  contentHash: string | null;
  title: string | null;
  noindex: boolean;
}

/** A page as SQLite reads it: noindex as 0, 1 or null. */
type PageRow = Omit<HistoryPage, 'noindex'> & { noindex: number | null };

export class HistoryPages {
  private constructor(
    private readonly db: Database.Database,
    private readonly byUrl: Database.Statement,
    private readonly links: Database.Statement,
  ) {}

  /**
   * The history crawl's pages, or null (with the reason) when it holds no validators (made
   * before crawlbench stored them, or of servers that send none): unconditional requests.
   */
  static open(path: string): { history: HistoryPages | null; note: string | null } {
    const db = new Sqlite(path, { readonly: true, fileMustExist: true });
    const columns = new Set((db.prepare("SELECT name FROM pragma_table_info('pages')").pluck().all() as string[]));
    const any = columns.has('etag') && db.prepare('SELECT 1 FROM pages WHERE etag IS NOT NULL OR last_modified IS NOT NULL LIMIT 1').get() !== undefined;
    if (!any) {
      db.close();
      return { history: null, note: 'the history crawl stored no validators (ETag, Last-Modified): every request is unconditional' };
    }
    // Only pages fetched whole, with their links, can stand in for a download: not duplicates,
    // errors or redirects, nor pages that were themselves taken from an earlier crawl.
    const byUrl = db.prepare(`SELECT id, http_status AS httpStatus, etag, last_modified AS lastModified, content_type AS contentType, bytes,
      content_hash AS contentHash, title, noindex FROM pages
      WHERE url = ? AND status = 'fetched' AND http_status BETWEEN 200 AND 299 AND (etag IS NOT NULL OR last_modified IS NOT NULL)`);
    // A history crawl made before schema 12 has its links keyed by source page (opened as is, read-only).
    const bySeq = (db.prepare("SELECT count(*) FROM pragma_table_info('links') WHERE name = 'seq'").pluck().get() as number) > 0;
    const links = db.prepare(`SELECT p.url AS url, l.anchor AS anchor, l.nofollow AS nofollow, l.kind AS kind
      FROM links l JOIN pages p ON p.id = l.dst WHERE ${bySeq ? linksOfPage('l', '@src') : 'l.src = @src'} AND l.kind NOT IN ('redirect', 'sitemap')`);
    return { history: new HistoryPages(db, byUrl, links), note: null };
  }

  private row(url: string): PageRow | null {
    for (const u of schemeVariants(url)) {
      const r = this.byUrl.get(u) as PageRow | undefined;
      if (r) return r;
    }
    return null;
  }

  /** What to send back with the request for this page, or null (never seen, or seen without validators). */
  validators(url: string): Validators | null {
    const r = this.row(url);
    return r ? { etag: r.etag, lastModified: r.lastModified } : null;
  }

  /** The page as the history crawl fetched it. */
  page(url: string): HistoryPage | null {
    const r = this.row(url);
    return r ? { ...r, noindex: r.noindex === 1 } : null;
  }

  /** Its links as the history crawl stored them (redirects aside), as if extracted again. */
  outLinks(historyId: number): HistoryLink[] {
    return (this.links.all({ src: historyId }) as Array<{ url: string; anchor: string | null; nofollow: number; kind: string }>).map((l) => ({
      url: l.url,
      anchor: l.anchor ?? '',
      nofollow: l.nofollow === 1,
      kind: l.kind as HistoryLink['kind'],
    }));
  }

  close(): void {
    this.db.close();
  }
}

/** The request headers that ask the server for the page only if it changed. */
export function conditionalHeaders(v: Validators): Record<string, string> {
  const h: Record<string, string> = {};
  if (v.etag) h['if-none-match'] = v.etag;
  if (v.lastModified) h['if-modified-since'] = v.lastModified;
  return h;
}
