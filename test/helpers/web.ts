import { Crawler, type CrawlSummary } from '../../core/engine/crawler.js';
import type { CrawlSettingsInput } from '../../core/config/settings.js';
import { closeAfter } from '../references.js';
import { TestWebServer } from '../../core/testweb/server.js';
import type { Web } from '../../core/testweb/web.js';

/** Serves a test web on 127.0.0.1 for the rest of the test file. */
export async function serve(web: Web, opts: { timeFactor?: number } = {}): Promise<{ server: TestWebServer; port: number }> {
  const server = new TestWebServer(web, { port: 0, timeFactor: opts.timeFactor ?? 1 });
  const port = await server.start();
  closeAfter(() => server.stop());
  return { server, port };
}

/** Fast, loopback-only defaults for crawls in tests. */
export function testSettings(seeds: string[], extra: Partial<CrawlSettingsInput> = {}): CrawlSettingsInput {
  return {
    seeds,
    scope: { suffixes: ['.demo', '.test'] },
    resolve: [{ pattern: '*', address: '127.0.0.1' }],
    w: 0,
    c: 1,
    r: 16,
    connectTimeout: 2000,
    headersTimeout: 3000,
    bodyTimeout: 3000,
    requestTimeout: 10_000,
    retryBase: 200,
    robotsRetry: 300,
    ...extra,
  };
}

export async function crawl(db: string, settings: CrawlSettingsInput): Promise<CrawlSummary> {
  const crawler = Crawler.create(db, settings);
  try {
    return await crawler.run();
  } finally {
    crawler.close();
  }
}
