import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { generateWeb, seedUrls } from '../../core/testweb/generator.js';
import { politenessViolations } from '../helpers/politeness.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, serve, testSettings } from '../helpers/web.js';

const dir = tmpDir();

/**
 * Crawls a generated national web twice (c = 1 and keep-alive with c = 4) and checks, from
 * the server's own log, every politeness rule of design.md section 2 and robots.txt.
 */
describe('politeness, seen from the server', async () => {
  const web = generateWeb({ seed: 11, sites: 40, pages: 1200, latency: { maxMs: 4 } });
  const { server, port } = await serve(web);
  const robotsOf = new Map(web.sites.map((s) => [s.host, s.robots]));
  const crawlDelayHosts = web.sites.filter((s) => s.robots === 'crawl-delay');

  it('the chosen web keeps Crawl-delay sites small enough for a quick test', () => {
    expect(crawlDelayHosts.length).toBeGreaterThan(0);
    for (const s of crawlDelayHosts) expect(s.count).toBeLessThanOrEqual(12);
  });

  for (const { c, w } of [
    { c: 1, w: 30 },
    { c: 4, w: 60 },
  ]) {
    it(`c = ${c}, w = ${w} ms: one connection per site, w between connections, at most c requests each`, async () => {
      const before = server.requests.length;
      const db = join(dir, `polite-c${c}.db`);
      const summary = await crawl(db, testSettings(seedUrls(web, port), { c, w, r: 16 }));
      expect(summary.stopReason).toBe('finished');
      const requests = server.requests.slice(before);
      const conns = new Map([...server.connections].filter(([id]) => requests.some((r) => r.connId === id)));
      const violations = politenessViolations(requests, conns, {
        w,
        c,
        wFor: (host) => (robotsOf.get(host) === 'crawl-delay' ? 1000 : w),
      });
      expect(violations).toEqual([]);
      if (c > 1) {
        // Keep-alive is really used where the server allows it.
        const perConn = new Map<number, number>();
        for (const r of requests) perConn.set(r.connId, (perConn.get(r.connId) ?? 0) + 1);
        expect(Math.max(...perConn.values())).toBe(c);
      }

      // robots.txt: nothing it disallows is ever requested.
      for (const r of requests) {
        const kind = robotsOf.get(r.host);
        if (kind === 'disallow-private' || kind === 'redirect') expect(r.path).not.toMatch(/^\/private\//);
        if (kind === 'agent-groups') expect(r.path).not.toMatch(/^\/no-crawlbench\//);
      }
      // A site whose robots.txt answers 500 gets asked for robots.txt and nothing else.
      const broken = web.sites.filter((s) => s.robots === 'server-error');
      expect(broken.length).toBeGreaterThan(0);
      for (const s of broken) {
        const asked = requests.filter((r) => r.host === s.host);
        expect(asked.length).toBeGreaterThan(0);
        expect(asked.every((r) => r.path === '/robots.txt')).toBe(true);
      }
      // The agent-groups site was crawled under its crawlbench group, not shut out by '*'.
      for (const s of web.sites.filter((x) => x.robots === 'agent-groups' && x.count > 4)) {
        expect(requests.filter((r) => r.host === s.host && r.path !== '/robots.txt').length).toBeGreaterThan(0);
      }

      // Every request in the log is a page the database holds as fetched (or robots.txt).
      const store = CrawlStore.open(db, { readonly: true });
      const fetched = store.db.prepare('SELECT count(*) FROM pages WHERE fetch_seq IS NOT NULL').pluck().get() as number;
      const disallowed = store.db.prepare("SELECT count(*) FROM pages WHERE status = 'disallowed'").pluck().get() as number;
      store.close();
      const pageRequests = requests.filter((r) => !r.path.startsWith('/robots')).length;
      expect(pageRequests).toBe(fetched);
      expect(disallowed).toBeGreaterThan(0);
    });
  }
});

describe('robots.txt redirects keep w', async () => {
  // A site whose robots.txt answers 301 and whose server closes every connection after one
  // request: following the redirect takes a second connection, which must wait w like any
  // other (bench/politeness-bound once caught it connecting ~50 ms after the first).
  const web = generateWeb({ seed: 5, sites: 8, pages: 160, latency: { maxMs: 2 } });
  const redirecting = web.sites.slice(1, 4);
  for (const s of redirecting) Object.assign(s, { robots: 'redirect', keepAliveMax: 1 });
  const { server, port } = await serve(web);

  it('waits w before the connection that follows the redirect', async () => {
    const w = 150;
    const before = server.requests.length;
    const summary = await crawl(join(dir, 'robots-redirect.db'), testSettings(seedUrls(web, port), { c: 4, w, r: 8 }));
    expect(summary.stopReason).toBe('finished');
    const requests = server.requests.slice(before);
    for (const s of redirecting) {
      const paths = requests.filter((r) => r.host === s.host).map((r) => r.path);
      expect(paths.slice(0, 2)).toEqual(['/robots.txt', '/robots-real.txt']);
    }
    const conns = new Map([...server.connections].filter(([id]) => requests.some((r) => r.connId === id)));
    expect(politenessViolations(requests, conns, { w, c: 4 })).toEqual([]);
  });
});
