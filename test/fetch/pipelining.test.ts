import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../core/errors.js';
import { HttpConnection } from '../../core/fetch/http-connection.js';
import { keepAliveMax } from '../../core/fetch/keep-alive.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { handWeb, TestWebServer } from '../../core/testweb/index.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, testSettings } from '../helpers/web.js';

const limits = (pipeliningDepth: number) => ({
  connectTimeout: 2000,
  headersTimeout: 5000,
  bodyTimeout: 5000,
  requestTimeout: 10_000,
  maxBodyBytes: 1 << 20,
  pipeliningDepth,
});

const pages = (n: number) => [{ path: '/', links: Array.from({ length: n - 1 }, (_, i) => `/${i + 1}`) }, ...Array.from({ length: n - 1 }, (_, i) => ({ path: `/${i + 1}`, title: `page ${i + 1}` }))];

/**
 * HTTP/1.1 pipelining (issue 27, the crawl-ability paper's section 3.1) and what a server says
 * about its connections (Keep-Alive: max, Connection: close), against the test web on loopback.
 */
describe('pipelining and what a server says per connection', () => {
  const web = handWeb([
    // 100 ms before each answer: pipelined requests arrive while earlier answers are still pending.
    { host: 'slow.test', latencyMs: 100, keepAliveHeader: true, pages: pages(8) },
    { host: 'three.test', keepAliveMax: 3, keepAliveHeader: true, pages: pages(6) },
    { host: 'one.test', keepAliveMax: 1, pages: pages(3) },
    { host: 'mute.test', pages: pages(3) },
    // 40 KB at 80 KB/s: about half a second of transfer after headers that come at once.
    { host: 'drip.test', bytesPerSec: 80_000, pages: [{ path: '/', bodyBytes: 40_000 }] },
  ]);
  const server = new TestWebServer(web);
  let port = 0;
  beforeAll(async () => {
    port = await server.start();
  });
  afterAll(() => server.stop());
  const connsTo = (host: string) => [...server.connections.values()].filter((c) => c.host === host);
  const open = (host: string, depth = 1) => new HttpConnection(`http://${host}:${port}`, '127.0.0.1', limits(depth), 'test', null);

  it('with depth 4, four requests overlap on one connection and come back in order', async () => {
    const before = connsTo('slow.test').length;
    const conn = open('slow.test', 4);
    const replies = await Promise.all(['/1', '/2', '/3', '/4'].map((p) => conn.request(p)));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    // Each body is its own page, and responses ended in the order asked.
    replies.forEach((r, i) => expect(r.body.toString()).toContain(`page ${i + 1}`));
    for (let i = 1; i < replies.length; i++) expect(replies[i]!.endedAt).toBeGreaterThanOrEqual(replies[i - 1]!.endedAt);
    await conn.close();
    const conns = connsTo('slow.test').slice(before);
    expect(conns).toHaveLength(1);
    expect(conns[0]!.requests).toBe(4);
    // The server saw requests arrive before the previous response was finished.
    expect(conns[0]!.overlapped).toBeGreaterThanOrEqual(1);
    expect(conn.pipelined).toBe(true);
  });

  it('without pipelining (depth 1) no request arrives before the previous answer is done', async () => {
    const before = connsTo('slow.test').length;
    const conn = open('slow.test', 1);
    await Promise.all(['/1', '/2', '/3'].map((p) => conn.request(p)));
    await conn.close();
    const conns = connsTo('slow.test').slice(before);
    expect(conns.map((c) => [c.requests, c.overlapped])).toEqual([[3, 0]]);
    expect(conn.pipelined).toBe(false);
  });

  it('learns the limit from Keep-Alive: max, and from Connection: close', async () => {
    const three = open('three.test');
    await three.request('/');
    expect(three.stated).toBe(3); // Keep-Alive: max=2 on the first response: 1 + 2
    await three.request('/1');
    await three.request('/2');
    expect([three.stated, three.open]).toEqual([3, false]); // the third said Connection: close
    await three.close();
    const one = open('one.test');
    await one.request('/');
    expect([one.stated, one.open]).toEqual([1, false]);
    await one.close();
    const mute = open('mute.test');
    await mute.request('/');
    expect([mute.stated, mute.open]).toEqual([null, true]); // said neither
    await mute.close();
  });

  it('requests pipelined past a close fail as a reset, and no second connection is made', async () => {
    const before = connsTo('three.test').length;
    const conn = open('three.test', 5);
    const replies = await Promise.allSettled(['/1', '/2', '/3', '/4', '/5'].map((p) => conn.request(p)));
    expect(replies.slice(0, 3).map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    for (const r of replies.slice(3)) expect(r).toMatchObject({ status: 'rejected', reason: { code: ErrorCodes.CONNECTION_RESET } });
    await conn.close();
    expect(connsTo('three.test').slice(before)).toHaveLength(1);
  });

  it('times the whole transfer, not the time to the headers', async () => {
    const conn = open('drip.test');
    const res = await conn.request('/');
    await conn.close();
    expect(res.headersAt - res.startedAt).toBeLessThan(res.transferMs! / 2);
    expect(res.transferMs!).toBeGreaterThanOrEqual(res.endedAt - res.headersAt);
  });

  it('reads max from Keep-Alive headers as servers write them', () => {
    expect(keepAliveMax('timeout=5, max=100')).toBe(100);
    expect(keepAliveMax('max=7')).toBe(7);
    expect(keepAliveMax(['timeout=5', 'MAX = 3'])).toBe(3);
    expect(keepAliveMax('timeout=5')).toBeNull();
    expect(keepAliveMax(undefined)).toBeNull();
  });
});

describe('a crawl with --pipelining-depth', () => {
  const dir = tmpDir();
  const web = handWeb([
    { host: 'slow.test', latencyMs: 30, keepAliveHeader: true, pages: pages(12) },
    { host: 'three.test', keepAliveMax: 3, keepAliveHeader: true, pages: pages(7) },
    { host: 'drip.test', bytesPerSec: 80_000, pages: [{ path: '/', bodyBytes: 40_000, links: ['/a'] }, { path: '/a', bodyBytes: 40_000 }] },
  ]);
  const server = new TestWebServer(web);
  let port = 0;
  beforeAll(async () => {
    port = await server.start();
  });
  afterAll(() => server.stop());

  function sites(db: string): Map<string, { requestsPerConn: number | null; responseMs: number | null }> {
    const store = CrawlStore.open(db, { readonly: true });
    try {
      const rows = store.db.prepare('SELECT host, requests_per_conn AS requestsPerConn, response_ms AS responseMs FROM sites').all() as Array<{ host: string; requestsPerConn: number | null; responseMs: number | null }>;
      return new Map(rows.map((r) => [r.host, r]));
    } finally {
      store.close();
    }
  }

  it('fetches every page over overlapping requests, keeps to the limit each server says, and records it', async () => {
    const from = server.connections.size;
    const db = join(dir, 'pipelined.db');
    const seeds = ['slow.test', 'three.test', 'drip.test'].map((h) => `http://${h}:${port}/`);
    const summary = await crawl(db, testSettings(seeds, { c: 20, r: 1, pipeliningDepth: 4 }));
    expect(summary.stopReason).toBe('finished');
    expect(summary.pagesFetched).toBe(12 + 7 + 2);
    const conns = [...server.connections.values()].slice(from);
    expect(conns.filter((c) => c.host === 'slow.test').some((c) => c.overlapped > 0)).toBe(true);
    // three.test allows 3 requests per connection: never more on one, whatever c says.
    expect(Math.max(...conns.filter((c) => c.host === 'three.test').map((c) => c.requests))).toBe(3);
    const s = sites(db);
    expect(s.get('three.test')!.requestsPerConn).toBeCloseTo(3, 9);
    // drip.test's answers take ~0.5 s to transfer, their headers come at once: T is the transfer.
    expect(s.get('drip.test')!.responseMs!).toBeGreaterThan(250);
  });

  it('without the flag, requests never overlap', async () => {
    const from = server.connections.size;
    const db = join(dir, 'plain.db');
    const summary = await crawl(db, testSettings([`http://slow.test:${port}/`], { c: 20, r: 1 }));
    expect(summary.pagesFetched).toBe(12);
    const conns = [...server.connections.values()].slice(from);
    expect(conns.every((c) => c.overlapped === 0)).toBe(true);
  });
});
