import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../core/errors.js';
import { SITEMAP_MAX_BYTES, SitemapReader, type SitemapEntry, type SitemapLimits } from '../../core/parse/sitemap-reader.js';
import { sitemapBomb } from '../../core/testweb/sitemaps.js';

const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const urlset = (locs: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NS}">${locs.map((l, i) => `<url><loc> ${l} </loc>${i === 0 ? '<lastmod>2024-03-01</lastmod>' : ''}</url>`).join('')}</urlset>`;

/** Feeds `body` to a reader `chunk` bytes at a time, as a connection would, until it wants no more. */
async function read(body: Buffer | string, opts: { limits?: Partial<SitemapLimits>; encoding?: string; gzip?: boolean; chunk?: number; stopAfter?: number } = {}) {
  const entries: SitemapEntry[] = [];
  const limits = { maxEntries: 50_000, maxBytes: SITEMAP_MAX_BYTES, ...opts.limits };
  const r = new SitemapReader(limits, opts.encoding, opts.gzip ?? false, (e) => {
    entries.push(e);
    return opts.stopAfter === undefined || entries.length < opts.stopAfter;
  });
  const buf = typeof body === 'string' ? Buffer.from(body) : body;
  const step = opts.chunk ?? 5;
  let cut = false;
  for (let i = 0; i < buf.length; i += step) {
    if (!(await r.write(buf.subarray(i, i + step)))) {
      cut = true;
      break;
    }
  }
  const result = cut ? r.result : await r.end();
  if (cut) r.abandon();
  return { entries, result, cut };
}

describe('SitemapReader', () => {
  it('reads a urlset as it arrives, in pieces of any size: each <loc> trimmed, with its <lastmod>', async () => {
    for (const chunk of [1, 7, 4096]) {
      const { entries, result } = await read(urlset(['http://a.test/x', 'http://a.test/y']), { chunk });
      expect(entries).toEqual([
        { kind: 'url', loc: 'http://a.test/x', lastmod: '2024-03-01' },
        { kind: 'url', loc: 'http://a.test/y', lastmod: null },
      ]);
      expect(result).toMatchObject({ root: 'urlset', urls: 2, sitemaps: 0, gzip: false, problem: null });
    }
  });

  it('reads a sitemap index, namespace prefixes and CDATA included', async () => {
    const xml = `<sm:sitemapindex xmlns:sm="${NS}"><sm:sitemap><sm:loc><![CDATA[http://a.test/s1.xml]]></sm:loc><sm:lastmod>2024-01-02</sm:lastmod></sm:sitemap></sm:sitemapindex>`;
    const { entries, result } = await read(xml);
    expect(entries).toEqual([{ kind: 'sitemap', loc: 'http://a.test/s1.xml', lastmod: '2024-01-02' }]);
    expect(result).toMatchObject({ root: 'sitemapindex', sitemaps: 1, problem: null });
  });

  it('gunzips a gzip file, and undoes a Content-Encoding, alone or both', async () => {
    const xml = urlset(['http://a.test/z']);
    for (const [body, encoding, gzip] of [
      [zlib.gzipSync(xml), undefined, true],
      [zlib.brotliCompressSync(xml), 'br', false],
      [zlib.deflateSync(xml), 'deflate', false],
      [zlib.gzipSync(zlib.gzipSync(xml)), 'gzip', true],
    ] as const) {
      const { entries, result } = await read(body, { encoding });
      expect(entries.map((e) => e.loc)).toEqual(['http://a.test/z']);
      expect(result.gzip).toBe(gzip);
      expect(result.problem).toBeNull();
    }
  });

  it('takes a .gz that a server decompressed on the way (plain XML) as XML', async () => {
    const { result } = await read(urlset(['http://a.test/q']), { gzip: true });
    expect(result).toMatchObject({ urls: 1, problem: null });
  });

  it('a file said to be gzip that is neither gzip nor XML, or a gzip cut short: CRAWL_SITEMAP_NOT_GZIP', async () => {
    expect((await read('just text', { gzip: true })).result.problem?.code).toBe(ErrorCodes.SITEMAP_NOT_GZIP);
    const cut = zlib.gzipSync(urlset(['http://a.test/q'])).subarray(0, 40);
    expect((await read(cut)).result.problem?.code).toBe(ErrorCodes.SITEMAP_NOT_GZIP);
  });

  it('XML that is not well-formed, or not a sitemap, or nothing: CRAWL_SITEMAP_MALFORMED, the entries before kept', async () => {
    const broken = urlset(['http://a.test/1']).replace('</urlset>', '<url><loc>http://a.test/2?a=1&b=2</loc></url></urlset>');
    const r1 = await read(broken);
    expect(r1.result.problem?.code).toBe(ErrorCodes.SITEMAP_MALFORMED);
    expect(r1.entries.map((e) => e.loc)).toEqual(['http://a.test/1']);
    expect((await read('<html><body>Not here</body></html>')).result.problem?.code).toBe(ErrorCodes.SITEMAP_MALFORMED);
    expect((await read('')).result.problem?.code).toBe(ErrorCodes.SITEMAP_MALFORMED);
    expect((await read(urlset(['http://a.test/1']).slice(0, -12))).result.problem?.code).toBe(ErrorCodes.SITEMAP_MALFORMED);
  });

  it('stops at the entry limit: CRAWL_SITEMAP_TOO_LARGE, the entries up to it kept, the rest not read', async () => {
    const locs = Array.from({ length: 50 }, (_, i) => `http://a.test/${i}`);
    const { entries, result, cut } = await read(urlset(locs), { limits: { maxEntries: 10 } });
    expect(entries).toHaveLength(10);
    expect(result).toMatchObject({ urls: 10, problem: { code: ErrorCodes.SITEMAP_TOO_LARGE } });
    expect(cut).toBe(true);
  });

  it('stops at the byte limit, counted in XML bytes after decompression', async () => {
    const xml = urlset(['http://a.test/1']).replace('</urlset>', `${' '.repeat(10_000)}</urlset>`);
    const { result, cut } = await read(zlib.gzipSync(xml), { limits: { maxBytes: 2000 }, chunk: 64 });
    expect(result.problem?.code).toBe(ErrorCodes.SITEMAP_TOO_LARGE);
    expect(result.decodedBytes).toBe(2000);
    expect(result.urls).toBe(1);
    expect(cut).toBe(true);
  });

  it('a gzip bomb (1 GiB of spaces in ~1 MB) costs the 50 MB limit, fast, and no more memory than that', async () => {
    const bomb = sitemapBomb('http://bomb.test');
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const rss = process.memoryUsage.rss();
    const started = performance.now();
    const { result, entries } = await read(bomb, { chunk: 64 * 1024 });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(result.problem?.code).toBe(ErrorCodes.SITEMAP_TOO_LARGE);
    expect(result.decodedBytes).toBe(SITEMAP_MAX_BYTES);
    expect(entries).toHaveLength(1);
    expect(process.memoryUsage.rss() - rss).toBeLessThan(400 * 1024 * 1024);
  });

  it('stops when the caller says so', async () => {
    const { entries, result, cut } = await read(urlset(['http://a.test/1', 'http://a.test/2', 'http://a.test/3']), { stopAfter: 2 });
    expect(entries).toHaveLength(2);
    expect(result.stoppedByCaller).toBe(true);
    expect(result.problem).toBeNull();
    expect(cut).toBe(true);
  });

  it('an unknown Content-Encoding is refused before any byte is read', async () => {
    const { result, entries } = await read(urlset(['http://a.test/1']), { encoding: 'zstd-x' });
    expect(result.problem?.code).toBe(ErrorCodes.BAD_ENCODING);
    expect(entries).toEqual([]);
  });
});
