import http from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpDir } from '../helpers/tmp.js';
import { generateWeb, handWeb, TestWebServer, type RobotsKind } from '../../core/testweb/index.js';
import { get, sleep } from './http-helper.js';

/** Followable link targets of a served page, resolved, and the nofollow ones apart. */
function links(html: string, base: string): { follow: string[]; nofollow: string[] } {
  const follow: string[] = [];
  const nofollow: string[] = [];
  for (const m of html.matchAll(/<a\s([^>]*)>/g)) {
    const href = /href="([^"]*)"/.exec(m[1]!)![1]!.replace(/&amp;/g, '&');
    (/rel=("?)nofollow/.test(m[1]!) ? nofollow : follow).push(new URL(href, base).href);
  }
  return { follow, nofollow };
}

describe('TestWebServer on a generated web', () => {
  const web = generateWeb({ seed: 9, sites: 60, pages: 3_000 });
  const logFile = join(tmpDir('testweb-'), 'log.ndjson');
  const server = new TestWebServer(web, { logFile });
  let port = 0;
  beforeAll(async () => {
    port = await server.start();
  });
  afterAll(() => server.stop());
  const hostOf = (id: number) => web.sites[web.siteOf(id)]!.host;

  it('serves pages whose links are exactly the graph out-links', async () => {
    let nofollowSeen = 0;
    for (let id = 0; id < 300; id++) {
      const r = await get(port, hostOf(id), web.path(id));
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toBe(web.contentType(id));
      if (!web.contentType(id).startsWith('text/html')) {
        expect(r.body.length).toBe(web.size(id));
        continue;
      }
      const html = r.body.toString('utf8');
      expect(r.body.length).toBeGreaterThanOrEqual(web.size(id));
      expect(html).toContain(`<title>${web.title(id)}</title>`);
      const { follow, nofollow } = links(html, server.url(id));
      expect(follow).toEqual([...web.outLinks(id)].map((t) => server.url(t)));
      nofollowSeen += nofollow.length;
      if (web.outLinks(id).length < 20) expect(r.body.length).toBe(web.size(id));
    }
    expect(nofollowSeen).toBeGreaterThan(0);
  });

  it('uses a mix of href forms', async () => {
    const r = await get(port, hostOf(0), '/');
    const html = r.body.toString();
    expect(html).toMatch(/href="\/[^/]/); // root-relative
    expect(html).toMatch(new RegExp(`href="http://[^"]+:${port}/`)); // absolute with port
  });

  it('serves non-HTML pages with their magic bytes', async () => {
    const pdf = Array.from({ length: web.pageCount }, (_, i) => i).find((i) => web.contentType(i) === 'application/pdf')!;
    const r = await get(port, hostOf(pdf), web.path(pdf));
    expect(r.headers['content-type']).toBe('application/pdf');
    expect(r.body.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('answers 404 for unknown paths and hosts, and HEAD without a body', async () => {
    expect((await get(port, hostOf(0), '/nope-77777.html')).status).toBe(404);
    expect((await get(port, 'unknown.demo', '/')).status).toBe(404);
    const head = await get(port, hostOf(0), '/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
    expect(head.body.length).toBe(0);
  });

  it('serves every robots.txt kind', async () => {
    const expected: Record<RobotsKind, (r: Awaited<ReturnType<typeof get>>) => void> = {
      'allow-all': (r) => expect([r.status, r.body.toString()]).toEqual([200, 'User-agent: *\nDisallow:\n']),
      'disallow-private': (r) => expect(r.body.toString()).toContain('Disallow: /private/'),
      'not-found': (r) => expect(r.status).toBe(404),
      'server-error': (r) => expect(r.status).toBe(500),
      'crawl-delay': (r) => expect(r.body.toString()).toContain('Crawl-delay: 1'),
      'agent-groups': (r) => expect(r.body.toString()).toMatch(/User-agent: crawlbench\nDisallow: \/no-crawlbench\/\n\nUser-agent: \*\nDisallow: \/\n/),
      redirect: (r) => expect([r.status, r.headers.location]).toEqual([301, '/robots-real.txt']),
    };
    const big = generateWeb({ seed: 9, sites: 400, pages: 4_000 });
    const srv = new TestWebServer(big);
    const p = await srv.start();
    try {
      for (const kind of Object.keys(expected) as RobotsKind[]) {
        const site = big.sites.find((s) => s.robots === kind);
        expect(site, kind).toBeDefined();
        expected[kind](await get(p, site!.host, '/robots.txt'));
        if (kind === 'redirect') {
          const real = await get(p, site!.host, '/robots-real.txt');
          expect(real.body.toString()).toContain('Disallow: /private/');
        }
      }
    } finally {
      await srv.stop();
    }
  });

  it('logs every request with times, host, connection, status and bytes (memory and NDJSON)', async () => {
    const before = server.requests.length;
    const t0 = performance.timeOrigin + performance.now();
    await get(port, hostOf(1), web.path(1));
    const e = server.requests[before]!;
    expect(e.host).toBe(hostOf(1));
    expect(e.path).toBe(web.path(1));
    expect(e.status).toBe(200);
    expect(e.t).toBeGreaterThanOrEqual(t0);
    expect(e.tEnd).toBeGreaterThanOrEqual(e.t);
    expect(e.tEnd).toBeLessThanOrEqual(performance.timeOrigin + performance.now());
    expect(e.bytes).toBeGreaterThan(0);
    expect(server.connections.get(e.connId)?.host).toBe(hostOf(1));
    await sleep(50);
    const lines = readFileSync(logFile, 'utf8').trim().split('\n');
    expect(lines.length).toBe(server.requests.length);
    expect(JSON.parse(lines[before]!)).toEqual(e);
  });

  it('handles thousands of requests per second over keep-alive', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    const t0 = performance.now();
    const n = 3_000;
    let next = 0;
    const worker = async () => {
      while (next < n) {
        const id = next++ % 1000;
        await get(port, web.sites[0]!.host, web.path(web.sites[0]!.first + (id % web.sites[0]!.count)), { agent });
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    const rate = n / ((performance.now() - t0) / 1000);
    console.log(`[testweb] ${n} requests at ${rate.toFixed(0)} req/s`);
    agent.destroy();
    expect(rate).toBeGreaterThan(300); // loose: the client shares the CPU (and CI boxes are busy)
  });
});

describe('TestWebServer on a hand web', () => {
  const web = handWeb([
    {
      host: 'a.test',
      keepAliveMax: 3,
      pages: [
        { path: '/', title: 'A home', links: ['/one.html', 'two.html', 'http://b.test/', { href: '/secret.html', rel: 'nofollow' }, '/missing.html'] },
        { path: '/one.html', latencyMs: 120 },
        { path: '/two.html', bodyBytes: 5_000 },
        { path: '/secret.html' },
      ],
    },
    { host: 'b.test', keepAliveMax: 1, latencyMs: 150, robotsTxt: 'User-agent: *\nDisallow: /x/\n', pages: [{ path: '/', links: ['http://a.test/'] }] },
    { host: 'c.test', robotsTxt: { status: 503 }, bytesPerSec: 100_000, pages: [{ path: '/', bodyBytes: 30_000 }] },
  ]);
  const server = new TestWebServer(web);
  let port = 0;
  beforeAll(async () => {
    port = await server.start();
  });
  afterAll(() => server.stop());

  it('renders links as written, with the port added to absolute ones', async () => {
    const r = await get(port, 'a.test', '/');
    const html = r.body.toString();
    expect(html).toContain('<title>A home</title>');
    expect(html).toContain('href="two.html"');
    expect(html).toContain(`href="http://b.test:${port}/"`);
    expect(html).toContain('href="/secret.html" rel="nofollow"');
    expect([...web.outLinks(0)].map((t) => web.path(t))).toEqual(['/one.html', '/two.html', '/']);
    expect(web.siteOf(web.outLinks(0)[2]!)).toBe(1);
    expect((await get(port, 'a.test', '/missing.html')).status).toBe(404);
    expect((await get(port, 'a.test', '/two.html')).body.length).toBe(5_000);
  });

  it('serves the hand-written robots.txt', async () => {
    expect((await get(port, 'b.test', '/robots.txt')).body.toString()).toBe('User-agent: *\nDisallow: /x/\n');
    expect((await get(port, 'c.test', '/robots.txt')).status).toBe(503);
    expect((await get(port, 'a.test', '/robots.txt')).status).toBe(200);
  });

  it('closes a connection after keepAliveMax requests', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const before = server.requests.length;
    const rs = [];
    for (let i = 0; i < 4; i++) rs.push(await get(port, 'a.test', '/two.html', { agent }));
    expect(rs.map((r) => r.headers.connection)).toEqual(['keep-alive', 'keep-alive', 'close', 'keep-alive']);
    const conns = server.requests.slice(before).map((e) => e.connId);
    expect(conns[0]).toBe(conns[1]);
    expect(conns[1]).toBe(conns[2]);
    expect(conns[3]).not.toBe(conns[2]);
    expect(server.connections.get(conns[0]!)!.requests).toBe(3);
    agent.destroy();
  });

  it('answers keepAliveMax=1 sites with Connection: close every time, each on a new connection', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const before = server.requests.length;
    const r1 = await get(port, 'b.test', '/', { agent });
    const r2 = await get(port, 'b.test', '/', { agent });
    expect([r1.headers.connection, r2.headers.connection]).toEqual(['close', 'close']);
    const [e1, e2] = server.requests.slice(before);
    expect(e2!.connId).not.toBe(e1!.connId);
    await sleep(20);
    expect(server.connections.get(e1!.connId)!.closedAt).not.toBeNull();
    agent.destroy();
  });

  it('applies site and page latency before the headers, scaled by timeFactor', async () => {
    let t = performance.now();
    await get(port, 'b.test', '/');
    expect(performance.now() - t).toBeGreaterThanOrEqual(145);
    t = performance.now();
    await get(port, 'a.test', '/one.html');
    expect(performance.now() - t).toBeGreaterThanOrEqual(115);
    const fast = new TestWebServer(web, { timeFactor: 0 });
    const p = await fast.start();
    t = performance.now();
    await get(p, 'b.test', '/');
    expect(performance.now() - t).toBeLessThan(100);
    await fast.stop();
  });

  it('paces bodies to the site bandwidth', async () => {
    const t = performance.now();
    const r = await get(port, 'c.test', '/');
    const ms = performance.now() - t;
    expect(r.body.length).toBe(30_000);
    expect(ms).toBeGreaterThanOrEqual(290); // 30 KB at 100 KB/s
    const e = server.requests.at(-1)!;
    expect(e.bytes).toBe(30_000);
    expect(e.tEnd - e.t).toBeGreaterThanOrEqual(290);
    expect(e.tEnd - e.t).toBeLessThan(600);
  });

  it('closes idle keep-alive connections after keepAliveTimeoutMs', async () => {
    const srv = new TestWebServer(web, { keepAliveTimeoutMs: 100 });
    const p = await srv.start();
    const agent = new http.Agent({ keepAlive: true });
    await get(p, 'a.test', '/', { agent });
    expect(srv.openConnections()).toBe(1);
    await sleep(400);
    expect(srv.openConnections()).toBe(0);
    agent.destroy();
    await srv.stop();
  });

  it('counts open connections and closes them all on stop', async () => {
    const srv = new TestWebServer(web);
    const p = await srv.start();
    const agent = new http.Agent({ keepAlive: true });
    await get(p, 'a.test', '/', { agent });
    expect(srv.openConnections()).toBe(1);
    await srv.stop();
    expect(srv.openConnections()).toBe(0);
    expect([...srv.connections.values()].every((c) => c.closedAt !== null)).toBe(true);
    agent.destroy();
  });
});
