/**
 * Analyses run in worker threads beside the engine's calls, so the engine guards what a page
 * could otherwise do meanwhile: no more than two at once (each loads a crawl's whole graph),
 * and no deleting a crawl while a thread reads it. Comparisons, exports, graph exports and
 * partitionings are threads too, and share two slots of their own.
 */
import Sqlite from '../../core/store/sqlite.js';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExportJobDto } from '../../core/api/contract.js';
import { EngineApi } from '../../core/api/engine-api.js';
import { validateSettings } from '../../core/config/settings.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../core/store/migrations/index.js';

const dir = mkdtempSync(join(tmpdir(), 'cb-analysis-guards-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A small finished crawl: a ring of pages on one site. */
function smallCrawl(id: string, pages = 50): void {
  const raw = new Sqlite(join(dir, `${id}.db`));
  raw.pragma('journal_mode = WAL');
  for (const m of MIGRATIONS) raw.exec(m.sql);
  raw.pragma(`user_version = ${SCHEMA_VERSION}`);
  raw.pragma(`application_id = ${0x43424e43}`);
  raw.prepare("INSERT INTO meta(key, value) VALUES ('settings', ?), ('state', 'finished')").run(JSON.stringify(validateSettings({ seeds: ['http://a.test/p0'] })));
  raw.exec(`INSERT INTO sites(id, host, pages_known, pages_fetched) VALUES (1, 'a.test', ${pages}, ${pages})`);
  const page = raw.prepare("INSERT INTO pages(id, url, site_id, depth, status, http_status, fetch_seq) VALUES (?, ?, 1, 0, 'fetched', 200, ?)");
  const link = raw.prepare('INSERT INTO links(seq, dst, src) VALUES (@src, @dst, @src)'); // page i's fetch_seq is i
  for (let i = 1; i <= pages; i++) page.run(i, `http://a.test/p${i - 1}`, i);
  for (let i = 1; i <= pages; i++) link.run({ src: i, dst: (i % pages) + 1 });
  raw.close();
}

/** The first export of `api` to end, as its last progress event says. */
function exportEnd(api: EngineApi): Promise<ExportJobDto> {
  return new Promise((resolve) => {
    const off = api.onExportProgress((e) => {
      if (e.state !== 'running') {
        off();
        resolve(e);
      }
    });
  });
}

describe('analyses beside the engine', () => {
  it('refuses to delete a crawl while it is being ranked, then deletes it', async () => {
    smallCrawl('ranked');
    const api = new EngineApi(dir);
    try {
      const ranking = api.runPageRank('ranked');
      await expect(api.deleteCrawl('ranked')).rejects.toMatchObject({ code: 'CRAWL_DB_LOCKED' });
      expect(existsSync(join(dir, 'ranked.db'))).toBe(true);
      await ranking;
      await api.deleteCrawl('ranked');
      expect(existsSync(join(dir, 'ranked.db'))).toBe(false);
    } finally {
      await api.close();
    }
  });

  it('refuses to delete a crawl an export or a comparison reads, naming it, and deletes it once they have ended', async () => {
    // Before: deleted under the job, and a new crawl of the same name made meanwhile was read by it.
    for (const id of ['exported', 'compared']) smallCrawl(id);
    const api = new EngineApi(dir, { exportThrottleMs: 500 });
    try {
      const exportEnded = exportEnd(api);
      await api.startExport('exported', { format: 'csv', what: 'links' });
      await expect(api.deleteCrawl('exported')).rejects.toMatchObject({ code: 'CRAWL_DB_LOCKED', message: expect.stringMatching(/an export of "exported" is under way; wait for it to end or cancel it/) });
      smallCrawl('ranked-again');
      const compared = api.compareCrawls('compared', 'ranked-again');
      await expect(api.deleteCrawl('ranked-again')).rejects.toMatchObject({ code: 'CRAWL_DB_LOCKED', message: expect.stringMatching(/a comparison of "compared" and "ranked-again" is under way/) });
      // The report names the crawls' files in the workspace, not this machine's paths (before: absolute).
      const report = await compared;
      expect([report.a.path, report.b.path]).toEqual(['compared.db', 'ranked-again.db']);
      await exportEnded;
      for (const id of ['exported', 'ranked-again']) {
        await api.deleteCrawl(id);
        expect(existsSync(join(dir, `${id}.db`))).toBe(false);
      }
    } finally {
      await api.close();
    }
  });

  it('runs at most two at once and refuses a third, naming why', async () => {
    for (const id of ['e1', 'e2', 'e3']) smallCrawl(id);
    const api = new EngineApi(dir);
    try {
      const first = api.runEvaluation('e1');
      const second = api.runEvaluation('e2');
      await expect(api.runEvaluation('e3')).rejects.toMatchObject({ code: 'CRAWL_DB_LOCKED', message: expect.stringMatching(/2 computations .* running/) });
      await Promise.all([first, second]);
      // Once they have ended, another may run.
      expect((await api.runEvaluation('e3')).pagesFetched).toBe(50);
    } finally {
      await api.close();
    }
  });

  it('runs at most two comparisons, exports, graph exports and partitionings at once, refuses the next naming what runs, and takes one once one has ended', async () => {
    for (const id of ['h1', 'h2']) smallCrawl(id);
    // An export held a while after its one chunk of rows: it is still running when the others are asked for.
    const api = new EngineApi(dir, { exportThrottleMs: 500 });
    try {
      const exportEnded = exportEnd(api);
      await api.startExport('h1', { format: 'csv', what: 'links' });
      const comparing = api.compareCrawls('h1', 'h2', { jobId: 'c1' });
      const busy = {
        code: 'CRAWL_DB_LOCKED',
        message: '2 jobs are running (an export of "h1"; a comparison of "h1" and "h2"), as many as the engine runs at once; wait for one to end or cancel it',
      };
      await expect(api.compareCrawls('h2', 'h1', { jobId: 'c2' })).rejects.toMatchObject(busy);
      await expect(api.exportGraph('h2', { model: 'page', format: 'edgelist' })).rejects.toMatchObject(busy);
      await expect(api.partitionCrawl('h2', { models: ['page'], parts: [2], runs: 1 })).rejects.toMatchObject(busy);
      await expect(api.startExport('h2', { format: 'csv' })).rejects.toMatchObject(busy);
      // Analyses have slots of their own.
      expect((await api.runEvaluation('h2')).pagesFetched).toBe(50);
      // The comparison ends: the next job is taken; the export ends: so is another.
      expect((await comparing).pages.both).toBe(50);
      expect((await api.exportGraph('h2', { model: 'page', format: 'edgelist' })).edges).toBe(50);
      expect((await exportEnded).state).toBe('finished');
      const again = await Promise.all([api.compareCrawls('h2', 'h1', { jobId: 'c3' }), api.exportGraph('h1', { model: 'page', format: 'metis' })]);
      expect(again.map((r) => ('vertices' in r ? r.vertices : r.pages.both))).toEqual([50, 50]);
    } finally {
      await api.close();
    }
  });
});
