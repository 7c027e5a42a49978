/**
 * Schema 11: the Sites view's first page of a finished crawl picked by walking an index of its
 * sort key (issue 24; bench/server-load, docs/performance.md). Without one, SQLite reads every
 * site's row to keep the best 50: on bench/sites' 50,000 sites (818 pages of 4 KiB) about
 * 5 ms of CPU for the pick and as much again for the site count, the larger share of a Sites
 * page, which waits for a core beside an export on a loaded machine. With one, the pick reads
 * about 50 index entries and the count the smallest index instead of the table.
 *
 * Read indexes (READ_INDEXES, 003-write-optimised.ts): built when a crawl finishes or stops,
 * dropped when it runs, where every fetch updates its site's counters and would move the
 * site's entry in each of these. Built here too, so that a crawl finished before this schema
 * gets them when it is first opened; a crawl that resumes drops them with the others. The
 * host sort already has the UNIQUE index on sites.host; the site PageRank and state sorts
 * read every site (a join and a computed state), as before.
 *
 * Each index holds the key and the site id, so a walk in one direction gives the page's order
 * exactly (key, then id ascending) and the other direction keeps only the ties to sort. A key
 * that may be NULL (connect_ms, response_ms, requests_per_conn, crawl_delay_ms) sorted
 * ascending with NULLs last is not the index's order (SQLite puts NULLs first): SQLite sorts
 * those as before.
 */
export const SITE_SORT_INDEXES = [
  { name: 'sites_by_pages_fetched', sql: 'CREATE INDEX IF NOT EXISTS sites_by_pages_fetched ON sites(pages_fetched)' },
  { name: 'sites_by_pages_known', sql: 'CREATE INDEX IF NOT EXISTS sites_by_pages_known ON sites(pages_known)' },
  { name: 'sites_by_bytes', sql: 'CREATE INDEX IF NOT EXISTS sites_by_bytes ON sites(bytes)' },
  { name: 'sites_by_errors', sql: 'CREATE INDEX IF NOT EXISTS sites_by_errors ON sites(errors)' },
  { name: 'sites_by_connect_ms', sql: 'CREATE INDEX IF NOT EXISTS sites_by_connect_ms ON sites(connect_ms)' },
  { name: 'sites_by_response_ms', sql: 'CREATE INDEX IF NOT EXISTS sites_by_response_ms ON sites(response_ms)' },
  { name: 'sites_by_requests_per_conn', sql: 'CREATE INDEX IF NOT EXISTS sites_by_requests_per_conn ON sites(requests_per_conn)' },
  { name: 'sites_by_crawl_delay_ms', sql: 'CREATE INDEX IF NOT EXISTS sites_by_crawl_delay_ms ON sites(crawl_delay_ms)' },
] as const;

export const sql = SITE_SORT_INDEXES.map((i) => `${i.sql};`).join('\n');
