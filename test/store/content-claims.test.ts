import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../core/engine/crawler.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { crawlFileOfSchema, sqlRows } from '../helpers/crawl-db.js';
import { tmpDir } from '../helpers/tmp.js';
import { testSettings } from '../helpers/web.js';

const dir = tmpDir();

interface Row {
  id: number;
  status: string;
  hash: string;
  dup: number | null;
  seq: number;
}

/**
 * What a user relies on of a crawl's duplicates: each page marked a duplicate points to the
 * page fetched before it with the same content, no two pages fetched as themselves share
 * their content, and the file's claims are exactly those pages. Returns the pages by id.
 */
function checkDuplicates(db: string): Map<number, Row> {
  const rows = sqlRows<Row>(db, 'SELECT id, status, content_hash AS hash, duplicate_of AS dup, fetch_seq AS seq FROM pages WHERE content_hash IS NOT NULL');
  const byId = new Map(rows.map((r) => [r.id, r]));
  const firstOf = new Map<string, number>();
  for (const r of rows.filter((x) => x.status === 'fetched')) {
    expect(firstOf.has(r.hash), `two pages fetched as themselves with content ${r.hash}`).toBe(false);
    firstOf.set(r.hash, r.id);
  }
  for (const r of rows.filter((x) => x.status === 'duplicate')) {
    const first = byId.get(r.dup!)!;
    expect([first.status, first.hash, first.seq < r.seq]).toEqual(['fetched', r.hash, true]);
  }
  const claims = sqlRows<{ hash: string; page_id: number }>(db, 'SELECT hash, page_id FROM content_claims');
  expect(new Map(claims.map((c) => [c.hash, c.page_id]))).toEqual(firstOf);
  expect(claims.length).toBe(firstOf.size);
  return byId;
}

describe('content hashes claimed in memory, the claims appended to the file (schema 13)', async () => {
  // A site of 300 pages in 20 contents (none of the test webs serves one content under two
  // URLs): the home page links to every page, and page N is content N mod 20, linking home.
  const server = createServer((req, res) => {
    const n = /^\/p\/(\d+)$/.exec(req.url ?? '')?.[1];
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<title>Home</title>${Array.from({ length: 300 }, (_, i) => `<a href="/p/${i}">${i}</a>`).join('\n')}`);
    } else if (n !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<title>Content ${Number(n) % 20}</title><p>The same words for every page of content ${Number(n) % 20}.</p><a href="/">home</a>`);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const port = (server.address() as AddressInfo).port;
  const settings = testSettings([`http://dups.test:${port}/`], { w: 0, c: 4, r: 1, maxCrawlDelay: 0 });

  for (const writer of [false, true]) {
    it(`finds every duplicate in a whole crawl and in one paused and resumed (${writer ? 'with' : 'without'} the writer thread)`, async () => {
      const whole = join(dir, `whole-${writer}.db`);
      const a = Crawler.create(whole, settings, { writer, parseThreads: 1, parseInlineFirst: 0 });
      await a.run();
      a.close();
      const pages = checkDuplicates(whole);
      const duplicates = [...pages.values()].filter((r) => r.status === 'duplicate').length;
      expect(duplicates).toBe(280);

      // Paused after a third of the pages: the resumed crawl reads the claims back from the file.
      const parts = join(dir, `parts-${writer}.db`);
      const fetchedAll = [...pages.values()].filter((r) => r.seq !== null).length;
      const first = Crawler.create(parts, { ...settings, maxPages: Math.floor(fetchedAll / 3) }, { writer, parseThreads: 1, parseInlineFirst: 0 });
      expect((await first.run()).stopReason).toBe('max-pages');
      first.close();
      const pausedAt = sqlRows<{ n: number }>(parts, 'SELECT max(fetch_seq) AS n FROM pages')[0]!.n;
      const next = Crawler.open(parts, { maxPages: 1_000_000 }, { writer, parseThreads: 1, parseInlineFirst: 0 });
      await next.run();
      next.close();
      const resumed = checkDuplicates(parts);
      // Duplicates found after the pause of pages fetched before it: only the file's claims knew those.
      const across = [...resumed.values()].filter((r) => r.status === 'duplicate' && r.seq > pausedAt && resumed.get(r.dup!)!.seq <= pausedAt);
      expect(across.length).toBeGreaterThan(0);
    });
  }

  it('an older file\'s content hashes become its claims, and a crawl resumed on it finds duplicates of them', () => {
    const path = join(dir, 'schema12.db');
    const raw = crawlFileOfSchema(path, 12);
    raw.exec(`INSERT INTO sites(id, host) VALUES (1, 'a.test');
      INSERT INTO pages(id, url, site_id, depth, status, content_hash, fetch_seq) VALUES
        (1, 'http://a.test/', 1, 0, 'fetched', 'h1', 1), (2, 'http://a.test/b', 1, 1, 'fetched', 'h2', 2),
        (3, 'http://a.test/c', 1, 1, 'duplicate', 'h1', 3);
      INSERT INTO content_hashes(hash, page_id) VALUES ('h1', 1), ('h2', 2);`);
    raw.close();
    const store = CrawlStore.open(path);
    try {
      expect(store.db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'content_hashes'").pluck().get()).toBe(0);
      expect(store.db.prepare('SELECT hash, page_id AS id FROM content_claims ORDER BY rowid').all()).toEqual([{ hash: 'h1', id: 1 }, { hash: 'h2', id: 2 }]);
      expect(store.claimHash('h2', 9)).toBe(2);
      expect(store.claimHash('h1', 9)).toBe(1);
      expect(store.claimHash('h3', 9)).toBe(9);
    } finally {
      store.close();
    }
  });
});
