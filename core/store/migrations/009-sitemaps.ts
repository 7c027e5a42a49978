/**
 * Schema 9: sitemaps (--sitemaps, engine/sitemaps.ts).
 * - sitemaps: every sitemap a crawl knew of, one row per URL: where it was found (robots.txt,
 *   the /sitemap.xml every site is asked for, or an index), how deep among indexes, and what
 *   became of it: queued, fetched (read, perhaps with a problem), failed (no answer, or an
 *   error status, after its attempts), absent (/sitemap.xml answered 404: the site has none),
 *   skipped (robots.txt disallows it, or the site's cap). A sitemap that answered
 *   2xx is also a fetched page (page_id), the source of the links to what it lists.
 * - links.lastmod: a sitemap's <lastmod> for the page (or sitemap) it lists, as written.
 */
export const sql = `
CREATE TABLE sitemaps (
  id INTEGER PRIMARY KEY,
  site_id INTEGER NOT NULL,
  origin TEXT NOT NULL,                     -- scheme://host:port, fetched over its connections
  url TEXT NOT NULL UNIQUE,                 -- canonical URL
  source TEXT NOT NULL CHECK (source IN ('robots', 'guess', 'index', 'redirect')),
  parent_id INTEGER,                        -- the sitemap (index, or redirecting one) that named it
  depth INTEGER NOT NULL,                   -- 0 named by robots.txt or guessed; an index's child: +1
  lastmod TEXT,                             -- as the index named it
  state TEXT NOT NULL DEFAULT 'queued'
    CHECK (state IN ('queued', 'fetched', 'failed', 'absent', 'skipped')),
  page_id INTEGER,                          -- its page, once it answered 2xx
  http_status INTEGER,
  root TEXT,                                -- urlset | sitemapindex
  gzip INTEGER NOT NULL DEFAULT 0,          -- the file was gzip
  urls INTEGER NOT NULL DEFAULT 0,          -- <url> entries read
  sitemaps INTEGER NOT NULL DEFAULT 0,      -- <sitemap> entries read
  bytes INTEGER,                            -- body bytes received
  decoded_bytes INTEGER,                    -- XML bytes read
  error_code TEXT,
  message TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  fetched_at REAL                           -- epoch ms
) STRICT;
CREATE INDEX sitemaps_origin_state ON sitemaps(origin, state);
ALTER TABLE links ADD COLUMN lastmod TEXT;
`;
