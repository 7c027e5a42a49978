import { join } from 'node:path';
import type { CrawlSettingsInput } from '../../core/config/settings.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { crawl, testSettings } from '../helpers/web.js';

/** Fetched pages of a crawl in fetch order, as host + path without the port ('a.test/x'). */
export function fetchOrder(db: string): string[] {
  const store = CrawlStore.open(db, { readonly: true });
  try {
    const urls = store.db.prepare('SELECT url FROM pages WHERE fetch_seq IS NOT NULL ORDER BY fetch_seq').pluck().all() as string[];
    return urls.map(short);
  } finally {
    store.close();
  }
}

export function short(url: string): string {
  const u = new URL(url);
  return u.hostname + u.pathname + u.search;
}

let n = 0;

/**
 * Crawls with r = 1 and c = 1 (strictly one request at a time, so the order is the
 * policy's), w = 0, and returns the fetch order.
 */
export async function crawlOrder(
  dir: string,
  port: number,
  seeds: string[],
  policy: string,
  extra: Partial<CrawlSettingsInput> = {},
): Promise<{ db: string; order: string[] }> {
  const db = join(dir, `${policy}-${++n}.db`);
  const urls = seeds.map((s) => `http://${s.replace(/^([^/]+)/, `$1:${port}`)}`);
  const summary = await crawl(db, testSettings(urls, { r: 1, c: 1, w: 0, policy, ...extra }));
  if (summary.stopReason !== 'finished') throw new Error(`crawl stopped: ${summary.stopReason}`);
  return { db, order: fetchOrder(db) };
}
