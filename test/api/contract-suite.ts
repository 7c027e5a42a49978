/**
 * What the engine answers about real crawls, run once per transport against a real EngineApi
 * crawling a hand-made web on loopback. What every implementation (the fake one too) must
 * answer without a crawl is in shape-suite.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { CrawlbenchApi, PartitionProgressEvent, CrawlStateEvent, ExportJobDto, StatsEvent } from '../../core/api/contract.js';
import { TestWebServer } from '../../core/testweb/server.js';
import { handWeb } from '../../core/testweb/hand-web.js';
import { itWith } from '../references.js';

export const XSS_TITLE = '<img src=x onerror=alert(1)>';

export function xssWeb() {
  const pages = Array.from({ length: 8 }, (_, i) => ({ path: `/p${i}`, title: `page ${i}`, links: [`/p${i + 1}`] }));
  return handWeb([
    {
      host: 'a.test',
      latencyMs: 250,
      pages: [
        { path: '/', title: 'home', links: [{ href: '/evil', text: 'the <b>evil</b> page' }, '/p0', 'http://b.test/'] },
        { path: '/evil', title: XSS_TITLE, links: ['/'] },
        ...pages,
      ],
    },
    { host: 'b.test', pages: [{ path: '/', title: 'b home', links: ['http://a.test/evil'] }] },
  ]);
}

export interface Harness {
  api: CrawlbenchApi;
  close(): Promise<void>;
}

function waitFor(api: CrawlbenchApi, id: string, status: CrawlStateEvent['status']): Promise<CrawlStateEvent> {
  return new Promise((resolve) => {
    const off = api.onCrawlState((e) => {
      if (e.crawlId === id && e.status === status) {
        off();
        resolve(e);
      }
    });
  });
}

export function contractSuite(transport: string, makeHarness: () => Promise<Harness>): void {
  describe(`CrawlbenchApi over ${transport}`, () => {
    let h: Harness;
    let web: TestWebServer;
    let port = 0;
    beforeAll(async () => {
      h = await makeHarness();
      web = new TestWebServer(xssWeb(), { port: 0 });
      port = await web.start();
    });
    afterAll(async () => {
      await h?.close();
      await web?.stop();
    });
    const request = (name: string, extra = {}) => ({
      name,
      seedText: `http://a.test:${port}/\n.test`,
      resolve: [{ pattern: '*.test', address: '127.0.0.1' }],
      w: 0,
      r: 1,
      ...extra,
    });

    it('creates, runs to the end with live stats, and answers questions about the crawl', async () => {
      const stats: StatsEvent[] = [];
      const off = h.api.onStats((s) => stats.push(s));
      const created = await h.api.createCrawl(request('one'));
      expect(created).toMatchObject({ id: 'one', status: 'created', policy: 'breadth-first' });
      const finished = waitFor(h.api, 'one', 'finished');
      // The start answers once the crawl's process has announced itself: opening the crawl, or running already.
      expect((await h.api.start('one')).status).toMatch(/^(starting|running)$/);
      expect((await finished).reason).toBe('finished');
      off();
      expect(stats.length).toBeGreaterThan(0);
      expect(stats[0]).toMatchObject({ crawlId: 'one', r: 1 });
      expect(stats[0]).toHaveProperty('pagerankEstimate');
      const list = await h.api.listCrawls();
      expect(list.find((c) => c.id === 'one')).toMatchObject({ status: 'finished', pagesFetched: 12 });
      const sites = await h.api.listSites('one', { sort: 'host', descending: false, limit: 1 });
      expect(sites.total).toBe(2);
      expect(sites.rows[0]!.host).toBe('a.test');
      const page = await h.api.getPage('one', `http://a.test:${port}/evil`);
      expect(page?.title).toBe(XSS_TITLE);
      expect(page?.inLinks.map((l) => l.anchor)).toContain('the <b>evil</b> page');
      expect(page?.outLinks.map((l) => l.url)).toEqual([`http://a.test:${port}/`]);
      expect(await h.api.getPage('one', 'http://a.test/missing')).toBeNull();
    });

    it('pauses, refuses to delete a running crawl, resumes and deletes', async () => {
      await h.api.createCrawl(request('two'));
      await h.api.start('two');
      const refused = await h.api.deleteCrawl('two').catch((e: { code: string }) => e.code);
      expect(refused).toBe('CRAWL_DB_LOCKED');
      const paused = await h.api.pause('two');
      expect(paused.status).toBe('paused');
      expect(paused.pagesFetched).toBeLessThan(12);
      const finished = waitFor(h.api, 'two', 'finished');
      await h.api.resume('two');
      await finished;
      expect((await h.api.listCrawls()).find((c) => c.id === 'two')?.pagesFetched).toBe(12);
      await h.api.deleteCrawl('two');
      expect((await h.api.listCrawls()).map((c) => c.id)).not.toContain('two');
    });

    it('computes PageRank (pages and sites) and the evaluation of a finished crawl', async () => {
      const rank = await h.api.runPageRank('one');
      expect(rank.page).toMatchObject({ kind: 'page', nodes: 12, iterations: expect.any(Number) });
      expect(rank.page.top[0]!.name).toMatch(/^http:\/\/a\.test:\d+\//);
      expect(rank.page.top.reduce((m, t) => Math.max(m, t.value), 0)).toBe(rank.page.top[0]!.value);
      expect(rank.site).toMatchObject({ kind: 'site', nodes: 2 });
      const ev = await h.api.runEvaluation('one');
      expect(ev).toMatchObject({ truth: 'stored', pagesFetched: 12 });
      expect(ev.kendallTau).toBeGreaterThanOrEqual(-1);
      expect(ev.kendallTau).toBeLessThanOrEqual(1);
      expect(ev.averageCumulativePageRank).toBeGreaterThan(0);
      expect(ev.averageCumulativePageRank).toBeLessThanOrEqual(ev.upperBoundAverage + 1e-9);
      expect(ev.curve.length).toBeGreaterThan(1);
      expect(ev.curve[ev.curve.length - 1]!.cumulativePageRank).toBeCloseTo(1, 6);
    });

    itWith(['metis'], 'partitions a finished crawl with progress events, and writes its graph files for download', async () => {
      const progress: PartitionProgressEvent[] = [];
      const off = h.api.onPartitionProgress((e) => progress.push(e));
      const report = await h.api.partitionCrawl('one', { jobId: 'pj', models: ['page', 'site'], parts: [2], runs: 1 });
      // Events and replies travel apart over IPC: the last event may come after the answer.
      await expect.poll(() => progress.some((e) => e.done === e.total)).toBe(true);
      off();
      expect(report).toMatchObject({ pages: 12, sites: 2, parts: [2], models: ['page', 'site'] });
      expect(report.rows.filter((r) => r.method === 'hash').map((r) => r.level)).toEqual(['page', 'site']);
      for (const r of report.rows) expect(r.mean === null || r.mean.parts === 2).toBe(true);
      expect(progress.map((e) => e.done).sort()).toEqual([1, 2, 3, 4]); // two hashes, then a gpmetis run per graph model
      expect(progress[0]).toMatchObject({ jobId: 'pj', crawlId: 'one', total: 4 });
      const files = await h.api.exportGraph('one', { model: 'site', format: 'metis' });
      expect(files).toMatchObject({ model: 'site', vertices: 2, sizeUnit: 1024 });
      expect(files.files.map((f) => [f.name, f.href])).toEqual([
        ['site.graph', '/exports/graph-one/site.graph'],
        ['site.graph.ids.tsv', '/exports/graph-one/site.graph.ids.tsv'],
      ]);
      expect(files.files[0]!.bytes).toBeGreaterThan(0);
    });

    it('exports a crawl with progress events to a finished file, and refuses a WARC of a crawl without content', async () => {
      // Subscribed before starting: a small export may end before startExport's answer arrives.
      const events: ExportJobDto[] = [];
      const waiting = new Map<string, (e: ExportJobDto) => void>();
      const off = h.api.onExportProgress((e) => {
        events.push(e);
        if (e.state !== 'running') waiting.get(e.exportId)?.(e);
      });
      const ended = (id: string) =>
        new Promise<ExportJobDto>((resolve) => {
          const seen = events.find((e) => e.exportId === id && e.state !== 'running');
          if (seen) resolve(seen);
          else waiting.set(id, resolve);
        });
      const { exportId } = await h.api.startExport('one', { format: 'jsonl', what: 'pages' });
      const done = await ended(exportId);
      expect(done).toMatchObject({ crawlId: 'one', format: 'jsonl', what: 'pages', state: 'finished', total: expect.any(Number), error: null });
      expect(done.done).toBe(done.total);
      expect(done.files).toEqual([{ name: 'one-pages.jsonl', bytes: expect.any(Number), path: expect.stringMatching(/one-pages\.jsonl$/), href: expect.stringMatching(/^\/exports\/.+\/one-pages\.jsonl$/) }]);
      expect(readFileSync(done.files[0]!.path, 'utf8').trim().split('\n')).toHaveLength(12);
      expect(events.filter((e) => e.exportId === exportId).at(-1)?.state).toBe('finished');
      expect((await h.api.listExports('one')).map((e) => e.exportId)).toContain(exportId);
      const warc = await h.api.startExport('one', { format: 'warc' });
      const refused = await ended(warc.exportId);
      expect(refused).toMatchObject({ state: 'failed', files: [], error: { code: 'CRAWL_EXPORT_NO_CONTENT', message: expect.stringMatching(/--store-content/) } });
      off();
    });
  });
}
