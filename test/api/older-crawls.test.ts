/**
 * A workspace keeps crawls made by older versions of crawlbench: the workbench lists and reads
 * them (bringing the file up to this schema when it first reads it), instead of showing them
 * as unreadable until some command opens them for writing.
 */
import Sqlite from '../../core/store/sqlite.js';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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

describe('crawls of an older schema in the workbench', () => {
  it('lists, reads and searches a schema-5 crawl, upgrading its file once', async () => {
    expect(SCHEMA_VERSION).toBeGreaterThan(5);
    olderCrawl(join(dir, 'old.db'), 5);
    const api = new EngineApi(dir);
    try {
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
      await api.close();
    }
  });

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
