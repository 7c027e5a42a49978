import type Database from 'better-sqlite3';
import { validateSettings } from '../../core/config/settings.js';
import { CrawlReader } from '../../core/store/crawl-reader.js';
import { MIGRATIONS } from '../../core/store/migrations/index.js';
import Sqlite from '../../core/store/sqlite.js';

/**
 * A finished crawl's file as schema `version` made it, from the migrations themselves (settings
 * with one seed, nothing crawled): open, for the test to fill in and close.
 */
export function crawlFileOfSchema(path: string, version: number, seed = 'http://a.test/'): Database.Database {
  const raw = new Sqlite(path);
  raw.pragma('journal_mode = WAL');
  for (const m of MIGRATIONS.filter((x) => x.version <= version)) raw.exec(m.sql);
  raw.pragma(`user_version = ${version}`);
  raw.pragma(`application_id = ${0x43424e43}`);
  raw.prepare("INSERT INTO meta(key, value) VALUES ('settings', ?), ('state', 'finished')").run(JSON.stringify(validateSettings({ seeds: [seed] })));
  return raw;
}

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
