import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Crawler } from '../../core/engine/crawler.js';
import { ErrorCodes } from '../../core/errors.js';
import { CrawlReader } from '../../core/store/crawl-reader.js';
import { generateWeb, seedUrls } from '../../core/testweb/generator.js';
import { tmpDir } from '../helpers/tmp.js';
import { serve, testSettings } from '../helpers/web.js';

const dir = tmpDir();
const PARKED = new Set<string>([ErrorCodes.SITE_PARKED, ErrorCodes.ROBOTS_UNAVAILABLE]);

interface Seen {
  /** URL -> what a user reads of the page (status, error, depth, HTTP status, content hash). */
  pages: Map<string, string>;
  /** URL of a page fetched as itself (not a duplicate) -> its out-links (target URL and kind), sorted. */
  links: Map<string, string>;
}

/** The crawl as every reader of the product reads it. */
function read(db: string): Seen {
  const reader = CrawlReader.open(db);
  try {
    const pages = new Map<string, string>();
    const links = new Map<string, string>();
    for (const p of reader.pages(['url', 'status', 'errorCode', 'depth', 'httpStatus', 'contentHash'])) {
      // Which of two pages with the same content is the duplicate depends on which was fetched
      // first; a page of a parked site says the park's reason, or that the site was parked, as
      // it was found before or after (timing, in any crawl).
      const status = p.status === 'duplicate' ? 'fetched' : p.status;
      const error = PARKED.has(p.errorCode ?? '') ? 'parked' : p.errorCode;
      pages.set(p.url, [status, error, p.depth, p.httpStatus, p.contentHash].join(' '));
      if (p.status === 'fetched') links.set(p.url, reader.linksFrom(p.id, 100_000).map((l) => `${l.url} ${l.kind} ${l.anchor}`).sort().join('\n'));
    }
    return { pages, links };
  } finally {
    reader.close();
  }
}

describe('a crawl with and without its writer and parse threads', async () => {
  // Ordinary and fault sites: redirects, errors, duplicates, traps, robots.txt rules.
  const web = generateWeb({ seed: 28, sites: 24, pages: 900, latency: { maxMs: 1 } });
  const { port } = await serve(web);
  const settings = testSettings(seedUrls(web, port), {
    scope: { suffixes: ['.demo'] }, resolve: [{ pattern: '*.demo', address: '127.0.0.1' }], w: 0, c: 20, r: 12, maxCrawlDelay: 0,
  });

  it('stores the same pages, statuses, depths, content hashes and links, whichever threads it runs on', async () => {
    const seen: Seen[] = [];
    for (const [name, opts] of [
      ['inline', { writer: false, parseThreads: 0 }],
      ['writer', { writer: true, parseThreads: 0 }],
      ['parser', { writer: false, parseThreads: 1 }],
      ['both', { writer: true, parseThreads: 1 }],
    ] as const) {
      const db = join(dir, `${name}.db`);
      const crawler = Crawler.create(db, settings, opts);
      try {
        const summary = await crawler.run();
        expect(summary.stopReason).toBe('finished');
      } finally {
        crawler.close();
      }
      seen.push(read(db));
    }
    const [inline, ...others] = seen;
    expect(inline!.pages.size).toBeGreaterThan(700);
    for (const s of others) {
      expect(s.pages).toEqual(inline!.pages);
      // Pages fetched as themselves in both crawls link to the same pages.
      const both = [...s.links.keys()].filter((u) => inline!.links.has(u));
      expect(both.length).toBeGreaterThan(500);
      for (const u of both) expect(s.links.get(u), u).toBe(inline!.links.get(u));
    }
  }, 120_000);
});
