/**
 * JSON Lines, CSV and Parquet exports of pages, sites and links, read back by independent
 * readers (csv-parse; for Parquet parquet-wasm, the Rust arrow-rs reader, into Apache Arrow)
 * and compared with the crawl database, row for row. (DuckDB's Node API installs here, but its
 * lock entries for other platforms cannot be resolved from this registry, which breaks
 * `npm ci`; duckdb-wasm downloads its Parquet extension at run time.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { tableFromIPC } from 'apache-arrow';
import { readParquet } from 'parquet-wasm/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExportOptions, type ExportInput } from '../../core/export/options.js';
import { runExport } from '../../core/export/run-export.js';
import { rankCrawl } from '../../core/ranking/rank-crawl.js';
import { CrawlReader } from '../../core/store/crawl-reader.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { crawl, testSettings } from '../helpers/web.js';
import { tmpDir } from '../helpers/tmp.js';
import { ExportWeb } from './export-web.js';

type Obj = Record<string, unknown>;

describe('table exports', () => {
  const web = new ExportWeb();
  const dir = tmpDir('crawlbench-tables-');
  const db = join(dir, 'tables.db');
  let pages: Obj[] = [];
  let sites: Obj[] = [];
  let links: Obj[] = [];

  beforeAll(async () => {
    const port = await web.start();
    await crawl(db, testSettings([`http://a.test:${port}/`], { maxAttempts: 2, retryBase: 20 }));
    const store = CrawlStore.open(db);
    rankCrawl(store.db, { site: true });
    store.close();
    ({ pages, sites, links } = expected(db));
  }, 60_000);
  afterAll(() => web.stop());

  const exportTo = async (name: string, input: ExportInput) => {
    const out = join(dir, name);
    const summary = await runExport(db, parseExportOptions({ out, ...input }));
    return { out, summary };
  };

  for (const what of ['pages', 'sites', 'links'] as const) {
    it(`JSON Lines of ${what}: one object per row, equal to the database's`, async () => {
      const { out, summary } = await exportTo(`${what}.jsonl`, { format: 'jsonl', what });
      const rows = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Obj);
      const want = { pages, sites, links }[what];
      expect(summary.rows).toBe(want.length);
      expect(rows).toEqual(want.map((r) => ({ ...r, ...('fetched_at' in r ? { fetched_at: r.fetched_at === null ? null : new Date(r.fetched_at as number).toISOString() } : {}) })));
    });

    it(`CSV of ${what}: RFC 4180 with a header row, read back by csv-parse`, async () => {
      const { out } = await exportTo(`${what}.csv`, { format: 'csv', what });
      const text = readFileSync(out, 'utf8');
      expect(text).toMatch(/\r\n$/);
      const rows = parse(text, { columns: true }) as Array<Record<string, string>>;
      const want = { pages, sites, links }[what];
      expect(rows.length).toBe(want.length);
      rows.forEach((row, i) => {
        for (const [k, v] of Object.entries(want[i]!)) {
          const text = v === null ? '' : k === 'fetched_at' ? new Date(v as number).toISOString() : String(v);
          expect(row[k], `${what} row ${i} ${k}`).toBe(text);
        }
      });
    });

    it(`Parquet of ${what}: typed columns, read back by parquet-wasm (arrow-rs)`, async () => {
      const { out } = await exportTo(`${what}.parquet`, { format: 'parquet', what });
      const { rows: got, types } = readBack(out);
      const want = { pages, sites, links }[what];
      expect(got.length).toBe(want.length);
      got.forEach((row, i) => {
        for (const [k, v] of Object.entries(want[i]!)) {
          const value = row[k];
          if (k === 'fetched_at') expect(value === null ? null : Number(value)).toBe(v);
          else if (typeof v === 'number' && !Number.isInteger(v)) expect(value as number).toBeCloseTo(v, 12);
          else expect(typeof value === 'bigint' ? Number(value) : value, `${what} row ${i} ${k}`).toEqual(v);
        }
      });
      if (what === "pages") expect(types).toMatchObject({ url: 'Utf8', http_status: 'Int64', fetched_at: "Timestamp<MILLISECOND, UTC>", pagerank: 'Float64' });
      if (what === 'links') expect(types).toMatchObject({ nofollow: 'Bool' });
    });
  }

  it('filters pages by site, status class, content type and fetch sequence', async () => {
    const { out, summary } = await exportTo('filtered.jsonl', { format: 'jsonl', filters: { statuses: ['2xx'], contentTypes: ['text/html'], sites: ['a.test'], seq: ['2..'] } });
    const rows = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Obj);
    const want = pages.filter((p) => p.site === 'a.test' && typeof p.http_status === 'number' && p.http_status >= 200 && p.http_status < 300 && String(p.content_type).startsWith('text/html') && (p.fetch_seq as number) >= 2);
    expect(want.length).toBeGreaterThan(2);
    expect(rows.map((r) => r.url)).toEqual(want.map((r) => r.url));
    expect(summary.warnings).toEqual([]);
  });

  it('a filter that matches nothing gives a valid empty file and a warning', async () => {
    const csv = await exportTo('none.csv', { format: 'csv', filters: { statuses: ['418'] } });
    expect(readFileSync(csv.out, 'utf8')).toBe('url,site,status,http_status,content_type,bytes,content_hash,depth,fetch_seq,fetched_at,pagerank,error_code\r\n');
    expect(csv.summary.warnings).toContainEqual(expect.stringMatching(/no pages matched the filters: the file is valid and empty/));
    const pq = await exportTo('none.parquet', { format: 'parquet', filters: { sites: ['nowhere.test'] } });
    expect(readBack(pq.out).rows).toEqual([]);
    expect(pq.summary.warnings).toContainEqual(expect.stringMatching(/no site named nowhere\.test/));
  });
});

/** What each table must hold, read from the database through the reader (PageRank joined by page and site). */
function expected(db: string): { pages: Obj[]; sites: Obj[]; links: Obj[] } {
  const reader = CrawlReader.open(db);
  try {
    const hosts = new Map([...reader.sites(['host'])].map((s) => [s.id, s.host]));
    const pr = new Map(reader.pageRunValues(reader.latestRun('page')!.id));
    const pages = [...reader.pages(['url', 'siteId', 'status', 'httpStatus', 'contentType', 'bytes', 'contentHash', 'depth', 'fetchSeq', 'fetchedAt', 'errorCode'])].map((p) => ({
      url: p.url, site: hosts.get(p.siteId), status: p.status, http_status: p.httpStatus, content_type: p.contentType, bytes: p.bytes,
      content_hash: p.contentHash, depth: p.depth, fetch_seq: p.fetchSeq, fetched_at: p.fetchedAt === null ? null : Math.floor(p.fetchedAt),
      pagerank: pr.get(p.id) ?? null, error_code: p.errorCode,
    }));
    const siteRun = reader.topOfRun(reader.latestRun('site')!, 1000);
    const sitePr = new Map(siteRun.map((r) => [r.name, r.value]));
    const sites = [...reader.sites(['host', 'pagesFetched', 'pagesKnown', 'bytes', 'errors', 'parked', 'connectMs', 'requestsPerConn'])].map((s) => ({
      site: s.host, pages_fetched: s.pagesFetched, pages_known: s.pagesKnown, bytes: s.bytes, errors: s.errors, parked: s.parked, parked_why: null,
      // A web served over http only: every site reached over http, no certificate.
      robots_txt: s.host === 'a.test' ? 'rules' : 'allow-all', schemes: 'http', certificate: null,
      connect_ms: s.connectMs, pages_per_connection: s.requestsPerConn, pagerank: sitePr.get(s.host) ?? null,
    }));
    const urls = new Map([...reader.pages(['url'])].map((p) => [p.id, p.url]));
    const links: Obj[] = [];
    // In the order the links are stored (schema 12): by their source's fetch (minus its id for one not fetched).
    const key = (p: { id: number; fetchSeq: number | null }) => p.fetchSeq ?? -p.id;
    for (const page of [...reader.pages(['url', 'fetchSeq'])].sort((a, b) => key(a) - key(b))) {
      const kinds = new Map(reader.linksFrom(page.id, 1000).map((l) => [l.url, l.kind]));
      for (const dst of reader.outLinks(page.id).sort((a, b) => a - b)) {
        links.push({ source_url: page.url, target_url: urls.get(dst), anchor: reader.linkAnchor(page.id, dst), kind: kinds.get(urls.get(dst)!), nofollow: false });
      }
    }
    return { pages, sites, links };
  } finally {
    reader.close();
  }
}

function readBack(file: string): { rows: Array<Record<string, unknown>>; types: Record<string, string> } {
  const table = tableFromIPC(readParquet(new Uint8Array(readFileSync(file))).intoIPCStream());
  return {
    rows: table.toArray().map((r) => (r as { toJSON(): Record<string, unknown> }).toJSON()),
    types: Object.fromEntries(table.schema.fields.map((f) => [f.name, String(f.type)])),
  };
}
