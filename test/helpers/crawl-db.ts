import { CrawlReader } from '../../core/store/crawl-reader.js';

/** The URLs a crawl database holds as fetched (up to its last commit), sorted: two crawls of one web compare equal. */
export function fetchedUrls(db: string): string[] {
  const reader = CrawlReader.open(db);
  try {
    return [...reader.pagesByFetch(['url'])].map((p) => p.url).sort();
  } finally {
    reader.close();
  }
}
