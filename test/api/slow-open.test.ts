/**
 * A crawl whose open takes longer than the workbench's start deadline (the review's defect:
 * the server SIGKILLed its own crawl's process when a resumed crawl took more than 60 s to
 * open, its frontier loaded and its policy replayed, which millions of fetched pages take).
 * Here the deadline is shortened and the open made longer than it by a history file that is
 * slow to read (a FIFO served late: fixtures/slow-fifo.mjs), through the real engine API,
 * crawl process and files. Also: a second start while one is under way, and a stop that finds
 * the run already ending as paused (a fixture runner ends its runs so).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CrawlStateEvent } from '../../core/api/contract.js';
import { EngineApi, type EngineApiOptions } from '../../core/api/engine-api.js';
import type { CrawlSettingsInput } from '../../core/config/settings.js';
import { generateWeb, seedUrls } from '../../core/testweb/generator.js';
import { fetchedUrls, sqlRows } from '../helpers/crawl-db.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, serve, testSettings } from '../helpers/web.js';

const SLOW_FIFO = join(__dirname, 'fixtures', 'slow-fifo.mjs');
const PAUSE_WINS = join(__dirname, 'fixtures', 'pause-wins-runner.mjs');
/** The start deadline, shortened: time enough for Node to start the crawl's process and for it to announce itself. */
const DEADLINE_MS = 3000;
/** The open's least length: the history file comes this long after the crawl's process opens it. */
const OPEN_MS = DEADLINE_MS + 2000;

describe("a crawl's process started and stopped through the engine API", async () => {
  const dir = tmpDir();
  const web = generateWeb({ seed: 9, sites: 3, pages: 90, latency: { maxMs: 1 } });
  const { port } = await serve(web);
  const seeds = seedUrls(web, port);

  /**
   * A crawl NAME in a workspace of its own, paused after 5 pages, and an engine API over it
   * (closed after `use`).
   */
  async function withPausedCrawl(name: string, extra: Partial<CrawlSettingsInput>, opts: EngineApiOptions, use: (api: EngineApi, db: string) => Promise<void>): Promise<void> {
    const ws = join(dir, `ws-${name}`);
    mkdirSync(ws);
    const db = join(ws, `${name}.db`);
    expect((await crawl(db, testSettings(seeds, { maxPages: 5, ...extra }))).stopReason).toBe('max-pages');
    const api = new EngineApi(ws, { demoPort: 0, ...opts });
    try {
      await use(api, db);
    } finally {
      await api.close();
    }
  }

  it('starts, shows as starting, then running, crawls on to its end, and is not killed', async () => {
    const ws = join(dir, 'ws');
    mkdirSync(ws);
    const history = join(dir, 'history.tsv');
    const qualities = `${seeds.map((u) => `${u}\t1`).join('\n')}\n`;
    writeFileSync(history, qualities);
    const db = join(ws, 'slow.db');
    const first = await crawl(db, testSettings(seeds, { policy: 'historical-pagerank-zero', policyParams: { history }, maxPages: 10 }));
    expect(first.stopReason).toBe('max-pages');
    // From now on its history file takes OPEN_MS to read: the crawl's open takes at least that.
    rmSync(history);
    execFileSync('mkfifo', [history]);
    // Ended with the test (a hook registered inside a test did not run: the server of the file
    // was left polling its pipe after every run).
    const slow = spawn(process.execPath, [SLOW_FIFO, history, qualities, String(OPEN_MS)], { stdio: 'ignore' });
    const api = new EngineApi(ws, { demoPort: 0, startDeadlineMs: DEADLINE_MS });
    try {
      const states: CrawlStateEvent[] = [];
      const ended = new Promise<CrawlStateEvent>((resolve) =>
        api.onCrawlState((e) => {
          states.push(e);
          if (!['starting', 'running', 'pausing'].includes(e.status)) resolve(e);
        }),
      );
      const started = await api.start('slow', { maxPages: null });
      // The start answers once the process has announced itself, before the crawl is open.
      expect(started.status).toBe('starting');
      const end = await ended;
      expect(end).toEqual({ crawlId: 'slow', status: 'finished', reason: 'finished' });
      expect(states.map((e) => e.status)).toEqual(['starting', 'running', 'finished']);
      expect(fetchedUrls(db).length).toBeGreaterThan(first.pagesFetched);
      const listed = (await api.listCrawls()).find((c) => c.id === 'slow');
      expect(listed).toMatchObject({ status: 'finished', endReason: { kind: 'finished' } });
    } finally {
      slow.kill();
      await api.close();
    }
  });

  it('a second start while one is under way is refused, as is deleting the crawl; a pause asked meanwhile applies once it runs', async () => {
    // The second start slipped in while the first spawned its process, and was even answered as
    // started; a pause or a delete in that window was not seen.
    await withPausedCrawl('twice', { w: 300 }, {}, async (api, db) => {
      const first = api.start('twice', { maxPages: null });
      await expect(api.start('twice', { maxPages: null })).rejects.toMatchObject({ code: 'CRAWL_DB_LOCKED', message: expect.stringMatching(/being started/) });
      await expect(api.deleteCrawl('twice')).rejects.toMatchObject({ code: 'CRAWL_DB_LOCKED' });
      const paused = api.pause('twice');
      await first;
      expect(await paused).toMatchObject({ status: 'paused' });
      expect(fetchedUrls(db).length).toBeLessThan(90);
      expect((await api.listCrawls()).find((c) => c.id === 'twice')).toMatchObject({ status: 'paused' });
    });
  });

  it('a stop that finds the run already ending as paused still leaves the crawl stopped', async () => {
    await withPausedCrawl('late', {}, { crawlRunner: PAUSE_WINS }, async (api, db) => {
      await api.start('late', { maxPages: null });
      expect(await api.stop('late')).toMatchObject({ status: 'stopped' });
      expect(sqlRows<{ value: string }>(db, "SELECT value FROM meta WHERE key = 'state'")[0]!.value).toBe('stopped');
    });
  });

  it('while a paused crawl is being stopped (its read indexes built on a worker thread) it is neither started nor deleted, and a second Stop waits for the first', async () => {
    await withPausedCrawl('slowstop', {}, {}, async (api, db) => {
      const first = api.stop('slowstop');
      await new Promise((r) => setImmediate(r));
      await expect(api.start('slowstop')).rejects.toMatchObject({ code: 'CRAWL_DB_LOCKED', message: expect.stringMatching(/being stopped/) });
      await expect(api.deleteCrawl('slowstop')).rejects.toMatchObject({ code: 'CRAWL_DB_LOCKED' });
      const second = api.stop('slowstop');
      expect(await first).toMatchObject({ status: 'stopped' });
      expect(await second).toMatchObject({ status: 'stopped' });
      expect(sqlRows<{ n: number }>(db, "SELECT count(*) AS n FROM sqlite_master WHERE name = 'pages_fts'")[0]!.n).toBe(1);
    });
  });

  it("a crawl's process does not take over the channel of another process running the crawl", async () => {
    // Announced before it holds the crawl's lock, a second process replaced the first's socket
    // and runner file, then failed on the lock: the first crawl ran on, out of every server's reach.
    await withPausedCrawl('other', {}, {}, async (api, db) => {
      // The other process: alive, and its channel listening (one whose channel answers nothing is a stale file: stale-runner.test.ts).
      const socket = join(dirname(db), 'theirs.sock');
      const channel = createServer((c) => c.destroy());
      await new Promise<void>((resolve) => channel.listen(socket, resolve));
      const theirs = JSON.stringify({ pid: process.pid, socket, startedAt: new Date().toISOString(), status: 'running' });
      writeFileSync(`${db}.runner`, theirs);
      try {
        await expect(api.start('other')).rejects.toMatchObject({ message: expect.stringMatching(/already runs in process/) });
        expect(readFileSync(`${db}.runner`, 'utf8')).toBe(theirs);
        expect(fetchedUrls(db)).toHaveLength(5);
      } finally {
        rmSync(`${db}.runner`, { force: true });
        channel.close();
      }
    });
  });
});
