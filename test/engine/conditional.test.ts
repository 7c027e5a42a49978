/**
 * A recrawl that asks only for what changed (issue 26, docs/design.md section 4.10): the test
 * web's revision 2 answers conditional requests honestly; a crawl of it guided by a crawl of
 * revision 1 sends the validators back, takes a 304's page and links from its history, and
 * ends with the same pages and links as an unconditional recrawl for a fraction of the bytes.
 */
import Sqlite from '../../core/store/sqlite.js';
import { copyFileSync, readFileSync } from 'node:fs';
import { createServer, get } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compareCrawls } from '../../core/compare/compare.js';
import { parseExportOptions } from '../../core/export/options.js';
import { runExport } from '../../core/export/run-export.js';
import { generateWeb } from '../../core/testweb/generator.js';
import { renderPage } from '../../core/testweb/html.js';
import { TestWebServer } from '../../core/testweb/server.js';
import { seedUrls } from '../../core/testweb/web.js';
import { sqlRows } from '../helpers/crawl-db.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, testSettings } from '../helpers/web.js';
import { checkDigests, readRecords } from '../export/warc-reader.js';

const spec = { seed: 26, sites: 30, pages: 1500 } as const;
const rev1 = generateWeb({ ...spec, revision: 1 });
const rev2 = generateWeb({ ...spec, revision: 2 });
const dir = tmpDir('crawlbench-conditional-');
const oldDb = join(dir, 'rev1.db');
const withValidators = join(dir, 'rev2-conditional.db');
const full = join(dir, 'rev2-full.db');

/** A GET to the test web on loopback, naming the site in Host (fetch() may not set Host). */
function request(port: number, host: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; etag: string | undefined }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, headers: { host, ...headers }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: res.headers.etag }));
    }).on('error', reject);
  });
}

async function served(web: typeof rev1, port: number): Promise<TestWebServer> {
  const s = new TestWebServer(web, { port, validators: true });
  await s.start();
  return s;
}


const pages = (db: string) => sqlRows<{ url: string; status: string }>(db, 'SELECT url, status FROM pages ORDER BY url').map((p) => `${p.url} ${p.status}`);
const links = (db: string) =>
  sqlRows<{ s: string; d: string; kind: string }>(db, 'SELECT a.url AS s, b.url AS d, l.kind AS kind FROM links l JOIN pages a ON a.id = l.src JOIN pages b ON b.id = l.dst')
    .map((l) => `${l.s} ${l.d} ${l.kind}`)
    .sort();
const bodyBytes = (db: string) => sqlRows<{ n: number }>(db, 'SELECT sum(bytes) AS n FROM sites')[0]!.n;

describe('conditional recrawl', async () => {
  // Both revisions on one port, one after the other: their URLs are the same.
  const probe = await served(rev1, 0);
  const port = probe.port;
  await probe.stop();

  it('the test web answers 304 exactly for the pages revision 2 did not change', async () => {
    const sample: Array<{ id: number; old: number; host: string }> = [];
    for (let id = 0; id < rev2.pageCount && sample.length < 300; id += 3) {
      const old = rev2.previous!.id(id);
      if (old >= 0) sample.push({ id, old, host: rev2.sites[rev2.siteOf(id)]!.host });
    }
    // The validators revision 1 gives for each URL, from its server on the same port.
    const s1 = await served(rev1, port);
    const oldTags: string[] = [];
    for (const p of sample) oldTags.push((await request(port, p.host, rev1.path(p.old))).etag!);
    await s1.stop();
    const s2 = await served(rev2, port);
    try {
      let same = 0;
      for (const [k, p] of sample.entries()) {
        const unchanged = renderPage(rev1, p.old, port).equals(renderPage(rev2, p.id, port));
        const now = await request(port, p.host, rev2.path(p.id));
        const conditional = await request(port, p.host, rev2.path(p.id), { 'if-none-match': oldTags[k]! });
        expect(conditional.status, `${p.host}${rev2.path(p.id)}`).toBe(unchanged ? 304 : 200);
        expect(now.etag === oldTags[k]).toBe(unchanged);
        // If-Modified-Since with revision 1's date: 304 for the same pages.
        const since = await request(port, p.host, rev2.path(p.id), { 'if-modified-since': 'Mon, 01 Jan 2024 00:00:00 GMT' });
        expect(since.status).toBe(unchanged ? 304 : 200);
        if (unchanged) same++;
      }
      expect(sample.length).toBeGreaterThan(100);
      // Some surviving pages keep their bytes; most changed (they lost or gained a link).
      expect(same).toBeGreaterThan(0);
      expect(same).toBeLessThan(sample.length);
    } finally {
      await s2.stop();
    }
  }, 60_000);


  it('a guided recrawl with conditional requests holds the same pages and links as one without, for the changed share of the bytes', async () => {
    const s1 = await served(rev1, port);
    await crawl(oldDb, testSettings(seedUrls(rev1, port), { r: 8, c: 10 }));
    await s1.stop();
    const guided = { policy: 'historical-pagerank-parent', policyParams: { history: oldDb }, r: 8, c: 10 };
    const s2 = await served(rev2, port);
    try {
      await crawl(withValidators, testSettings(seedUrls(rev2, port), guided));
      await crawl(full, testSettings(seedUrls(rev2, port), { ...guided, conditional: false }));
      const conditionalRequests = s2.requests.filter((r) => r.path !== '/robots.txt');
      expect(conditionalRequests.some((r) => r.status === 304)).toBe(true);
    } finally {
      await s2.stop();
    }
    expect(pages(withValidators)).toEqual(pages(full));
    expect(links(withValidators)).toEqual(links(full));
    const [{ fetched, notModified }] = sqlRows<{ fetched: number; notModified: number }>(withValidators, "SELECT count(*) AS fetched, sum(not_modified) AS notModified FROM pages WHERE status IN ('fetched', 'duplicate')");
    expect(notModified).toBeGreaterThan(0);
    expect(sqlRows(full, 'SELECT 1 FROM pages WHERE not_modified = 1')).toEqual([]);
    const changedShare = 1 - notModified / fetched;
    const ratio = bodyBytes(withValidators) / bodyBytes(full);
    console.log(`[conditional] ${notModified} of ${fetched} pages not modified; body bytes ${bodyBytes(withValidators)} against ${bodyBytes(full)} (${(ratio * 100).toFixed(1)}%, changed share ${(changedShare * 100).toFixed(1)}%)`);
    expect(ratio).toBeLessThanOrEqual(changedShare + 0.05);
    // A not-modified page keeps the history's validators and size.
    const kept = sqlRows<{ etag: string | null; bytes: number }>(withValidators, 'SELECT etag, bytes FROM pages WHERE not_modified = 1 LIMIT 5');
    for (const k of kept) {
      expect(k.etag).toMatch(/^"/);
      expect(k.bytes).toBeGreaterThan(0);
    }
  }, 120_000);

  it('a history crawl without validators gives unconditional requests, and says so', async () => {
    const bare = join(dir, 'rev1-bare.db');
    copyFileSync(oldDb, bare);
    const d = new Sqlite(bare);
    d.exec('UPDATE pages SET etag = NULL, last_modified = NULL');
    d.close();
    const out = join(dir, 'rev2-bare.db');
    const s2 = await served(rev2, port);
    try {
      await crawl(out, testSettings(seedUrls(rev2, port), { policy: 'historical-pagerank-parent', policyParams: { history: bare }, r: 8, c: 10 }));
    } finally {
      await s2.stop();
    }
    expect(sqlRows(out, 'SELECT 1 FROM pages WHERE not_modified = 1')).toEqual([]);
    expect(pages(out)).toEqual(pages(full));
    expect(sqlRows<{ message: string }>(out, "SELECT message FROM events WHERE kind = 'note'").map((e) => e.message)).toEqual([
      'the history crawl stored no validators (ETag, Last-Modified): every request is unconditional',
    ]);
  }, 120_000);

  it('writes a not-modified page into a WARC export as a revisit with the server-not-modified profile, naming its URL', async () => {
    const db = join(dir, 'rev2-content.db');
    const s2 = await served(rev2, port);
    try {
      await crawl(db, testSettings(seedUrls(rev2, port), { policy: 'historical-pagerank-parent', policyParams: { history: oldDb }, r: 8, c: 10, storeContent: true }));
    } finally {
      await s2.stop();
    }
    const summary = await runExport(db, parseExportOptions({ format: 'warc', out: join(dir, 'warc') }));
    const records = (await Promise.all(summary.files.filter((f) => f.path.endsWith('.warc.gz')).map((f) => readRecords(f.path)))).flat();
    const notModified = records.filter((r) => r.warc['WARC-Profile'] === 'http://netpreserve.org/warc/1.1/revisit/server-not-modified');
    const [{ n }] = sqlRows<{ n: number }>(db, 'SELECT count(*) AS n FROM pages WHERE not_modified = 1');
    expect(n).toBeGreaterThan(0);
    expect(notModified).toHaveLength(n);
    for (const r of notModified) {
      expect(r.type).toBe('revisit');
      expect(r.statusline).toMatch(/^HTTP\/1\.1 304/);
      expect(r.warc['WARC-Refers-To-Target-URI']).toBe(r.warc['WARC-Target-URI']);
    }
    expect(checkDigests(records).failed).toEqual([]);
  }, 120_000);
});

describe('pages across crawls, whatever their scheme', () => {
  it('compare pairs a page that moved from http to https, says so, and counts the pages not modified', async () => {
    const moved = join(dir, 'rev2-https.db');
    copyFileSync(withValidators, moved);
    const d = new Sqlite(moved);
    d.exec("UPDATE pages SET url = 'https://' || substr(url, 8) WHERE url LIKE 'http://%'");
    d.close();
    const r = await compareCrawls(full, moved);
    expect(r.pages.onlyA).toBe(0);
    expect(r.pages.onlyB).toBe(0);
    expect(r.pages.both).toBe(r.pages.inA);
    expect(r.common.acrossSchemes).toBe(r.pages.both);
    expect(r.notes.join('\n')).toMatch(/matched whatever their scheme: [\d,]+ common pages are http in one crawl and https in the other/);
    const [{ n }] = sqlRows<{ n: number }>(withValidators, 'SELECT count(*) AS n FROM pages WHERE not_modified = 1');
    expect(r.common.notModifiedB).toBe(n);
    expect(r.common.notModifiedA).toBe(0);
  }, 60_000);
});

describe('a 304 nobody asked for', async () => {
  // A server that answers 304 to everything but robots.txt.
  const server = createServer((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/x">x</a>');
    res.writeHead(304).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  const port = (server.address() as { port: number }).port;

  it('is recorded as an error, not as a page', async () => {
    const db = join(dir, 'unasked.db');
    await crawl(db, testSettings([`http://a.test:${port}/`], { maxAttempts: 1 }));
    const x = sqlRows<{ status: string; error_code: string; http_status: number }>(db, "SELECT status, error_code, http_status FROM pages WHERE url LIKE '%/x'")[0]!;
    expect(x).toEqual({ status: 'failed', error_code: 'CRAWL_HTTP_304_UNASKED', http_status: 304 });
    expect(readFileSync(db).length).toBeGreaterThan(0);
  });
});
