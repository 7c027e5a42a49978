/**
 * Crawlee's CheerioCrawler on the throughput web, as a user of Crawlee would set it up:
 * seeds = every site's home page, enqueueLinks on every page (strategy 'all': links to
 * other sites too), concurrency pinned at `concurrency`. Storage in a fresh temporary
 * directory, purged on start, nothing persisted to disk (CRAWLEE_PERSIST_STORAGE=false and
 * the same in code), so no state leaks between runs.
 *
 *   node crawlee-crawl.js SEEDS_FILE CONCURRENCY STORAGE_DIR
 * Prints {pages, links, errors, seconds} as one JSON line.
 */
import { readFileSync } from 'node:fs';
import { CheerioCrawler, Configuration, log, LogLevel } from '@crawlee/cheerio';

const [seedsFile, concurrencyText, storageDir] = process.argv.slice(2);
const concurrency = Number(concurrencyText ?? 64);
const seeds = readFileSync(seedsFile!, 'utf8').split('\n').filter(Boolean);
log.setLevel(LogLevel.ERROR); // its retries of connections the server closed are expected, not news

const config = new Configuration({
  persistStorage: false,
  purgeOnStart: true,
  storageClientOptions: { localDataDirectory: storageDir, persistStorage: false, writeMetadata: false },
});
let pages = 0;
let links = 0;
let errors = 0;
const crawler = new CheerioCrawler(
  {
    minConcurrency: concurrency,
    maxConcurrency: concurrency,
    maxRequestRetries: 2,
    maxRequestsPerCrawl: 1_000_000,
    async requestHandler({ enqueueLinks, $ }) {
      pages++;
      links += $('a[href]').length;
      await enqueueLinks({ strategy: 'all' });
    },
    failedRequestHandler() {
      errors++;
    },
  },
  config,
);
const t0 = performance.now();
await crawler.run(seeds);
const seconds = (performance.now() - t0) / 1000;
process.stdout.write(JSON.stringify({ pages, links, errors, seconds }) + '\n');
