/**
 * The WARC export of a real crawl (of export-web.ts, on 127.0.0.1), checked by an independent
 * reader (test/export/warc-reader.ts: the npm package `warc`, with the digests computed here):
 * digests, record order, revisits, and headers as received; and by Python warcio too where pip
 * has installed it.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExportOptions } from '../../core/export/options.js';
import { runExport } from '../../core/export/run-export.js';
import { CrawlReader } from '../../core/store/crawl-reader.js';
import { crawl, testSettings } from '../helpers/web.js';
import { tmpDir } from '../helpers/tmp.js';
import { CHUNKS, ExportWeb, GZIP_TEXT, SAME_BODY } from './export-web.js';
import { describeWith } from '../references.js';
import { checkDigests, readRecords, type WarcRecord } from './warc-reader.js';
import { warcio } from './warcio-py.js';

/** The offset and length of the response record for a URL ending in `suffix`, from the CDXJ index beside the file. */
function cdxjEntry(warcFile: string, suffix: string): { offset: number; length: number } {
  const dir = warcFile.slice(0, warcFile.lastIndexOf('/'));
  const index = readdirSync(dir).find((n) => n.endsWith('.cdxj'))!;
  for (const line of readFileSync(join(dir, index), 'utf8').trim().split('\n')) {
    const fields = JSON.parse(line.slice(line.indexOf('{'))) as { url: string; offset: string; length: string; status?: string };
    if (fields.url.endsWith(suffix) && fields.status) return { offset: Number(fields.offset), length: Number(fields.length) };
  }
  throw new Error(`no CDXJ line for ${suffix}`);
}

describe('WARC export', () => {
  const web = new ExportWeb();
  const dir = tmpDir('crawlbench-warc-');
  const db = join(dir, 'site.db');
  const out = join(dir, 'warc');
  let files: string[] = [];
  let records: WarcRecord[] = [];
  let fetches: Array<{ id: number; url: string; httpStatus: number | null; fetchSeq: number | null }> = [];

  beforeAll(async () => {
    const port = await web.start();
    await crawl(db, testSettings([`http://a.test:${port}/`], { storeContent: true, maxAttempts: 2, retryBase: 20 }));
    const summary = await runExport(db, parseExportOptions({ format: 'warc', out, cdx: true }));
    files = summary.files.map((f) => f.path);
    for (const f of files.filter((x) => x.endsWith('.warc.gz'))) records.push(...(await readRecords(f)));
    const reader = CrawlReader.open(db);
    fetches = [...reader.pagesByFetch(['id', 'url', 'httpStatus'])];
    reader.close();
  }, 60_000);
  afterAll(() => web.stop());

  it('names its files PREFIX-TIMESTAMP-SERIAL.warc.gz and writes a CDXJ index beside them', () => {
    const names = readdirSync(out).sort();
    expect(names).toEqual([expect.stringMatching(/^site-\d{14}-00000\.warc\.gz$/), expect.stringMatching(/^site-\d{14}\.cdxj$/)]);
    const cdxj = readFileSync(join(out, names[1]!), 'utf8').trim().split('\n');
    const keys = cdxj.map((l) => l.split(' ').slice(0, 2).join(' '));
    expect(keys).toEqual([...keys].sort());
    const gz = cdxj.find((l) => /^test,a:\d+\)\/gzip \d{14} \{/.test(l))!;
    expect(JSON.parse(gz.slice(gz.indexOf('{')))).toMatchObject({ status: '200', mime: 'text/html', filename: names[0] });
  });

  it('splits at --max-file-size: serial names, each file opening with warcinfo and passing the check', async () => {
    const small = join(dir, 'small');
    const summary = await runExport(db, parseExportOptions({ format: 'warc', out: small, maxFileSize: 4096, prefix: 'part' }));
    const names = summary.files.map((f) => f.path.slice(small.length + 1));
    expect(names.length).toBeGreaterThan(1);
    names.forEach((n, i) => expect(n).toMatch(new RegExp(`^part-\\d{14}-${String(i).padStart(5, '0')}\\.warc\\.gz$`)));
    const split: WarcRecord[] = [];
    for (const f of summary.files) {
      const recs = await readRecords(f.path);
      expect(checkDigests(recs).failed).toEqual([]);
      // Within the limit, unless one fetch alone is larger (it then has a file to itself).
      if (recs.length > 3) expect(f.bytes).toBeLessThanOrEqual(4096);
      expect(recs[0]!.type).toBe('warcinfo');
      expect(recs[0]!.warc['WARC-Filename']).toBe(f.path.slice(small.length + 1));
      split.push(...recs.slice(1));
    }
    // The same records as the single file, in the same order.
    expect(split.map((r) => r.warc['WARC-Record-ID'])).toEqual(records.slice(1).map((r) => r.warc['WARC-Record-ID']));
  });

  it("verifies every record's block digest and every response's payload digest", () => {
    const check = checkDigests(records);
    expect(check.failed).toEqual([]);
    // Every record has a block digest; responses and revisits a payload digest as well.
    const payloads = records.filter((r) => r.type === 'response' || r.type === 'revisit').length;
    expect(check.passed).toBe(records.filter((r) => r.warc['WARC-Block-Digest']).length + payloads);
    expect(payloads).toBeGreaterThan(5);
  });

  it('finds the digest failure in a copy with one payload byte changed (record re-gzipped)', async () => {
    const f = files.find((x) => x.endsWith('.warc.gz'))!;
    const { offset, length } = cdxjEntry(f, '/dup1');
    const bytes = readFileSync(f);
    const member = gunzipSync(bytes.subarray(offset, offset + length));
    const at = member.lastIndexOf(Buffer.from('identical'));
    expect(at).toBeGreaterThan(0);
    member[at] = 'I'.charCodeAt(0);
    const copy = join(dir, 'tampered.warc.gz');
    writeFileSync(copy, Buffer.concat([bytes.subarray(0, offset), gzipSync(member), bytes.subarray(offset + length)]));
    const tampered = await readRecords(copy);
    const failed = checkDigests(tampered).failed;
    // dup1's block and payload, and the revisit of dup2 that names dup1's payload.
    const id = (suffix: string, type: string) => tampered.find((r) => r.type === type && r.warc['WARC-Target-URI']!.endsWith(suffix))!.warc['WARC-Record-ID'];
    expect(failed.map((l) => l.slice(0, l.indexOf(': declared')))).toEqual([
      `${id('/dup1', 'response')} WARC-Block-Digest`,
      `${id('/dup1', 'response')} WARC-Payload-Digest`,
      `${id('/dup2', 'revisit')} WARC-Payload-Digest`,
    ]);
  });

  it('opens with warcinfo, then every fetch once as a response or revisit with its request beside it', () => {
    expect(records[0]!.type).toBe('warcinfo');
    expect(records[0]!.payload.toString()).toMatch(/software: crawlbench\/[\d.]+\r\n[\s\S]*seeds: http:\/\/a\.test/);
    const rest = records.slice(1);
    expect(rest.length % 2).toBe(0);
    for (let i = 0; i < rest.length; i += 2) {
      const [res, req] = [rest[i]!, rest[i + 1]!];
      expect(['response', 'revisit']).toContain(res.type);
      expect(req.type).toBe('request');
      expect(req.warc['WARC-Target-URI']).toBe(res.warc['WARC-Target-URI']);
      expect(req.warc['WARC-Date']).toBe(res.warc['WARC-Date']);
      expect(req.warc['WARC-Concurrent-To']).toBe(res.warc['WARC-Record-ID']);
      expect(res.warc['WARC-Block-Digest']).toMatch(/^sha1:[A-Z2-7]{32}$/);
      expect(res.warc['WARC-Payload-Digest']).toMatch(/^sha1:[A-Z2-7]{32}$/);
    }
    // Each page fetch (200, redirect, 404, the 503 given up on) exactly once, in fetch order.
    const pageUris = rest.filter((r) => r.type !== 'request' && !r.warc['WARC-Target-URI']!.endsWith('/robots.txt')).map((r) => r.warc['WARC-Target-URI']);
    expect(pageUris).toEqual(fetches.map((f) => f.url));
    const statuses = new Map(rest.filter((r) => r.type !== 'request').map((r) => [r.warc['WARC-Target-URI'], Number(r.statusline!.split(' ')[1])]));
    for (const f of fetches) expect(statuses.get(f.url)).toBe(f.httpStatus);
    expect([...statuses.values()]).toEqual(expect.arrayContaining([200, 301, 404, 503]));
    // robots.txt answers: a.test's 200 and b.test's 404, each before its site's first page.
    const uris = rest.filter((r) => r.type !== 'request').map((r) => r.warc['WARC-Target-URI']!);
    const robots = uris.filter((u) => u.endsWith('/robots.txt'));
    expect(robots).toEqual([`http://a.test:${web.port}/robots.txt`, `http://b.test:${web.port}/robots.txt`]);
    expect(uris.indexOf(robots[1]!)).toBeLessThan(uris.indexOf(`http://b.test:${web.port}/`));
  });

  it('lists the records in order: robots.txt first, each response before its request', () => {
    const rows = records.map((r) => ({ type: r.type, uri: r.warc['WARC-Target-URI'], status: r.type === 'request' ? undefined : r.statusline?.split(' ')[1] }));
    expect(rows.slice(1, 4)).toEqual([
      { type: 'response', uri: `http://a.test:${web.port}/robots.txt`, status: '200' },
      { type: 'request', uri: `http://a.test:${web.port}/robots.txt`, status: undefined },
      { type: 'response', uri: `http://a.test:${web.port}/`, status: '200' },
    ]);
  });

  it('writes a payload seen before as a revisit naming the record that holds it', () => {
    const revisits = records.filter((r) => r.type === 'revisit');
    expect(revisits.map((r) => r.warc['WARC-Target-URI'])).toEqual([`http://a.test:${web.port}/dup2`]);
    for (const v of revisits) {
      const original = records.find((r) => r.warc['WARC-Record-ID'] === v.warc['WARC-Refers-To'])!;
      expect(original.type).toBe('response');
      expect(v.warc['WARC-Refers-To-Target-URI']).toBe(original.warc['WARC-Target-URI']);
      expect(v.warc['WARC-Refers-To-Date']).toBe(original.warc['WARC-Date']);
      expect(v.warc['WARC-Payload-Digest']).toBe(original.warc['WARC-Payload-Digest']);
      expect(v.warc['WARC-Profile']).toBe('http://netpreserve.org/warc/1.1/revisit/identical-payload-digest');
      expect(original.payload.toString()).toContain(SAME_BODY);
    }
  });

  it('keeps status lines, headers and payloads as received', () => {
    const res = (path: string) => records.find((r) => r.type === 'response' && r.warc['WARC-Target-URI'] === `http://a.test:${web.port}${path}`)!;
    const home = res('/');
    expect(home.statusline).toBe('HTTP/1.1 200 OK');
    expect(home.headers.slice(0, 4)).toEqual([
      ['content-type', 'text/html; charset=utf-8'], ['Set-Cookie', 'a=1; Path=/'], ['X-Crawlbench-Test', 'one,,,two'], ['set-cookie', 'b=2'],
    ]);
    const gz = res('/gzip');
    expect(gz.headers).toContainEqual(['Content-Encoding', 'gzip']);
    expect(gunzipSync(httpPayload(gz)).toString()).toBe(GZIP_TEXT);
    const chunked = res('/chunked');
    expect(chunked.headers.map(([k]) => k.toLowerCase())).not.toContain('transfer-encoding');
    expect(httpPayload(chunked).toString()).toBe(CHUNKS.join(''));
    expect(res('/redirect').statusline).toBe('HTTP/1.1 301 Moved Permanently');
    expect(res('/missing').statusline).toBe('HTTP/1.1 404 Not Found');
    expect(res('/flaky').statusline).toBe('HTTP/1.1 503 Service Unavailable');
  });

  it('writes each request as the server received it', () => {
    for (const req of records.filter((r) => r.type === 'request')) {
      const u = new URL(req.warc['WARC-Target-URI']!);
      const got = web.received.filter((x) => x.host === u.hostname && x.path === u.pathname);
      const text = [req.statusline, ...req.headers.map(([k, v]) => `${k}: ${v}`)].join('\r\n') + '\r\n\r\n';
      expect(got.map((g) => g.head)).toContain(text);
    }
  });
});

/** The HTTP payload as stored (after the HTTP head). */
function httpPayload(r: WarcRecord): Buffer {
  return r.payload;
}

// Python warcio, where pip reaches its registry: the same files through a second independent reader.
describeWith(['warcio-py'], 'WARC export read by Python warcio', () => {
  const web = new ExportWeb();
  const dir = tmpDir('crawlbench-warcio-');
  let files: string[] = [];

  beforeAll(async () => {
    const port = await web.start();
    const db = join(dir, 'site.db');
    await crawl(db, testSettings([`http://a.test:${port}/`], { storeContent: true, maxAttempts: 2, retryBase: 20 }));
    files = (await runExport(db, parseExportOptions({ format: 'warc', out: join(dir, 'warc') }))).files.map((f) => f.path);
  }, 60_000);
  afterAll(() => web.stop());

  it('passes warcio check: every block and payload digest verified, the same record types in the same order', async () => {
    for (const f of files) {
      const r = warcio(['check', '-v', f]);
      expect(r.status, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/digest pass/);
      expect(r.stdout).not.toMatch(/fail/i);
      const rows = warcio(['index', '-f', 'warc-type', f]).stdout.trim().split('\n').map((l) => (JSON.parse(l) as Record<string, string>)['warc-type']);
      expect(rows).toEqual((await readRecords(f)).map((x) => x.type));
    }
  });
});


