/**
 * A workspace keeps crawls made by older versions of crawlbench: the workbench lists and reads
 * them (bringing the file up to this schema when it first reads it), instead of showing them
 * as unreadable until some command opens them for writing.
 */
import Sqlite from '../../core/store/sqlite.js';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CrawlStateEvent } from '../../core/api/contract.js';
import { EngineApi } from '../../core/api/engine-api.js';
import { SCHEMA_VERSION } from '../../core/store/migrations/index.js';
import { crawlFileOfSchema } from '../helpers/crawl-db.js';

const dir = mkdtempSync(join(tmpdir(), 'cb-older-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A crawl file as schema `version` made it, from the migrations themselves: one site, two pages, a link. */
function olderCrawl(path: string, version: number): void {
  const raw = crawlFileOfSchema(path, version);
  raw.exec("INSERT INTO sites(id, host, pages_known, pages_fetched) VALUES (1, 'a.test', 2, 2)");
  raw.exec("INSERT INTO pages(id, url, site_id, depth, status, http_status, fetch_seq) VALUES (1, 'http://a.test/', 1, 0, 'fetched', 200, 1), (2, 'http://a.test/b', 1, 1, 'fetched', 200, 2)");
  raw.exec('INSERT INTO links(src, dst) VALUES (1, 2)');
  raw.close();
}

/** A crawl file of schema 11 with `pages` fetched pages of one site and `perPage` links each; returns its links. */
function largeOlderCrawl(path: string, pages: number, perPage: number): number {
  const raw = crawlFileOfSchema(path, 11);
  raw.exec(`INSERT INTO sites(id, host, pages_known, pages_fetched) VALUES (1, 'a.test', ${pages}, ${pages})`);
  raw.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${pages})
    INSERT INTO pages(id, url, site_id, depth, status, http_status, fetch_seq) SELECT i, 'http://a.test/' || i, 1, 1, 'fetched', 200, i FROM n`);
  raw.exec(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${pages * perPage - 1})
    INSERT OR IGNORE INTO links(src, dst) SELECT 1 + i / ${perPage}, 1 + (i * 7919) % ${pages} FROM n`);
  const links = raw.prepare('SELECT count(*) FROM links').pluck().get() as number;
  raw.close();
  return links;
}

/** The file is of this schema now, every link of it kept. */
function expectUpToDate(path: string, links: number): void {
  const db = new Sqlite(path, { readonly: true });
  expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
  expect(db.prepare('SELECT count(*) FROM links').pluck().get()).toBe(links);
  db.close();
}

/** Resolves once `done()` holds (checked every 20 ms); fails the test after `ms`. */
async function until(done: () => boolean, what: string, ms = 60_000): Promise<void> {
  const give = Date.now() + ms;
  while (!done()) {
    if (Date.now() > give) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The crawl's status as crawlState events told it, last one first. */
function stateOf(api: EngineApi, id: string): { last: () => CrawlStateEvent | undefined; off: () => void } {
  const seen: CrawlStateEvent[] = [];
  const off = api.onCrawlState((e) => {
    if (e.crawlId === id) seen.push(e);
  });
  return { last: () => seen.at(-1), off };
}

describe('crawls of an older schema in the workbench', () => {
  it('lists a schema-5 crawl as upgrading, brings its file up to date in a process of its own, then reads and searches it', async () => {
    expect(SCHEMA_VERSION).toBeGreaterThan(5);
    olderCrawl(join(dir, 'old.db'), 5);
    const api = new EngineApi(dir);
    const state = stateOf(api, 'old');
    try {
      const [first] = await api.listCrawls();
      expect(first).toMatchObject({ id: 'old', status: 'upgrading' });
      expect(first!.problem).toMatch(/made by an earlier crawlbench \(schema 5\).*being brought up to this version's/);
      // Named from the workspace, as every message the workbench shows.
      expect(first!.problem).not.toContain(dir);
      await until(() => state.last()?.status === 'finished', 'the crawl listed again once up to date');
      const [info] = await api.listCrawls();
      expect(info).toMatchObject({ id: 'old', status: 'finished', pagesFetched: 2, sites: 1 });
      expect(info!.problem).toBeUndefined();
      const found = await api.searchPages('old', { url: 'a.test/b' });
      expect(found.rows.map((r) => r.url)).toEqual(['http://a.test/b']);
      expect((await api.getPage('old', 'http://a.test/b'))?.inLinks.map((l) => l.url)).toEqual(['http://a.test/']);
      const db = new Sqlite(join(dir, 'old.db'), { readonly: true });
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      db.close();
    } finally {
      state.off();
      await api.close();
    }
  });

  it("refuses a large older crawl's reads, start and deletion in words while its links are rewritten, and keeps every link", async () => {
    const pages = 100_000;
    const perPage = 20;
    // Schema 11 keyed links by (src, dst); schema 12 rewrites them all in fetch order (about a
    // second per million links here; minutes for a national crawl), which once ran on the server's
    // thread at the first read, holding every call of every window meanwhile.
    const path = join(dir, 'big.db');
    const links = largeOlderCrawl(path, pages, perPage);
    const api = new EngineApi(dir);
    const state = stateOf(api, 'big');
    try {
      const listed = (await api.listCrawls()).find((c) => c.id === 'big')!;
      expect(listed.status).toBe('upgrading');
      const refused = { code: 'CRAWL_DB_UPGRADING', message: expect.stringMatching(/schema 11.*opens once that is done/) };
      await expect(api.searchPages('big', { url: 'a.test/5' })).rejects.toMatchObject(refused);
      await expect(api.timeline('big')).rejects.toMatchObject(refused);
      await expect(api.crawlSettings('big')).rejects.toMatchObject(refused);
      await expect(api.start('big')).rejects.toMatchObject(refused);
      // Nor does a job open it for writing or read it whole meanwhile (each met the upgrade's lock, or migrated it itself).
      await expect(api.stop('big')).rejects.toMatchObject(refused);
      await expect(api.runPageRank('big')).rejects.toMatchObject(refused);
      await expect(api.runEvaluation('big')).rejects.toMatchObject(refused);
      await expect(api.compareCrawls('old', 'big')).rejects.toMatchObject(refused);
      await expect(api.deleteCrawl('big')).rejects.toMatchObject({ code: 'CRAWL_DB_LOCKED', message: expect.stringMatching(/being brought up to this version's schema/) });
      // The server answers meanwhile.
      expect((await api.health()).ok).toBe(true);
      await until(() => state.last()?.status === 'finished', 'the large crawl listed again once up to date', 180_000);
      expect((await api.listCrawls()).find((c) => c.id === 'big')).toMatchObject({ status: 'finished', pagesFetched: pages });
      const page = await api.getPage('big', 'http://a.test/7', { linkLimit: 50 });
      expect(page?.outLinks).toHaveLength(perPage);
      expectUpToDate(path, links);
    } finally {
      state.off();
      await api.close();
    }
  }, 240_000);

  it('an engine closed during an upgrade ends it at once; the file stays as it was, and the next engine brings it up to date', async () => {
    const path = join(dir, 'closed.db');
    const links = largeOlderCrawl(path, 100_000, 20);
    const first = new EngineApi(dir);
    expect((await first.listCrawls()).find((c) => c.id === 'closed')?.status).toBe('upgrading');
    // The upgrade's process has the file (its lock names it) when the engine closes.
    const lockHolder = () => (existsSync(`${path}.lock`) ? Number(readFileSync(`${path}.lock`, 'utf8').split('@')[0]) : 0);
    await until(() => lockHolder() > 0, "the upgrade's process holding the file");
    const holder = lockHolder();
    expect(holder).not.toBe(process.pid);
    await first.close();
    // Killed, not waited for (a thread stopped mid-statement ran on for as long as SQLite did, and
    // its process could not exit meanwhile): gone once close returns, its migration rolled back.
    expect(() => process.kill(holder, 0)).toThrow();
    const before = new Sqlite(path, { readonly: true });
    expect(before.pragma('user_version', { simple: true })).toBeLessThan(SCHEMA_VERSION);
    before.close();
    const next = new EngineApi(dir);
    const state = stateOf(next, 'closed');
    try {
      expect((await next.listCrawls()).find((c) => c.id === 'closed')?.status).toBe('upgrading');
      await until(() => state.last()?.status === 'finished', 'the crawl up to date under the next engine', 180_000);
      expectUpToDate(path, links);
    } finally {
      state.off();
      await next.close();
    }
  }, 400_000);

  it('leaves an empty file, or any file that is not an older crawl, as it is', async () => {
    const empty = join(dir, 'empty.db');
    writeFileSync(empty, '');
    const api = new EngineApi(dir);
    try {
      const info = (await api.listCrawls()).find((c) => c.id === 'empty')!;
      expect(info.status).toBe('unreadable');
      expect(statSync(empty).size).toBe(0);
    } finally {
      await api.close();
    }
  });
});
