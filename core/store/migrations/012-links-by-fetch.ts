import type Database from 'better-sqlite3';

/**
 * Schema 12: links keyed by the fetch that stored them, so that a crawl's link writes append
 * (issue 28; docs/performance.md, "Links stored in fetch order").
 *
 * Before, the links table's key was (src, dst): a page's links landed at its id's place in a
 * table of millions of rows, and page ids follow discovery while fetches follow the policy, so
 * every fetched page's links were a write to a random B-tree page (and a checkpoint of it
 * again): bench/frontier/sqlite-floor measured 32-43 s of the 106-118 s SQLite takes for 5M
 * URLs. Now the key is (seq, dst), seq being the source page's fetch_seq, which only grows:
 * each fetch's links go at the end of the table.
 *
 * - seq: the source page's fetch_seq; for links stored without a fetch, minus the page's id:
 *   a sitemap's links (written while it streams, before its fetch is recorded, and an index's
 *   link to a child sitemap, written when the child is read), and any stored from a page that
 *   was never fetched. So seq stands for one source, and a page's links are those with seq IN
 *   (its fetch_seq, -its id) (linksOfPage, crawl-rows.ts). An older file's are rekeyed so too:
 *   a sitemap's links under minus its id, any other page's under its fetch_seq. (src, dst)
 *   stays unique but for a sitemap that is also a page of the crawl, which may list a page its
 *   HTML links to (kinds 'sitemap' and 'a', once each; before, the second was dropped): graph
 *   loading counts the pair once.
 * - src: kept as a column (the source page's id, as before), for the readers that join on it.
 * - As of a snapshot (fetch sequence number S), the links seen are those with seq <= S: those
 *   of pages fetched by then, and those stored without a fetch (a sitemap's: seen once stored,
 *   where before they were hidden again once the sitemap's own fetch came after S).
 * - links_dst (a read index built when a crawl finishes) goes with the old table and is built
 *   again when the file had it (indexAgain): a finished crawl keeps it, a new file does not
 *   get it while its crawl writes.
 */
export const sql = `
CREATE TABLE links_v12 (
  seq INTEGER NOT NULL,                     -- the source's fetch_seq, or -src when stored without a fetch
  dst INTEGER NOT NULL,
  src INTEGER NOT NULL,
  anchor TEXT,
  nofollow INTEGER NOT NULL DEFAULT 0,
  kind TEXT NOT NULL DEFAULT 'a',           -- a | area | frame | iframe | refresh | redirect | sitemap
  lastmod TEXT,
  PRIMARY KEY (seq, dst)
) STRICT, WITHOUT ROWID;
INSERT OR IGNORE INTO links_v12 (seq, dst, src, anchor, nofollow, kind, lastmod)
  SELECT CASE WHEN l.kind = 'sitemap' THEN -l.src ELSE coalesce(p.fetch_seq, -l.src) END, l.dst, l.src, l.anchor, l.nofollow, l.kind, l.lastmod
  FROM links l LEFT JOIN pages p ON p.id = l.src ORDER BY 1, 2;
DROP TABLE links;
ALTER TABLE links_v12 RENAME TO links;
`;

/** SQL to run after `sql`, decided before it: links_dst again if the file had it. */
export function indexAgain(db: Database.Database): string {
  const had = db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'links_dst'").pluck().get() as number;
  return had > 0 ? 'CREATE INDEX links_dst ON links(dst);' : '';
}
