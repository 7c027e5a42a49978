/**
 * Schema 1: everything a crawl needs to be resumed from its file and analysed afterwards.
 * The frontier is its own table so that a page leaves it in the same transaction that
 * stores its fetch result: that is what makes the resume guarantee hold.
 */
export const sql = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;

CREATE TABLE sites (
  id INTEGER PRIMARY KEY,
  host TEXT NOT NULL UNIQUE,               -- the site key (host, or registrable domain)
  ip TEXT,
  pages_known INTEGER NOT NULL DEFAULT 0,
  pages_fetched INTEGER NOT NULL DEFAULT 0,
  pages_failed INTEGER NOT NULL DEFAULT 0,
  bytes INTEGER NOT NULL DEFAULT 0,
  connections INTEGER NOT NULL DEFAULT 0,
  requests INTEGER NOT NULL DEFAULT 0,
  connect_ms REAL,                          -- EWMA, alpha = 0.8
  response_ms REAL,                         -- EWMA, alpha = 0.8
  requests_per_conn REAL,                   -- EWMA, alpha = 0.8
  consecutive_errors INTEGER NOT NULL DEFAULT 0,
  errors INTEGER NOT NULL DEFAULT 0,
  crawl_delay_ms REAL,
  not_before REAL,                          -- epoch ms: backoff after errors
  parked TEXT                               -- error code that parked the site, or NULL
) STRICT;

CREATE TABLE robots (
  origin TEXT PRIMARY KEY,                  -- scheme://host:port (RFC 9309)
  site_id INTEGER NOT NULL REFERENCES sites(id),
  state TEXT NOT NULL CHECK (state IN ('rules', 'allow-all', 'unavailable')),
  http_status INTEGER,
  body TEXT,
  fetched_at REAL NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE pages (
  id INTEGER PRIMARY KEY,
  url TEXT NOT NULL UNIQUE,                 -- canonical URL
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
CREATE INDEX pages_site_status ON pages(site_id, status);
CREATE UNIQUE INDEX pages_fetch_seq ON pages(fetch_seq) WHERE fetch_seq IS NOT NULL;

CREATE TABLE links (
  src INTEGER NOT NULL,
  dst INTEGER NOT NULL,
  anchor TEXT,
  nofollow INTEGER NOT NULL DEFAULT 0,
  kind TEXT NOT NULL DEFAULT 'a',           -- a | area | frame | iframe | refresh | redirect
  PRIMARY KEY (src, dst)
) STRICT, WITHOUT ROWID;
CREATE INDEX links_dst ON links(dst);

CREATE TABLE frontier (
  page_id INTEGER PRIMARY KEY,
  site_id INTEGER NOT NULL,
  priority REAL NOT NULL DEFAULT 0
) STRICT;

CREATE TABLE content_hashes (hash TEXT PRIMARY KEY, page_id INTEGER NOT NULL) STRICT, WITHOUT ROWID;

CREATE TABLE content (
  page_id INTEGER PRIMARY KEY,
  segment INTEGER NOT NULL,
  offset INTEGER NOT NULL,
  request_len INTEGER NOT NULL,
  response_header_len INTEGER NOT NULL,
  body_len INTEGER NOT NULL
) STRICT;

CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  at REAL NOT NULL,
  kind TEXT NOT NULL,                       -- start | pause | finish | error | park
  site_id INTEGER,
  page_id INTEGER,
  code TEXT,
  message TEXT
) STRICT;
`;
