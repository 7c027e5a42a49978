/**
 * The sitemaps a parallel crawl's parts read (--sitemaps; schema 9) carried into the merged
 * crawl (merge-parts.ts): every part's rows, one per URL (a URL two parts both knew keeps the
 * row that got furthest: read or given up before queued, then the lower part), with the merged
 * site and page ids and their parent sitemaps' new ids.
 */
import type { Db } from './database.js';

export const SITEMAP_TEMP_TABLES = `
CREATE TEMP TABLE all_sitemaps AS SELECT 0 AS part, m.*, '' AS host FROM sitemaps m WHERE 0;
`;

/** Copies the attached part `src`'s sitemaps into the temporary table (inside gather's transaction). */
export function gatherSitemaps(db: Db, part: number): void {
  db.exec(`INSERT INTO temp.all_sitemaps SELECT ${part}, m.*, s.host FROM src.sitemaps m JOIN src.sites s ON s.id = m.site_id`);
}

/** After the pages, sites and ids are merged (merge-parts.ts MERGE). */
export const MERGE_SITEMAPS = `
CREATE TEMP TABLE sitemap_row_ids AS
  SELECT part, id AS old, row_number() OVER (ORDER BY part, id) AS new_id FROM
    (SELECT part, id, row_number() OVER (PARTITION BY url ORDER BY state = 'queued', part, id) AS rn FROM temp.all_sitemaps)
  WHERE rn = 1;
CREATE UNIQUE INDEX temp.sitemap_row_ids_old ON sitemap_row_ids(part, old);
INSERT INTO sitemaps (id, site_id, origin, url, source, parent_id, depth, lastmod, state, page_id, http_status, root, gzip, urls,
    sitemaps, bytes, decoded_bytes, error_code, message, attempts, fetched_at)
  SELECT k.new_id, s.new_id, a.origin, a.url, a.source, (SELECT new_id FROM temp.sitemap_row_ids WHERE part = a.part AND old = a.parent_id),
    a.depth, a.lastmod, a.state, (SELECT new_id FROM temp.idmap WHERE part = a.part AND old = a.page_id), a.http_status, a.root, a.gzip,
    a.urls, a.sitemaps, a.bytes, a.decoded_bytes, a.error_code, a.message, a.attempts, a.fetched_at
  FROM temp.all_sitemaps a JOIN temp.sitemap_row_ids k ON k.part = a.part AND k.old = a.id JOIN temp.site_ids s ON s.host = a.host
  ORDER BY k.new_id;
`;
