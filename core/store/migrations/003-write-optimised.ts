/**
 * Schema 3: a crawl writes only where it appends. Three indexes took an entry at a random
 * place of a B-tree as large as its table for every discovered page, fetch or link, so each
 * commit rewrote thousands of scattered pages and the crawl slowed as the file grew
 * (bench/frontier: 5M URLs wrote 69 GB for a 1.3 GB file):
 * - pages(site_id, status): read by no query; dropped.
 * - the UNIQUE index on pages.url: the URL-seen test is answered in memory (UrlIndex, built
 *   from the table when a crawl opens), which is what keeps URLs unique; lookups by URL for
 *   people (the page inspector) use pages_url, built when a crawl finishes, and scan before.
 * - links(dst): only the inspector's "links to this page" reads it; built with pages_url.
 * SQLite cannot drop a UNIQUE column constraint, so pages is rebuilt without it (no table
 * references pages, so foreign keys are unaffected).
 */
import { SITE_SORT_INDEXES } from './011-site-sorts.js';

export const sql = `
CREATE TABLE pages_v3 (
  id INTEGER PRIMARY KEY,
  url TEXT NOT NULL,                        -- canonical URL, unique (kept so by the crawler)
  site_id INTEGER NOT NULL REFERENCES sites(id),
  depth INTEGER NOT NULL,
  parent_id INTEGER,                        -- page through which it was discovered
  redirects INTEGER NOT NULL DEFAULT 0,     -- redirect hops that led here
  status TEXT NOT NULL DEFAULT 'queued'
    CHECK (status IN ('queued', 'fetched', 'duplicate', 'failed', 'skipped', 'disallowed')),
  http_status INTEGER,
  content_type TEXT,
  bytes INTEGER,
  content_hash TEXT,
  duplicate_of INTEGER,
  title TEXT,
  noindex INTEGER,
  error_code TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  fetch_seq INTEGER,                        -- 1, 2, 3... in the order results were stored
  fetched_at REAL,                          -- epoch ms
  response_ms REAL
) STRICT;
INSERT INTO pages_v3 SELECT id, url, site_id, depth, parent_id, redirects, status, http_status, content_type,
  bytes, content_hash, duplicate_of, title, noindex, error_code, attempts, fetch_seq, fetched_at, response_ms FROM pages;
DROP TABLE pages;
ALTER TABLE pages_v3 RENAME TO pages;
CREATE UNIQUE INDEX pages_fetch_seq ON pages(fetch_seq) WHERE fetch_seq IS NOT NULL;
DROP INDEX links_dst;
`;

/** The indexes for reading a crawl by URL, by link target and (issue 18) its errors by site: built when a crawl finishes. */
export const READ_INDEXES = [
  { name: 'pages_url', sql: 'CREATE INDEX IF NOT EXISTS pages_url ON pages(url)' },
  { name: 'links_dst', sql: 'CREATE INDEX IF NOT EXISTS links_dst ON links(dst)' },
  // sites (issue 18): the Sites view's pages by error code for a page of sites (site-list.ts), covering, so neither
  // every page is scanned nor a big site's rows read (3M pages: 5 ms for the 50 largest sites, 650 ms by a scan).
  { name: 'pages_site_errors', sql: 'CREATE INDEX IF NOT EXISTS pages_site_errors ON pages(site_id, error_code, status, fetch_seq) WHERE error_code IS NOT NULL' },
  // issue 24: the state of a Sites page's sites, a probe per site instead of a scan of the frontier (010-site-probes.ts).
  { name: 'frontier_site', sql: 'CREATE INDEX IF NOT EXISTS frontier_site ON frontier(site_id)' },
  // issue 24: a Sites page picked by walking its sort key's index (011-site-sorts.ts).
  ...SITE_SORT_INDEXES,
] as const;
