/**
 * The contract every transport must honour, run once per transport against a real
 * EngineApi crawling a hand-made web on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlbenchApi, CrawlStateEvent, StatsEvent } from '../../core/api/contract.js';
import { TestWebServer } from '../../core/testweb/server.js';
import { handWeb } from '../../core/testweb/hand-web.js';

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

    it('describes the policies from the registry', async () => {
      const policies = await h.api.listPolicies();
      expect(policies.find((p) => p.name === 'breadth-first')?.summary).toMatch(/\w/);
    });

    it('understands URLs, hosts and domain suffixes as seeds, and names bad ones', async () => {
      const p = await h.api.parseSeeds('http://www.uchile.cl/a\nwww.emol.cl, .cl\nftp://x.cl/ # no\nbad_host!');
      expect(p.urls).toEqual(['http://www.uchile.cl/a']);
      expect(p.hosts).toEqual(['www.emol.cl']);
      expect(p.suffixes).toEqual(['.cl']);
      expect(p.problems.map((x) => x.line)).toEqual([3, 4]);
    });

    it('sends errors across as {name, code, message}', async () => {
      const err = await h.api.createCrawl({ name: 'bad', seedText: 'ftp://nowhere/' }).catch((e: unknown) => e);
      expect(err).toMatchObject({ name: 'CrawlError', code: 'CRAWL_BAD_SEED' });
      expect((err as Error).message).toMatch(/ftp:\/\/nowhere/);
      expect(await h.api.getPage('no-such-crawl', 'http://x/').catch((e: { code: string }) => e.code)).toBe('CRAWL_DB_MISSING');
    });

    it('creates, runs to the end with live stats, and answers questions about the crawl', async () => {
      const stats: StatsEvent[] = [];
      const off = h.api.onStats((s) => stats.push(s));
      const created = await h.api.createCrawl(request('one'));
      expect(created).toMatchObject({ id: 'one', status: 'created', policy: 'breadth-first' });
      const finished = waitFor(h.api, 'one', 'finished');
      expect((await h.api.start('one')).status).toBe('running');
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

    it('computes PageRank and the evaluation of a finished crawl (or says, with a code, that it cannot)', async () => {
      for (const run of [() => h.api.runPageRank('one'), () => h.api.runEvaluation('one')]) {
        const r = await run().then(
          (v) => ({ ok: true as const, v }),
          (e: { code?: unknown }) => ({ ok: false as const, code: e.code }),
        );
        if (r.ok) expect(typeof r.v).toBe('object');
        else expect(r.code).toMatch(/^CRAWL_/);
      }
    });

    it('reports analyses that are not there yet as errors with a code', async () => {
      const r = await h.api.startExport('one').then(
        (v) => ({ ok: true, v }),
        (e: { code: string }) => ({ ok: false, code: e.code }),
      );
      if (!r.ok) expect(r).toMatchObject({ code: 'CRAWL_INTERNAL' });
    });
  });
}
