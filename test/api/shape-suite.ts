/**
 * What every implementation of CrawlbenchApi must answer, and how: the engine behind each
 * transport (WebSocket, IPC) and the renderer's fake API (test/renderer/fake-api.ts), so that
 * the UI's tests cannot drift from the engine. Nothing here needs a crawl to run: what does is
 * in contract-suite.ts, run against the engine only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlbenchApi, CrawlInfo, ExportRequest } from '../../core/api/contract.js';

export interface ShapeHarness {
  api: CrawlbenchApi;
  close(): Promise<void>;
}

async function codeOf(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => 'resolved',
    (e: { code?: unknown }) => e.code,
  );
}

function expectCrawlInfo(c: CrawlInfo): void {
  expect(c).toMatchObject({
    id: expect.any(String),
    status: expect.stringMatching(/^(created|starting|running|pausing|paused|stopped|finished|interrupted|unreadable)$/),
    pagesFetched: expect.any(Number),
    pagesKnown: expect.any(Number),
    queued: expect.any(Number),
    sites: expect.any(Number),
    sizeBytes: expect.any(Number),
    demoWeb: expect.any(Boolean),
  });
  expect(c).toHaveProperty('policy');
  expect(c).toHaveProperty('createdAt');
  expect(c).toHaveProperty('endReason');
  expect(c).toHaveProperty('historyMatched');
}

export function shapeSuite(implementation: string, makeHarness: () => Promise<ShapeHarness>): void {
  describe(`CrawlbenchApi shape: ${implementation}`, () => {
    let h: ShapeHarness;
    beforeAll(async () => {
      h = await makeHarness();
    });
    afterAll(() => h?.close());

    it('lists the policies with their parameters', async () => {
      const policies = await h.api.listPolicies();
      expect(policies.length).toBeGreaterThan(0);
      for (const p of policies) {
        expect(p).toMatchObject({ name: expect.any(String), summary: expect.stringMatching(/\w/), params: expect.any(Array) });
        for (const q of p.params) expect(q.type).toMatch(/^(number|integer|string|boolean)$/);
      }
      expect(policies.map((p) => p.name)).toContain('breadth-first');
    });

    it('reads seeds line by line: URLs, hosts, suffixes, and each bad line with its number', async () => {
      const p = await h.api.parseSeeds('http://www.uchile.cl/a\nwww.emol.cl, .cl\nftp://x.cl/ # no\nnot a url at all');
      expect(p.urls).toEqual(['http://www.uchile.cl/a']);
      expect(p.hosts).toEqual(['www.emol.cl']);
      expect(p.suffixes).toEqual(['.cl']);
      expect(p.problems.map((x) => x.line)).toEqual([3, 4]);
      for (const x of p.problems) expect(x).toMatchObject({ text: expect.any(String), problem: expect.stringMatching(/\w/) });
      expect(p.problemCount ?? p.problems.length).toBe(2);
    });

    it('answers health(): up, its process, its uptime, the crawls it follows', async () => {
      const h1 = await h.api.health();
      expect(h1).toMatchObject({ ok: true, pid: expect.any(Number), uptimeSeconds: expect.any(Number), crawls: expect.any(Array) });
      expect(Object.keys(h1).sort()).toEqual(['crawls', 'ok', 'pid', 'uptimeSeconds']);
    });

    it('reads seed text too long for one message from an upload in chunks, and creates a crawl from it (issue 23)', async () => {
      const lines = Array.from({ length: 3000 }, (_, i) => `http://127.0.0.1:9/upload/${i}`);
      const text = `${lines.join('\n')}\nnot a seed\n`;
      // Three chunks, cut anywhere (mid-line here): the engine joins them before reading.
      const cut = [0, 20_000, 50_000, text.length];
      for (let part = 0; part < 3; part++) {
        expect(await h.api.uploadSeeds('shape-up', text.slice(cut[part], cut[part + 1]), part)).toEqual({ uploadId: 'shape-up', parts: part + 1, chars: cut[part + 1] });
      }
      const read = await h.api.parseSeeds({ uploadId: 'shape-up' });
      expect(read.urls).toEqual(lines);
      expect(read.problems).toEqual([{ line: 3001, text: 'not a seed', problem: expect.any(String) }]);
      // Out of order, unknown, too long: refused naming the field.
      expect(await h.api.uploadSeeds('shape-up', 'x', 7).catch((e: unknown) => e)).toMatchObject({ code: 'CRAWL_BAD_OPTION', field: 'part' });
      expect(await h.api.uploadSeeds('never-started', 'x', 1).catch((e: unknown) => e)).toMatchObject({ code: 'CRAWL_BAD_OPTION', field: 'uploadId' });
      expect(await h.api.uploadSeeds('../up', 'x', 0).catch((e: unknown) => e)).toMatchObject({ code: 'CRAWL_BAD_OPTION', field: 'uploadId' });
      expect(await h.api.parseSeeds({ uploadId: 'never-started' }).catch((e: unknown) => e)).toMatchObject({ code: 'CRAWL_BAD_OPTION', field: 'uploadId' });
      // Part 0 starts it again: the good lines only.
      await h.api.uploadSeeds('shape-up', lines.slice(0, 2000).join('\n'), 0);
      await h.api.uploadSeeds('shape-up', `\n${lines.slice(2000).join('\n')}`, 1);
      const created = await h.api.createCrawl({ name: 'uploaded', seedUploadId: 'shape-up', w: 0, r: 2 });
      expect(created).toMatchObject({ id: 'uploaded', status: 'created' });
      expect((await h.api.crawlSettings('uploaded')).seeds).toHaveLength(3000);
      // Used up by the crawl it made.
      expect(await h.api.parseSeeds({ uploadId: 'shape-up' }).catch((e: unknown) => e)).toMatchObject({ code: 'CRAWL_BAD_OPTION', field: 'uploadId' });
      expect(await h.api.createCrawl({ name: 'uploaded-2', seedUploadId: 'shape-up', w: 0 }).catch((e: unknown) => e)).toMatchObject({ code: 'CRAWL_BAD_OPTION', field: 'seedUploadId' });
      await h.api.deleteCrawl('uploaded');
    });

    it('refuses bad input as {name, code, message, field}, naming the field', async () => {
      const seed = await h.api.createCrawl({ name: 'bad', seedText: 'ftp://nowhere/' }).catch((e: unknown) => e);
      expect(seed).toMatchObject({ name: 'CrawlError', code: 'CRAWL_BAD_SEED', field: 'seedText', message: expect.stringMatching(/ftp:\/\/nowhere/) });
      const w = await h.api.createCrawl({ name: 'bad', seedText: 'http://127.0.0.1:9/', w: '' as unknown as number }).catch((e: unknown) => e);
      expect(w).toMatchObject({ name: 'CrawlError', code: 'CRAWL_BAD_OPTION', field: 'w' });
      expect((await h.api.listCrawls()).map((c) => c.id)).not.toContain('bad');
    });

    it('says CRAWL_DB_MISSING for a crawl that is not there', async () => {
      for (const p of [h.api.getPage('no-such-crawl', 'http://x/'), h.api.start('no-such-crawl'), h.api.deleteCrawl('no-such-crawl'), h.api.timeline('no-such-crawl'), h.api.crawlSettings('no-such-crawl'), h.api.pageRankResult('no-such-crawl')]) {
        expect(await codeOf(p)).toBe('CRAWL_DB_MISSING');
      }
    });

    it('creates a crawl, lists it with every field, answers its empty tables, refuses a second of that name, deletes it', async () => {
      const created = await h.api.createCrawl({ name: 'shape', seedText: 'http://127.0.0.1:9/', w: 0, r: 2 });
      expectCrawlInfo(created);
      expect(created).toMatchObject({ id: 'shape', status: 'created', policy: 'breadth-first', endReason: null, historyMatched: null, demoWeb: false });
      const listed = (await h.api.listCrawls()).find((c) => c.id === 'shape')!;
      expectCrawlInfo(listed);
      expect(await codeOf(h.api.createCrawl({ name: 'shape', seedText: 'http://127.0.0.1:9/', w: 0 }))).toBe('CRAWL_SETTINGS_CONFLICT');
      expect(await h.api.currentStats('shape')).toBeNull();
      const sites = await h.api.listSites('shape', { limit: 5 });
      expect(sites).toMatchObject({ total: expect.any(Number), rows: expect.any(Array) });
      const timeline = await h.api.timeline('shape');
      expect(timeline).toMatchObject({ stored: true, points: expect.any(Array) });
      expect(Array.isArray(await h.api.parkedSites('shape'))).toBe(true);
      expect(Array.isArray(await h.api.recentErrors('shape'))).toBe(true);
      expect(await h.api.pageRankResult('shape')).toBeNull();
      // results: evaluation options checked before any work, naming the field; a cancel with nothing under way does nothing.
      const points = await h.api.runEvaluation('shape', { points: 1 }).catch((e: unknown) => e);
      expect(points).toMatchObject({ code: 'CRAWL_BAD_OPTION', field: 'points' });
      expect(await h.api.cancelAnalysis('shape')).toBeFalsy();
      await h.api.deleteCrawl('shape');
      expect((await h.api.listCrawls()).map((c) => c.id)).not.toContain('shape');
    });

    it('gives a crawl\'s settings back in New crawl\'s terms (for Crawl again): seeds as seed text, w in ms, the demo web with its revision', async () => {
      await h.api.createCrawl({ name: 'again', seedText: 'http://127.0.0.1:9/a\n.test', w: 2000, r: 2, maxPages: 7, policy: 'breadth-first' });
      const s = await h.api.crawlSettings('again');
      expect(s).toMatchObject({ id: 'again', seeds: ['http://127.0.0.1:9/a'], policy: 'breadth-first', policyParams: {}, historyCrawl: null, w: 2000, r: 2, maxPages: 7, batch: null, demoWeb: null });
      expect(s.scope.suffixes).toEqual(['.test']);
      expect(typeof s.userAgent).toBe('string');
      const again = await h.api.parseSeeds(s.seedText);
      expect([again.urls, again.suffixes, again.problems]).toEqual([['http://127.0.0.1:9/a'], ['.test'], []]);
      await h.api.createCrawl({ name: 'again-demo', demoWeb: { latencyMs: 0, revision: 2 }, w: 0 });
      expect((await h.api.crawlSettings('again-demo')).demoWeb).toMatchObject({ latencyMs: 0, revision: 2, sites: expect.any(Number), pages: expect.any(Number) });
      expect((await h.api.crawlSettings('again-demo')).seedText).toBe('');
      await h.api.createCrawl({ name: 'again-h', seedText: 'http://127.0.0.1:9/a', w: 2000, policy: 'historical-pagerank-parent', historyCrawl: 'again' });
      expect(await h.api.crawlSettings('again-h')).toMatchObject({ policy: 'historical-pagerank-parent', historyCrawl: 'again', policyParams: {} });
      for (const id of ['again', 'again-demo', 'again-h']) await h.api.deleteCrawl(id);
    });

    it('refuses a bad export request naming the field, and lists exports', async () => {
      await h.api.createCrawl({ name: 'exp', seedText: 'http://127.0.0.1:9/', w: 0, r: 2 });
      expect(await codeOf(h.api.startExport('no-such-crawl', { format: 'csv' }))).toBe('CRAWL_DB_MISSING');
      const format = await h.api.startExport('exp', { format: 'zip' as 'csv' }).catch((e: unknown) => e);
      expect(format).toMatchObject({ code: 'CRAWL_BAD_OPTION', field: 'format', message: expect.stringMatching(/warc, jsonl, csv, parquet/) });
      const what = await h.api.startExport('exp', { format: 'csv', what: 'nodes' as 'pages' }).catch((e: unknown) => e);
      expect(what).toMatchObject({ code: 'CRAWL_BAD_OPTION', field: 'what' });
      const out = await h.api.startExport('exp', { format: 'csv', out: '/etc/passwd' } as ExportRequest).catch((e: unknown) => e);
      expect(out).toMatchObject({ code: 'CRAWL_BAD_OPTION', field: 'out' });
      expect(await codeOf(h.api.cancelExport('no-such-export'))).toBe('CRAWL_BAD_OPTION');
      expect(await h.api.listExports('exp')).toEqual([]);
      await h.api.deleteCrawl('exp');
    });

    it('refuses a partitioning or a graph export it cannot do, naming the field', async () => {
      expect(await codeOf(h.api.partitionCrawl('no-such-crawl', { models: ['page'], parts: [2] }))).toBe('CRAWL_DB_MISSING');
      await h.api.createCrawl({ name: 'shape-graph', seedText: 'http://127.0.0.1:9/', w: 0 });
      const refusal = (p: Promise<unknown>) => p.then(() => null, (e: { code?: string; field?: string }) => ({ code: e.code, field: e.field }));
      expect(await refusal(h.api.partitionCrawl('shape-graph', { models: [], parts: [2] }))).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'models' });
      expect(await refusal(h.api.partitionCrawl('shape-graph', { models: ['pages' as 'page'], parts: [2] }))).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'models' });
      expect(await refusal(h.api.partitionCrawl('shape-graph', { models: ['page'], parts: [1] }))).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'parts' });
      expect(await refusal(h.api.partitionCrawl('shape-graph', { models: ['page'], parts: [2], runs: 0 }))).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'runs' });
      expect(await codeOf(h.api.partitionCrawl('shape-graph', { models: ['page'], parts: [2] }))).toBe('CRAWL_GRAPH_NO_LINKS');
      expect(await refusal(h.api.exportGraph('shape-graph', { model: 'page', format: 'gml' as 'graphml' }))).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'format' });
      expect(await h.api.cancelPartition('no-such-job')).toBeFalsy();
      await h.api.deleteCrawl('shape-graph');
    });

    // simulate: sources by id, every request field checked by name, kept runs listed.
    it('lists simulation sources and refuses a bad simulation naming the field', async () => {
      const sources = await h.api.listSimulationSources();
      expect(sources).toMatchObject({ crawls: expect.any(Array), datasets: expect.any(Array), datasetsDir: expect.any(String) });
      expect(sources.policies.map((p) => p.name)).toEqual(expect.arrayContaining(['breadth-first', 'omniscient']));
      for (const p of sources.policies) expect(p.summary).toMatch(/\w/);
      const refusal = (p: Promise<unknown>) => p.then(() => null, (e: { code?: string; field?: string }) => ({ code: e.code, field: e.field }));
      const ok = { source: { kind: 'crawl' as const, id: 'no-such-crawl' }, policies: ['breadth-first'] };
      expect(await refusal(h.api.startSimulation(ok))).toEqual({ code: 'CRAWL_DB_MISSING', field: 'source' });
      expect(await refusal(h.api.startSimulation({ ...ok, source: { kind: 'dataset', id: '../etc' } }))).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'source' });
      expect(await refusal(h.api.startSimulation({ ...ok, source: { kind: 'dataset', id: 'no-such-dataset' } }))).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'source' });
      expect(await refusal(h.api.startSimulation({ ...ok, policies: ['nope'] }))).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'policies' });
      expect(await refusal(h.api.startSimulation({ ...ok, r: 0 }))).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'r' });
      expect(await refusal(h.api.startSimulation({ ...ok, w: -5 }))).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'w' });
      expect(await refusal(h.api.getSimulation('no-such-simulation'))).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'simulationId' });
      expect(await refusal(h.api.cancelSimulation('no-such-simulation'))).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'simulationId' });
      expect(await h.api.listSimulations()).toEqual([]);
      const off = h.api.onSimulationProgress(() => {});
      expect(typeof off).toBe('function');
      off();
    });

    // pages (issue 18): the search's shape and its refusals, named by field.
    it('searches a crawl\'s pages in one shape, and refuses a bad search or link field naming it', async () => {
      expect(await codeOf(h.api.searchPages('no-such-crawl', {}))).toBe('CRAWL_DB_MISSING');
      await h.api.createCrawl({ name: 'shape-pages', seedText: 'http://127.0.0.1:9/', w: 0 });
      const found = await h.api.searchPages('shape-pages', { limit: 5 });
      expect(found).toMatchObject({ totalAtLeast: expect.any(Number), rows: expect.any(Array), offset: 0, limit: 5, sort: 'fetch', descending: false, indexed: expect.any(Boolean), complete: expect.any(Boolean), examined: expect.any(Number) });
      expect(found.total === null || typeof found.total === 'number').toBe(true);
      expect(found).toHaveProperty('pagerankRun');
      for (const row of found.rows) {
        expect(Object.keys(row).sort()).toEqual(['bytes', 'contentType', 'depth', 'fetchSeq', 'httpStatus', 'inDegree', 'pagerank', 'status', 'url']);
      }
      const refusal = (p: Promise<unknown>) => p.then(() => null, (e: { code?: string; field?: string }) => ({ code: e.code, field: e.field }));
      expect(await refusal(h.api.searchPages('shape-pages', { status: 'gone' as 'fetched' }))).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'status' });
      expect(await refusal(h.api.searchPages('shape-pages', { sort: 'size' as 'fetch' }))).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'sort' });
      expect(await refusal(h.api.searchPages('shape-pages', { limit: 0 }))).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'limit' });
      expect(await refusal(h.api.searchPages('shape-pages', { depth: -1 }))).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'depth' });
      expect(await refusal(h.api.searchPages('shape-pages', { url: 7 as unknown as string }))).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'url' });
      expect(await refusal(h.api.searchPages('shape-pages', { color: 'red' } as never))).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'color' });
      expect(await refusal(h.api.getPage('shape-pages', 'http://127.0.0.1:9/', { linkLimit: 0 }))).toEqual({ code: 'CRAWL_BAD_OPTION', field: 'linkLimit' });
      await h.api.deleteCrawl('shape-pages');
    });

    // sites: the Sites view's rows and filters, and each bad query field refused by name.
    it('lists a crawl\'s sites in one shape, and refuses a bad sites query naming the field', async () => {
      await h.api.createCrawl({ name: 'sites-shape', seedText: 'http://127.0.0.1:9/', w: 0 });
      const page = await h.api.listSites('sites-shape', { host: 'x', state: 'done', errorsOnly: false, sort: 'site_pagerank', limit: 5 });
      expect(page).toMatchObject({ total: expect.any(Number), allSites: expect.any(Number), rows: expect.any(Array) });
      expect(page).toHaveProperty('pagerankRun');
      for (const r of (await h.api.listSites('sites-shape', { limit: 5 })).rows) {
        expect(r).toMatchObject({ host: expect.any(String), pagesFetched: expect.any(Number), state: expect.stringMatching(/^(pending|done|parked)$/), errorsByKind: expect.any(Object) });
        for (const k of ['robots', 'crawlDelayMs', 'pagerank', 'parked', 'connectMs', 'requestsPerConn']) expect(r).toHaveProperty(k);
      }
      const fields = await Promise.all(
        [{ sort: 'nope' }, { offset: -1 }, { limit: 501 }, { state: 'busy' }, { host: 3 }, { errorsOnly: 'yes' }].map((q) =>
          h.api.listSites('sites-shape', q as never).then(() => 'resolved', (e: { code?: string; field?: string }) => `${e.code} ${e.field}`),
        ),
      );
      expect(fields).toEqual(['sort', 'offset', 'limit', 'state', 'host', 'errorsOnly'].map((f) => `CRAWL_BAD_OPTION ${f}`));
      await h.api.deleteCrawl('sites-shape');
    });

    it('subscribes to events with a function that unsubscribes', () => {
      const offs = [h.api.onStats(() => {}), h.api.onCrawlState(() => {}), h.api.onExportProgress(() => {})];
      for (const off of offs) {
        expect(typeof off).toBe('function');
        off();
      }
    });
  });
}
