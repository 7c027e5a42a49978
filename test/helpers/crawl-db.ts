import { CrawlReader } from '../../core/store/crawl-reader.js';
import Sqlite from '../../core/store/sqlite.js';

/**
 * The URLs a crawl database holds as fetched, read as every reader of the product reads them
 * (CrawlReader: rank, eval, export, the workbench), sorted, so two crawls of one web compare
 * equal. A test that counted by its own SQL would pass where users see fewer pages.
 */
export function fetchedUrls(db: string): string[] {
  const reader = CrawlReader.open(db);
  try {
    return [...reader.pagesByFetch(['url'])].map((p) => p.url).sort();
  } finally {
    reader.close();
  }
}

/** Rows of a crawl database by a test's own SQL, read-only (for tables no reader serves, e.g. sitemaps). */
export function sqlRows<T>(db: string, sql: string): T[] {
  const d = new Sqlite(db, { readonly: true });
  try {
    return d.prepare(sql).all() as T[];
  } finally {
    d.close();
  }
}
