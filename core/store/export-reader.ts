/**
 * The queries of an export (core/export), over a CrawlReader and bounded by its snapshot:
 * robots.txt captures in the order they were made, robots.txt state and PageRank per site,
 * links with both ends' URLs, and what an older crawl's stored content lacks. Kept apart from
 * crawl-reader.ts so that each file stays one subject.
 */
import type { CrawlReader, ContentLocation } from './crawl-reader.js';

/** A robots.txt answer kept by a crawl that stores content (schema 5 on). */
export interface RobotsCapture extends ContentLocation {
  id: number;
  siteId: number;
  url: string;
  /** The fetch sequence number of the last page stored before it. */
  afterSeq: number;
  httpStatus: number;
  /** Epoch ms. */
  fetchedAt: number;
}

/** A link with its ends' URLs. */
export interface UrlLink {
  /** The key it is stored under: its source's fetch_seq, or minus the source's id (schema 12). */
  seq: number;
  src: number;
  dst: number;
  srcUrl: string;
  dstUrl: string;
  anchor: string | null;
  kind: string;
  nofollow: number;
}

/** What the stored content covers, for an export's warnings. */
export interface ContentCoverage {
  /** Pages fetched by the snapshot. */
  fetched: number;
  /** Of those, with a stored capture. */
  captured: number;
  /** Captures whose status line and headers were rebuilt (made before schema 5). */
  rebuilt: number;
  /** robots.txt captures, and origins whose robots.txt was asked for. */
  robotsCaptures: number;
  robotsOrigins: number;
}

const MIN_KEY = Number.MIN_SAFE_INTEGER;

export class ExportReader {
  constructor(readonly reader: CrawlReader) {}

  /** robots.txt captures at the snapshot, in the order they were made. */
  robotsCaptures(): Generator<RobotsCapture> {
    const sql = `SELECT id, site_id AS siteId, url, after_seq AS afterSeq, http_status AS httpStatus, fetched_at AS fetchedAt,
        segment, offset, request_len AS requestLength, response_header_len AS headerLength, body_len AS bodyLength, 1 AS raw
      FROM robots_content WHERE id > @after AND id <= @rc AND after_seq <= @s ORDER BY id LIMIT @limit`;
    return this.reader.stream<RobotsCapture>(sql, { after: MIN_KEY }, (r) => ({ after: r.id }));
  }

  robotsCapture(id: number): RobotsCapture | undefined {
    return this.reader
      .prepared(`SELECT id, site_id AS siteId, url, after_seq AS afterSeq, http_status AS httpStatus, fetched_at AS fetchedAt,
        segment, offset, request_len AS requestLength, response_header_len AS headerLength, body_len AS bodyLength, 1 AS raw
      FROM robots_content WHERE id = @id AND id <= @rc`)
      .get({ ...this.reader.params, id }) as RobotsCapture | undefined;
  }

  /** robots.txt state per site (a site may have several origins: their states, sorted, joined by '+'). */
  robotsStateBySite(): Map<number, string> {
    const rows = this.reader.prepared('SELECT site_id AS siteId, state FROM robots WHERE site_id <= @site ORDER BY site_id, state').all(this.reader.params) as Array<{
      siteId: number;
      state: string;
    }>;
    const out = new Map<number, string>();
    for (const r of rows) {
      const prev = out.get(r.siteId);
      if (prev === undefined) out.set(r.siteId, r.state);
      else if (!prev.split('+').includes(r.state)) out.set(r.siteId, `${prev}+${r.state}`);
    }
    return out;
  }

  /** [site id, value] of a site PageRank run. */
  siteRunValues(runId: number): Map<number, number> {
    const rows = this.reader.prepared('SELECT site_id, value FROM site_pagerank WHERE run_id = ?', true).all(runId) as Array<[number, number]>;
    return new Map(rows);
  }

  /**
   * Links at the snapshot with both ends' URLs, in chunks, in the table's order (schema 12): those
   * stored without a fetch first, then by the fetch that stored them; a source's by target id.
   */
  links(): Generator<UrlLink> {
    const sql = `SELECT l.seq, l.src, l.dst, s.url AS srcUrl, d.url AS dstUrl, l.anchor, l.kind, l.nofollow
      FROM links l JOIN pages s ON s.id = l.src JOIN pages d ON d.id = l.dst
      WHERE (l.seq, l.dst) > (@seq, @dst) AND l.seq <= @s AND l.src <= @p AND d.id <= @p
      ORDER BY l.seq, l.dst LIMIT @limit`;
    return this.reader.stream<UrlLink>(sql, { seq: MIN_KEY, dst: MIN_KEY }, (r) => ({ seq: r.seq, dst: r.dst }));
  }

  coverage(): ContentCoverage {
    return this.reader
      .prepared(
        `SELECT (SELECT count(*) FROM pages WHERE fetch_seq <= @s) AS fetched,
           (SELECT count(*) FROM content c JOIN pages p ON p.id = c.page_id WHERE p.fetch_seq <= @s) AS captured,
           (SELECT count(*) FROM content c JOIN pages p ON p.id = c.page_id WHERE p.fetch_seq <= @s AND c.raw = 0) AS rebuilt,
           (SELECT count(*) FROM robots_content WHERE id <= @rc AND after_seq <= @s) AS robotsCaptures,
           (SELECT count(*) FROM robots) AS robotsOrigins`,
      )
      .get(this.reader.params) as ContentCoverage;
  }
}
