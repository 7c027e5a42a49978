import http from 'node:http';
import zlib from 'node:zlib';
import { Parser } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROKEN_HTML_LINKS,
  BROKEN_HTML_NOT_LINKS,
  FAULT_HOSTS,
  FAULT_KINDS,
  generateWeb,
  LATIN1_TITLES,
  TestWebServer,
} from '../../core/testweb/index.js';
import { get, hrefs, sleep } from './http-helper.js';

const H = FAULT_HOSTS;

/** Reads a response for `ms` and reports what arrived without waiting for the end. */
function partial(port: number, host: string, path: string, ms: number) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: number; ended: boolean }>((resolve, reject) => {
    const out = { status: 0, headers: {} as http.IncomingHttpHeaders, bytes: 0, ended: false };
    const req = http.get({ host: '127.0.0.1', port, path, agent: false, headers: { host: `${host}:${port}` } }, (res) => {
      out.status = res.statusCode ?? 0;
      out.headers = res.headers;
      res.on('data', (b: Buffer) => (out.bytes += b.length));
      res.on('end', () => (out.ended = true));
      res.on('error', () => {});
    });
    req.on('error', (e) => (out.status ? undefined : reject(e)));
    setTimeout(() => {
      req.destroy();
      resolve(out);
    }, ms);
  });
}

describe('fault sites', () => {
  const web = generateWeb({ seed: 1, sites: 10, pages: 200, faults: true });
  const server = new TestWebServer(web, { timeFactor: 0.05 });
  let port = 0;
  beforeAll(async () => {
    port = await server.start();
  });
  afterAll(() => server.stop());

  it('exports one host per fault, each linked from the portal', () => {
    expect(Object.keys(H).sort()).toEqual([...FAULT_KINDS].sort());
    const portalLinks = new Set([...web.outLinks(0)].map((t) => web.sites[web.siteOf(t)]!.host));
    for (const host of Object.values(H)) expect(portalLinks.has(host)).toBe(true);
  });

  it('stall-headers never answers (the client hits its headers timeout)', async () => {
    await expect(get(port, H['stall-headers'], '/', { timeoutMs: 300 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    await sleep(30);
    const e = server.requests.find((r) => r.host === H['stall-headers'])!;
    expect(e.status).toBe(0);
    expect(e.tEnd - e.t).toBeGreaterThanOrEqual(250);
  });

  it('stall-body sends headers and part of the body, then stalls', async () => {
    const r = await partial(port, H['stall-body'], '/', 300);
    expect(r.status).toBe(200);
    expect(r.headers['content-length']).toBe('100000');
    expect(r.bytes).toBe(2000);
    expect(r.ended).toBe(false);
  });

  it('reset destroys the connection', async () => {
    await expect(get(port, H.reset, '/', { timeoutMs: 2000 })).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('redirect-loop bounces /a and /b forever', async () => {
    expect(hrefs((await get(port, H['redirect-loop'], '/')).body.toString())).toEqual(['/a']);
    const a = await get(port, H['redirect-loop'], '/a');
    const b = await get(port, H['redirect-loop'], '/b');
    expect([a.status, a.headers.location, b.status, b.headers.location]).toEqual([302, '/b', 302, '/a']);
  });

  it('redirect-chain takes 50 redirects to reach a page', async () => {
    let path = '/r/0';
    let hops = 0;
    for (;;) {
      const r = await get(port, H['redirect-chain'], path);
      if (r.status !== 301) {
        expect(r.status).toBe(200);
        break;
      }
      path = r.headers.location!;
      hops++;
    }
    expect([hops, path]).toEqual([50, '/r/50']);
  });

  it('calendar links month to month forever, dynamic and static', async () => {
    expect(hrefs((await get(port, H.calendar, '/')).body.toString())).toEqual(['/cal?y=2024&m=3', '/cal/2024/03/']);
    let dyn = '/cal?y=2024&m=3';
    let stat = '/cal/2024/03/';
    for (let i = 0; i < 40; i++) {
      const d = hrefs((await get(port, H.calendar, dyn)).body.toString());
      const s = hrefs((await get(port, H.calendar, stat)).body.toString());
      dyn = d[1]!;
      stat = s[1]!;
    }
    expect(dyn).toBe('/cal?y=2027&m=7');
    expect(stat).toBe('/cal/2027/07/');
    expect(hrefs((await get(port, H.calendar, '/cal?y=2024&m=3')).body.toString())[0]).toBe('/cal?y=2024&m=2');
  });

  it('session puts fresh ids in every link of ~20 real pages', async () => {
    const a = hrefs((await get(port, H.session, '/p?id=3')).body.toString());
    const b = hrefs((await get(port, H.session, '/p?id=3')).body.toString());
    expect(a).toHaveLength(5);
    expect(a.some((h) => /PHPSESSID=[0-9a-f]{32}$/.test(h))).toBe(true);
    expect(a.some((h) => /;jsessionid=[0-9A-F]{24}$/.test(h))).toBe(true);
    expect(a.filter((h) => b.includes(h))).toEqual([]);
    // Crawled with session ids stripped, the site is finite.
    const strip = (h: string) => h.replace(/[&?]PHPSESSID=[^&]*/, '').replace(/;jsessionid=[^?]*/, '');
    const seen = new Set(['/']);
    const queue = ['/'];
    while (queue.length) {
      const r = await get(port, H.session, queue.shift()!);
      expect(r.status).toBe(200);
      for (const h of hrefs(r.body.toString()).map(strip)) if (!seen.has(h) && seen.add(h)) queue.push(h);
    }
    expect(seen.size).toBeLessThanOrEqual(41);
    expect(seen.size).toBeGreaterThan(20);
    expect((await get(port, H.session, '/p/7;jsessionid=ABC')).status).toBe(200);
  });

  it('huge streams an endless body and a 50 MB one', async () => {
    const endless = await get(port, H.huge, '/endless', { maxBytes: 3 << 20 });
    expect(endless.headers['content-length']).toBeUndefined();
    expect(endless.headers['transfer-encoding']).toBe('chunked');
    expect(endless.body.length).toBeGreaterThanOrEqual(3 << 20);
    const big = await get(port, H.huge, '/big', { maxBytes: 1 << 20 });
    expect(big.headers['content-length']).toBe(String(50 * 1024 * 1024));
  });

  it('gzip-bomb sends ~1 MB of gzip that inflates to 1 GiB, and a brotli bomb', async () => {
    const t0 = performance.now();
    const gz = await get(port, H['gzip-bomb'], '/bomb');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body.length).toBeLessThan(1.2e6);
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(() => zlib.gunzipSync(gz.body, { maxOutputLength: 64 << 20 })).toThrow(RangeError);
    const inflated = await new Promise<number>((resolve, reject) => {
      let n = 0;
      const z = zlib.createGunzip();
      z.on('data', (b: Buffer) => (n += b.length));
      z.on('end', () => resolve(n));
      z.on('error', reject); // a bad CRC or length would fail here
      z.end(gz.body);
    });
    expect(inflated).toBe(1 << 30);
    const br = await get(port, H['gzip-bomb'], '/bomb-br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.length).toBeLessThan(400_000);
    expect(() => zlib.brotliDecompressSync(br.body, { maxOutputLength: 64 << 20 })).toThrow(RangeError);
  });

  it('binary serves pdf, png and octet-stream', async () => {
    const types = await Promise.all(
      ['/report.pdf', '/logo.png', '/data.bin', '/photo.html'].map(async (p) => (await get(port, H.binary, p)).headers['content-type']),
    );
    expect(types).toEqual(['application/pdf', 'image/png', 'application/octet-stream', 'image/png']);
  });

  it('broken-html still yields its links to a tolerant parser, and they all exist', async () => {
    const html = (await get(port, H['broken-html'], '/')).body.toString();
    let base = `http://${H['broken-html']}:${port}/`;
    const raw: string[] = [];
    new Parser(
      {
        onopentag(name, attrs) {
          if (name === 'base' && attrs.href) base = new URL(attrs.href, base).href;
          else if ((name === 'a' || name === 'area') && attrs.href) raw.push(attrs.href);
          else if ((name === 'frame' || name === 'iframe') && attrs.src) raw.push(attrs.src);
        },
      },
      { decodeEntities: true, lowerCaseAttributeNames: true },
    ).end(html);
    const found = raw
      .map((h) => new URL(h, base))
      .filter((u) => u.protocol === 'http:' && u.hash === '')
      .map((u) => u.pathname + u.search);
    expect(found).toEqual(expect.arrayContaining([...BROKEN_HTML_LINKS]));
    for (const p of BROKEN_HTML_NOT_LINKS) expect(found).not.toContain(p);
    for (const p of BROKEN_HTML_LINKS) expect((await get(port, H['broken-html'], p)).status).toBe(200);
  });

  it('latin1 serves windows-1252 (header) and Shift_JIS (meta only) pages', async () => {
    const cp = await get(port, H.latin1, '/cp1252.html');
    expect(cp.headers['content-type']).toBe('text/html; charset=windows-1252');
    const c1: Record<number, string> = { 0x80: '€', 0x93: '“', 0x94: '”', 0x96: '–' };
    const text = [...cp.body].map((b) => c1[b] ?? String.fromCharCode(b)).join('');
    expect(text).toContain(`<title>${LATIN1_TITLES['/cp1252.html']}</title>`);
    expect(cp.body.includes(Buffer.from('é', 'utf8'))).toBe(false);
    for (const p of ['/sjis-meta.html', '/sjis-equiv.html'] as const) {
      const r = await get(port, H.latin1, p);
      expect(r.headers['content-type']).toBe('text/html');
      const decoded = new TextDecoder('shift_jis').decode(r.body);
      expect(decoded).toContain(`<title>${LATIN1_TITLES[p]}</title>`);
      expect(decoded).toMatch(/charset="?Shift_JIS/);
    }
  });

  it('slow answers after 2 s times the timeFactor', async () => {
    const t = performance.now();
    const r = await get(port, H.slow, '/');
    expect(r.status).toBe(200);
    expect(performance.now() - t).toBeGreaterThanOrEqual(95); // 2000 ms * 0.05
  });

  it('robots500 and robots404 answer robots.txt with 500 and 404', async () => {
    expect((await get(port, H.robots500, '/robots.txt')).status).toBe(500);
    expect((await get(port, H.robots404, '/robots.txt')).status).toBe(404);
    expect((await get(port, H.robots404, '/open/1')).status).toBe(200);
    expect((await get(port, H['stall-headers'], '/robots.txt')).status).toBe(200);
  });

  it('error5xx: flaky pages 503 twice with Retry-After then 200; /always500 always 500', async () => {
    const flaky = [];
    for (let i = 0; i < 3; i++) flaky.push(await get(port, H.error5xx, '/flaky/1'));
    expect(flaky.map((r) => r.status)).toEqual([503, 503, 200]);
    expect(flaky[0]!.headers['retry-after']).toBe('1');
    for (let i = 0; i < 3; i++) expect((await get(port, H.error5xx, '/always500')).status).toBe(500);
  });

  it('ratelimit: 429 with Retry-After on the first request of each page', async () => {
    const a = await get(port, H.ratelimit, '/p/2');
    const b = await get(port, H.ratelimit, '/p/2');
    expect([a.status, a.headers['retry-after'], b.status]).toEqual([429, '1', 200]);
    expect((await get(port, H.ratelimit, '/p/3')).status).toBe(429);
  });
});

describe('fault sites seen through undici (what the fetcher will meet)', () => {
  const web = generateWeb({ seed: 1, sites: 3, pages: 30, faults: true });
  const server = new TestWebServer(web);
  let port = 0;
  beforeAll(async () => {
    port = await server.start();
  });
  afterAll(() => server.stop());

  it('raises headers timeout, body timeout and socket errors', async () => {
    const { Agent, request } = await import('undici');
    const agent = new Agent({ headersTimeout: 200, bodyTimeout: 200 });
    // undici checks its timeouts on a coarse (~1 s) timer wheel, so each stall takes ~1 s here.
    const fetchCode = async (host: string) => {
      try {
        const r = await request(`http://127.0.0.1:${port}/`, { headers: { host: `${host}:${port}` }, dispatcher: agent });
        await r.body.arrayBuffer();
        return `status ${r.statusCode}`;
      } catch (e) {
        return (e as { code?: string }).code;
      }
    };
    expect(await fetchCode(H['stall-headers'])).toBe('UND_ERR_HEADERS_TIMEOUT');
    expect(await fetchCode(H['stall-body'])).toBe('UND_ERR_BODY_TIMEOUT');
    expect(['UND_ERR_SOCKET', 'ECONNRESET']).toContain(await fetchCode(H.reset));
    expect(await fetchCode(H.robots404)).toBe('status 200');
    await agent.close();
  });
});
