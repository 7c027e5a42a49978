import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCrawlRead } from '../../core/api/crawl-reads.js';
import { Crawler } from '../../core/engine/crawler.js';
import { withMigratedCrawlReader } from '../../core/store/crawl-reader.js';
import { generateWeb, seedUrls } from '../../core/testweb/generator.js';
import { sqlRows } from '../helpers/crawl-db.js';
import { tmpDir } from '../helpers/tmp.js';
import { serve, testSettings } from '../helpers/web.js';

const CHILD = join(__dirname, 'fixtures', 'kill-on-indexing.mjs');
const dir = tmpDir();

/** Runs a crawl in a child process killed with SIGKILL as it starts building its read indexes. */
async function killedWhileIndexing(db: string, seeds: string[], how: 'finish' | 'stop'): Promise<void> {
  // Stopped: slow enough (w 20 ms) to be stopped after 20 pages, well before its end.
  const settings = testSettings(seeds, how === 'stop' ? { w: 20 } : {});
  const child = spawn(process.execPath, [CHILD, db, JSON.stringify(settings), how], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (c, s) => resolve([c, s])));
  expect({ code, signal, stderr }).toEqual({ code: null, signal: 'SIGKILL', stderr: '' });
}

const count = (db: string, sql: string) => sqlRows<{ n: number }>(db, `SELECT count(*) AS n FROM ${sql}`)[0]!.n;
const ftsTables = (db: string) => count(db, "sqlite_master WHERE type = 'table' AND name = 'pages_fts'");

/** What the kill left: the final state committed, the read indexes not built (page_indegree empty). */
function expectCutShort(db: string, state: string): void {
  expect(sqlRows<{ value: string }>(db, "SELECT value FROM meta WHERE key = 'state'")[0]!.value).toBe(state);
  expect(ftsTables(db)).toBe(0);
  expect(count(db, 'page_indegree')).toBe(0);
}

/** The read indexes as an uninterrupted end builds them, and the Pages view's in-degree sort answering from them. */
function expectIndexed(db: string): void {
  const found = runCrawlRead({ what: 'search', path: db, query: { sort: 'indegree', descending: true, limit: 5 } });
  expect(found.indexed).toBe(true);
  expect(found.rows).toHaveLength(5);
  expect(found.rows[0]!.inDegree).toBeGreaterThan(1);
  expect(found.rows.every((r) => typeof r.inDegree === 'number')).toBe(true);
  expect(ftsTables(db)).toBe(1);
  expect(count(db, "sqlite_master WHERE type = 'index' AND name IN ('pages_url', 'links_dst', 'pages_site')")).toBe(3);
  expect(count(db, 'page_indegree')).toBe(count(db, 'pages'));
}

/**
 * A kill -9 between a crawl's final state and its read indexes (the review's defect: the
 * crawler commits 'finished' or 'stopped', then builds them) used to leave the crawl without
 * them for good: nothing resumes a stopped crawl, stopStored returned at once, and readers
 * never build. The next touch of the crawl now builds them.
 */
describe('a crawl killed while building its read indexes', async () => {
  const web = generateWeb({ seed: 5, sites: 4, pages: 120, latency: { maxMs: 1 } });
  const { port } = await serve(web);
  const seeds = seedUrls(web, port);

  it("finished: the workbench's next read of it (the Pages view) builds them, and in-degrees sort", async () => {
    const db = join(dir, 'finished.db');
    await killedWhileIndexing(db, seeds, 'finish');
    expectCutShort(db, 'finished');
    // A read on the server's own thread (its settings, errors, timeline) does not build them:
    // minutes for millions of pages would hold the server; the read worker's reads do.
    expect(withMigratedCrawlReader(db, (r) => r.state())).toBe('finished');
    expectCutShort(db, 'finished');
    expectIndexed(db);
  });

  it('stopped: stopping it again (stopStored) builds them; it stays stopped', async () => {
    const db = join(dir, 'stopped.db');
    await killedWhileIndexing(db, seeds, 'stop');
    expectCutShort(db, 'stopped');
    Crawler.stopStored(db);
    expect(sqlRows<{ value: string }>(db, "SELECT value FROM meta WHERE key = 'state'")[0]!.value).toBe('stopped');
    expect(ftsTables(db)).toBe(1);
    expect(count(db, 'page_indegree')).toBe(count(db, 'pages'));
    expectIndexed(db);
  });

  it('stopped: an attempt to resume it is refused, and leaves it with them', async () => {
    const db = join(dir, 'resumed.db');
    await killedWhileIndexing(db, seeds, 'stop');
    expectCutShort(db, 'stopped');
    expect(() => Crawler.open(db)).toThrow(expect.objectContaining({ code: 'CRAWL_STOPPED' }));
    expect(ftsTables(db)).toBe(1);
    expect(count(db, 'page_indegree')).toBe(count(db, 'pages'));
  });
});
