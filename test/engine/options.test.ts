import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Crawler } from '../../core/engine/crawler.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { handWeb } from '../../core/testweb/hand-web.js';
import { politenessViolations } from '../helpers/politeness.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, serve, testSettings } from '../helpers/web.js';

const dir = tmpDir();

function site(host: string, pages: number, bodyBytes = 2000) {
  return {
    host,
    pages: Array.from({ length: pages }, (_, i) => ({
      path: i === 0 ? '/' : `/p${i}.html`,
      links: i === 0 ? Array.from({ length: pages - 1 }, (_, j) => `/p${j + 1}.html`) : ['/'],
      bodyBytes,
    })),
  };
}

describe('crawl options', async () => {
  const web = handWeb([site('a.test', 30), site('b.test', 30), site('c.test', 30)]);
  const { server, port } = await serve(web);
  const seeds = ['a', 'b', 'c'].map((h) => `http://${h}.test:${port}/`);

  it('--per-ip: sites sharing one address are contacted one at a time, w apart', async () => {
    const before = server.requests.length;
    const summary = await crawl(join(dir, 'per-ip.db'), testSettings(seeds, { perIp: true, w: 20, c: 5, r: 8 }));
    expect(summary.pagesFetched).toBe(90);
    const requests = server.requests.slice(before).map((r) => ({ ...r, host: '127.0.0.1' }));
    expect(politenessViolations(requests, server.connections, { w: 20, c: 5 })).toEqual([]);
    // The address each site resolved to is kept with it (the simulator groups sites by it).
    const store = CrawlStore.open(join(dir, 'per-ip.db'), { readonly: true });
    const ips = store.db.prepare('SELECT host, ip FROM sites ORDER BY host').all();
    store.close();
    expect(ips).toEqual(['a.test', 'b.test', 'c.test'].map((host) => ({ host, ip: '127.0.0.1' })));
  });

  it('without --per-ip the same sites are crawled in parallel', async () => {
    const before = server.requests.length;
    await crawl(join(dir, 'no-per-ip.db'), testSettings(seeds, { w: 20, c: 5, r: 8 }));
    const requests = server.requests.slice(before).map((r) => ({ ...r, host: '127.0.0.1' }));
    expect(politenessViolations(requests, server.connections, { w: 20, c: 5 }).length).toBeGreaterThan(0);
  });

  it('--bandwidth caps the total transfer rate', async () => {
    const big = handWeb([site('big.test', 40, 20_000)]);
    const { server: s2, port: p2 } = await serve(big);
    const summary = await crawl(join(dir, 'bw.db'), testSettings([`http://big.test:${p2}/`], { bandwidth: 100_000, c: 40, r: 4 }));
    const first = Math.min(...s2.requests.map((r) => r.t));
    const last = Math.max(...s2.requests.map((r) => r.tEnd));
    // ~800 KB at 100 KB/s with one second of burst allowed: at least ~6 s.
    expect(summary.bytes).toBeGreaterThan(700_000);
    expect(last - first).toBeGreaterThan(((summary.bytes - 100_000) / 100_000) * 1000 * 0.9);
  });

  it('--store-content keeps raw requests, response headers and bodies for a WARC export', async () => {
    const db = join(dir, 'content.db');
    await crawl(db, testSettings([seeds[0]!], { storeContent: true }));
    const store = CrawlStore.open(db, { readonly: true });
    const rows = store.db.prepare('SELECT c.*, p.url FROM content c JOIN pages p ON p.id = c.page_id').all() as Array<{
      segment: number; offset: number; request_len: number; response_header_len: number; body_len: number; url: string;
    }>;
    store.close();
    expect(rows.length).toBe(30);
    const files = readdirSync(`${db}.content`);
    expect(files.length).toBe(1);
    const bytes = readFileSync(join(`${db}.content`, files[0]!));
    const home = rows.find((r) => r.url.endsWith('/'))!;
    const request = bytes.subarray(home.offset, home.offset + home.request_len).toString('latin1');
    const headers = bytes.subarray(home.offset + home.request_len, home.offset + home.request_len + home.response_header_len).toString('latin1');
    const body = bytes.subarray(home.offset + home.request_len + home.response_header_len, home.offset + home.request_len + home.response_header_len + home.body_len).toString('utf8');
    expect(request).toMatch(/^GET \/ HTTP\/1\.1\r\nhost: a\.test:\d+\r\nconnection: keep-alive\r\n/);
    // As received: the reason phrase, and the header lines as the server wrote them.
    expect(headers).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*content-type: text\/html/);
    expect(body).toContain('href="/p1.html"');
  });

  it('a full disk (here: --max-db-size) pauses the crawl cleanly; it resumes once there is room', async () => {
    const db = join(dir, 'full.db');
    // 1,500 pages with 20-40 links each (a shallow tree, so no depth limit applies):
    // the database outgrows the limit part way.
    const n = 1500;
    const many = handWeb([
      {
        host: 'many.test',
        latencyMs: 2,
        pages: Array.from({ length: n }, (_, i) => ({
          path: i === 0 ? '/' : `/p${i}.html`,
          links: Array.from({ length: 40 }, (_, k) => (k < 20 ? 20 * i + k + 1 : ((i + k) % (n - 1)) + 1))
            .filter((t) => t < n)
            .map((t) => `/p${t}.html`),
          bodyBytes: 500,
        })),
      },
    ]);
    const { server: manyServer, port: p3 } = await serve(many);
    // Every page parsed on the parse thread: its failed write is taken where the session waits for its parsed pages.
    const crawler = Crawler.create(db, testSettings([`http://many.test:${p3}/`], { c: 50, maxDbSize: 600 * 1024 }), { parseInlineFirst: 0 });
    // What a parallel worker follows (parallel/exchange.ts): the writes given up are said, so the
    // messages whose URLs they held go back to the broker instead of being acknowledged with a
    // later commit (the one that records the end, with a writer thread).
    let rolledBack = 0;
    crawler.on('rollback', () => rolledBack++);
    const summary = await crawler.run();
    crawler.close();
    expect(rolledBack).toBeGreaterThan(0);
    expect(summary.stopReason).toBe('disk-full');
    expect(summary.state).toBe('paused');
    expect(summary.pagesFetched).toBeLessThan(n);
    const paused = CrawlStore.open(db, { readonly: true });
    const committed = new Set((paused.db.prepare('SELECT url FROM pages WHERE fetch_seq IS NOT NULL').pluck().all() as string[]).map((u) => new URL(u).pathname));
    paused.close();
    const resumedFrom = manyServer.requests.length;
    expect(existsSync(`${db}.lock`)).toBe(false);
    const resumed = Crawler.open(db, { maxDbSize: 50 * 1024 * 1024 });
    const done = await resumed.run();
    resumed.close();
    expect(done.stopReason).toBe('finished');
    expect(done.pagesFetched).toBe(n);
    // Pages committed before the pause were not fetched again.
    expect(manyServer.requests.slice(resumedFrom).filter((r) => committed.has(r.path))).toEqual([]);
  });
});
