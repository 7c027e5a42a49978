/**
 * The Pages view's read indexes (issue 18), built when a crawl finishes beside pages_url and
 * links_dst (CrawlStore.buildReadIndexes) and dropped when it resumes, where they would cost
 * every discovered page and link a write at a random place:
 * - pages_fts: an FTS5 trigram index over the URLs, contentless (the URLs stay in pages only;
 *   detail=none and columnsize=0 keep it small): it says which pages' URLs hold a trigram, and
 *   page-search.ts checks the candidates' URLs with LIKE. A URL-substring search then reads
 *   the pages holding the text's rarest trigrams instead of every URL.
 * - pages_site: pages by site, for the site filter.
 * - page_indegree (schema 6): each page's in-links, counted once from links_dst.
 * Which of them a crawl has is what PageSearch (page-search.ts) asks before choosing a plan.
 */
import type { Db } from './database.js';
import { READ_INDEXES } from './migrations/003-write-optimised.js';

export const PAGE_SEARCH_INDEXES = [
  { name: 'pages_site', sql: 'CREATE INDEX IF NOT EXISTS pages_site ON pages(site_id)' },
] as const;

/** Builds what is missing; each step its own transaction (call outside a batch). Needs links_dst for a fast count. */
export function buildPageSearchIndexes(db: Db): void {
  for (const index of PAGE_SEARCH_INDEXES) db.exec(index.sql);
  if (!hasTable(db, 'page_indegree')) return; // a database not migrated to schema 6 (never: writers migrate)
  if (!hasTable(db, 'pages_fts')) {
    db.transaction(() => {
      db.exec('DELETE FROM page_indegree');
      db.exec(`INSERT INTO page_indegree(page_id, indegree)
        SELECT p.id, coalesce(c.n, 0) FROM pages p LEFT JOIN (SELECT dst, count(*) AS n FROM links GROUP BY dst) c ON c.dst = p.id ORDER BY p.id`);
      // Last: its presence says the crawl's read indexes are complete.
      // Contentless: the index only says which page ids hold a trigram (page-search.ts checks
      // the candidates' URLs in pages). Filled from pages in one go and merged once at the end
      // (FTS5's default merging as it goes took 158 s for 3M URLs). crisismerge 64, not more:
      // FTS5 refuses a level of more than 2,000 segments (SQLITE_FULL), which 3M URLs reach.
      db.exec("CREATE VIRTUAL TABLE pages_fts USING fts5(url, content='', tokenize='trigram', detail='none', columnsize=0)");
      db.exec("INSERT INTO pages_fts(pages_fts, rank) VALUES('automerge', 0)");
      db.exec("INSERT INTO pages_fts(pages_fts, rank) VALUES('crisismerge', 64)");
      // ORDER BY id: without it SQLite reads the covering pages_url index, in URL order, and
      // FTS5 given page ids out of order took 70 s for 3M URLs instead of 13.
      db.exec('INSERT INTO pages_fts(rowid, url) SELECT id, url FROM pages ORDER BY id');
      db.exec("INSERT INTO pages_fts(pages_fts) VALUES('optimize')");
    })();
  }
}

/**
 * Every read index of a crawl (CrawlStore.buildReadIndexes): those by URL, link target and
 * site (READ_INDEXES), then the Pages view's. Each step its own transaction (call outside a batch).
 */
export function buildReadIndexes(db: Db): void {
  for (const index of READ_INDEXES) db.exec(index.sql);
  buildPageSearchIndexes(db);
}

/**
 * Whether a crawl has all its read indexes. pages_fts is built last, so its presence says the
 * build went to its end; the indexes are checked too, for a crawl that lost one otherwise.
 */
export function readIndexesComplete(db: Db): boolean {
  if (hasTable(db, 'page_indegree') && !hasTable(db, 'pages_fts')) return false;
  const has = db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?").pluck();
  return [...READ_INDEXES, ...PAGE_SEARCH_INDEXES].every((index) => has.get(index.name) === 1);
}

/**
 * A finished or stopped crawl whose end-of-run index build did not complete (its process was
 * killed between the state's commit and the build, or the build failed): builds what is
 * missing. Returns whether it built anything. Needs the writer's lock (call outside a batch).
 */
export function completeReadIndexes(db: Db): boolean {
  const state = db.prepare("SELECT value FROM meta WHERE key = 'state'").pluck().get();
  if ((state !== 'finished' && state !== 'stopped') || readIndexesComplete(db)) return false;
  buildReadIndexes(db);
  return true;
}

export function dropPageSearchIndexes(db: Db): void {
  if (hasTable(db, 'pages_fts')) db.exec('DROP TABLE pages_fts');
  if (hasTable(db, 'page_indegree')) db.exec('DELETE FROM page_indegree');
  for (const index of PAGE_SEARCH_INDEXES) db.exec(`DROP INDEX IF EXISTS ${index.name}`);
}

function hasTable(db: Db, name: string): boolean {
  return db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?").pluck().get(name) === 1;
}
