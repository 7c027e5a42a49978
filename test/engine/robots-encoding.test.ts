/**
 * robots.txt sent with a Content-Encoding, or longer than the crawl's body limit (RFC 9309 §2.5; crawlbench asks every server with
 * Accept-Encoding: gzip, deflate, br, and many gzip text/plain): its rules are read once
 * decoded. Before, the encoded bytes were read as the file, no rule was found in them, and a
 * crawl fetched the pages its Disallow lines forbid. The built CLI against a loopback server
 * that answers robots.txt as each case says, and logs what it is asked.
 */
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { crawlbench } from '../helpers/run.js';
import { tmpDir } from '../helpers/tmp.js';

const RULES = 'User-agent: *\nDisallow: /private\n';
const dir = tmpDir('crawlbench-robots-encoding-');
const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

/**
 * A site whose robots.txt is `robots` sent with `encoding` (and `status`; chunked when `length`
 * is false, or ended by closing the connection when `close`); its home links to /private/x and /ok.
 */
async function site(robots: Buffer, encoding: string | null, { status = 200, length = true, close = false } = {}): Promise<{ url: string; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(req.url!);
    if (req.url === '/robots.txt') {
      if (close) res.useChunkedEncodingByDefault = false;
      res.writeHead(status, { 'content-type': 'text/plain', ...(length ? { 'content-length': robots.length } : {}), ...(encoding ? { 'content-encoding': encoding } : {}) });
      return res.end(robots);
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><body><a href="/private/x">private</a> <a href="/ok">ok</a></body></html>');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`, asked };
}

/** A gzip member with a file name in its header (FNAME, RFC 1952 §2.3), as gzip(1) writes one. */
function withFileName(gz: Buffer, name: string): Buffer {
  const head = Buffer.from(gz.subarray(0, 10));
  head[3] = head[3]! | 8;
  return Buffer.concat([head, Buffer.from(`${name}\0`, 'latin1'), gz.subarray(10)]);
}

async function crawl(name: string, seed: string, more: string[] = []) {
  const r = await crawlbench(['crawl', '--db', join(dir, `${name}.db`), '--seed', seed, '--w', '0', '--quiet', ...more]);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

describe('robots.txt with a Content-Encoding', () => {
  const cases: Array<[string, Buffer, string]> = [
    ['gzip', gzipSync(RULES), 'gzip'],
    ['deflate (zlib)', deflateSync(RULES), 'deflate'],
    ['deflate (raw)', deflateRawSync(RULES), 'deflate'],
    ['brotli', brotliCompressSync(RULES), 'br'],
    // Before: bytes after the gzip member failed the whole decode, and the site was as one whose robots.txt could not be fetched.
    ['gzip with bytes after its end', Buffer.concat([gzipSync(RULES), Buffer.from('\r\n<!-- served by a proxy -->\r\n')]), 'gzip'],
    ['gzip naming its file, with bytes after its end', Buffer.concat([withFileName(gzipSync(RULES), 'robots.txt'), Buffer.from('junk')]), 'gzip'],
  ];
  for (const [what, body, encoding] of cases) {
    it(`${what}: its Disallow lines hold`, async () => {
      const s = await site(body, encoding);
      await crawl(what.replace(/\W+/g, '-'), s.url);
      expect(s.asked).toContain('/ok');
      expect(s.asked).not.toContain('/private/x');
    });
  }

  it('one that inflates far past 500 KiB is read up to 500 KiB (RFC 9309 §2.5): rules there hold, rules past it do not', async () => {
    // 3 MiB of comments between the two rules: gzip makes a few KB of it.
    const text = `User-agent: *\nDisallow: /private\n${'# padding\n'.repeat(300_000)}Disallow: /ok\n`;
    const s = await site(gzipSync(text), 'gzip');
    await crawl('bomb', s.url);
    expect(s.asked).toContain('/ok');
    expect(s.asked).not.toContain('/private/x');
  });

  it('one longer than --max-body is read up to 500 KiB all the same: its rules hold, and its site is crawled', async () => {
    // Before: refused as too large (CRAWL_BODY_TOO_LARGE), and the site parked with nothing crawled.
    const s = await site(Buffer.from(`User-agent: *\nDisallow: /private\n${'# padding\n'.repeat(60_000)}`), null);
    await crawl('long', s.url, ['--max-body', '64KB', '--robots-retry', '100ms']);
    expect(s.asked).toContain('/ok');
    expect(s.asked).not.toContain('/private/x');
  });

  // Before: past 1 MiB (and --max-body) refused as too large, and the site parked with nothing crawled.
  const shapes = [
    ['with its length', { length: true }, []],
    ['chunked', { length: false }, []],
    // Its pieces all come while the bandwidth cap holds the first ones: past 1 MiB it is cut, not refused.
    ['ended by closing the connection, under --bandwidth', { length: false, close: true }, ['--bandwidth', '500KB']],
  ] as const;
  for (const [what, shape, more] of shapes) {
    it(`one of 3 MiB, ${what}, is read up to its first 500 KiB and the rest left unread: its rules hold, rules past it do not, and its site is crawled`, async () => {
      const s = await site(Buffer.from(`User-agent: *\nDisallow: /private\n${'# padding\n'.repeat(300_000)}Disallow: /ok\n`), null, shape);
      const r = await crawl(`huge-${what.replace(/\W+/g, '-')}`, s.url, ['--max-body', '64KB', '--robots-retry', '100ms', '--json', ...more]);
      expect(s.asked).toContain('/ok');
      expect(s.asked).not.toContain('/private/x');
      expect(r.stdout).not.toMatch(/CRAWL_BODY_TOO_LARGE|CRAWL_ROBOTS_UNAVAILABLE/);
    });
  }

  it('a 404 for robots.txt with a 3 MiB page is no robots.txt: every page of its site is crawled', async () => {
    const s = await site(Buffer.from(`<html>${'<p>not here</p>\n'.repeat(200_000)}</html>`), null, { status: 404 });
    await crawl('huge-404', s.url, ['--max-body', '64KB', '--robots-retry', '100ms']);
    expect(s.asked).toEqual(expect.arrayContaining(['/ok', '/private/x']));
  });

  it('one in an encoding that cannot be read is as a robots.txt that could not be fetched: nothing of its site is crawled', async () => {
    const s = await site(Buffer.from('not gzip at all'), 'gzip');
    const r = await crawl('garbled', s.url, ['--robots-retry', '100ms', '--json']);
    expect(s.asked.filter((p) => p !== '/robots.txt')).toEqual([]);
    expect(r.stdout).toMatch(/CRAWL_BAD_CONTENT_ENCODING/);
  });
});
