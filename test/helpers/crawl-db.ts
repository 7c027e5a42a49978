import { CrawlReader } from '../../core/store/crawl-reader.js';

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
