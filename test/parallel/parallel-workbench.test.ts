/**
 * The workbench's parallel crawl (issue 25, item 6), through the engine API as the window asks
 * it: a parallel crawl of a demo web created (createParallelCrawl) and started; it runs in a
 * process of its own (cli/parallel-runner.ts) with K worker processes and the embedded
 * nats-server, streams each worker's figures (parallelProgress) and the crawl's stats; pause
 * stops every worker and start resumes them from their files; when it ends the merged crawl is
 * NAME.db, listed as finished with every page the workers fetched, and read as any crawl is.
 * Needs the built runner (dist/, as npm test builds it).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { CrawlStateEvent, ParallelProgressEvent } from '../../core/api/contract.js';
import { EngineApi } from '../../core/api/engine-api.js';
import { partsPath } from '../../core/api/parallel-files.js';
import { freePort } from '../ui/e2e-kit.js';
import { fetchedUrls } from '../helpers/crawl-db.js';
import { tmpDir } from '../helpers/tmp.js';
import { closeAfter, describeWith } from '../references.js';

const dir = tmpDir('crawlbench-parallel-workbench-');


/** The next crawlState of `id` among `statuses`. */
function next(api: EngineApi, id: string, statuses: string[]): Promise<CrawlStateEvent> {
  return new Promise((resolve) => {
    const off = api.onCrawlState((e) => {
      if (e.crawlId === id && statuses.includes(e.status)) {
        off();
        resolve(e);
      }
    });
  });
}

describeWith(['nats-server'], 'the workbench runs a parallel crawl', async () => {
  const api = new EngineApi(join(dir, 'workspace'), { demoPort: await freePort() });
  closeAfter(() => api.close());
  const web = { sites: 12, pages: 400, latencyMs: 5 };

  it('K = 3 by a hash of hosts: workers streamed, paused and resumed, merged into NAME.db and read as any crawl', async () => {
    // The same demo web crawled by one process first: the merged crawl must fetch the same pages.
    await api.createCrawl({ name: 'single', demoWeb: web });
    let ended = next(api, 'single', ['finished', 'paused', 'stopped']);
    await api.start('single');
    expect((await ended).status).toBe('finished');

    const info = await api.createParallelCrawl({ name: 'par', demoWeb: web, parallel: { parts: 3, model: 'site', assign: 'hash', predictFrom: 'single' } });
    expect(info.status).toBe('created');
    expect((await api.parallelCrawl('par'))?.options).toEqual({ parts: 3, model: 'site', assign: 'hash', predictFrom: 'single' });
    expect(await api.parallelCrawl('single')).toBeNull();
    const events: ParallelProgressEvent[] = [];
    const off = api.onParallelProgress((e) => events.push(e));

    // Paused once its workers have fetched pages: every worker ends, and the start resumes them.
    let paused = next(api, 'par', ['paused', 'finished']);
    await api.start('par');
    await expect.poll(() => events.some((e) => e.workers.reduce((n, w) => n + w.pages, 0) > 20), { timeout: 60_000, interval: 100 }).toBe(true);
    await api.pause('par');
    const p = await paused;
    if (p.status === 'paused') {
      expect((await api.listCrawls()).find((c) => c.id === 'par')?.status).toBe('paused');
      ended = next(api, 'par', ['finished', 'paused', 'stopped']);
      await api.resume('par');
      const e = await ended;
      expect(e.status, e.reason).toBe('finished');
    }
    off();

    // Each worker's throughput and the exchange against its prediction came as it ran.
    const last = events[events.length - 1]!;
    expect(last.workers.map((w) => w.part)).toEqual([0, 1, 2]);
    for (const w of last.workers) expect(w.pages).toBeGreaterThan(0);
    expect(events.some((e) => e.workers.some((w) => w.pagesPerSecond > 0))).toBe(true);
    expect(last.exchange.messages).toBeGreaterThan(0);
    expect(last.prediction).toMatchObject({ crawl: 'single' });
    expect(last.prediction!.messages).toBeGreaterThan(0);

    // NAME.db is the merged crawl: finished, the single crawl's pages, read by the views' calls.
    const listed = (await api.listCrawls()).find((c) => c.id === 'par')!;
    expect(listed.status).toBe('finished');
    const ws = join(dir, 'workspace');
    expect(fetchedUrls(join(ws, 'par.db'))).toEqual(fetchedUrls(join(ws, 'single.db')));
    expect(listed.pagesFetched).toBe(last.workers.reduce((n, w) => n + w.pages, 0));
    expect(existsSync(join(partsPath(join(ws, 'par.db')), 'part-2.db'))).toBe(true);
    expect((await api.listSites('par', { limit: 5 })).rows.length).toBeGreaterThan(0);
    expect((await api.runPageRank('par')).page.nodes).toBeGreaterThan(0);
    expect((await api.parallelCrawl('par'))?.progress?.workers).toHaveLength(3);
  }, 240_000);
});
