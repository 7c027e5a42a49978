/**
 * The engine's side of the Results view: a crawl's stored PageRank is read back without
 * recomputing (null before any run, the latest run with its top pages and sites after one,
 * marked not current once the crawl has changed), and runPageRank and runEvaluation send
 * analysisProgress events, step by step, up to the end, for the crawl asked about only, from
 * a worker thread (dist's, built by npm test) that a cancel stops cleanly. An evaluation against
 * each of Cho et al.'s measures through the API equals `crawlbench eval --measure ... --json`
 * on the same crawl file.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AnalysisProgressEvent, EvaluationRequest } from '../../core/api/contract.js';
import { EngineApi } from '../../core/api/engine-api.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { fetched, makeCrawl } from '../ranking/fixtures.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawlbench } from '../helpers/run.js';

const dir = tmpDir('crawlbench-results-api-');
const URLS = Array.from({ length: 12 }, (_, i) => `http://${i < 7 ? 'a' : i < 10 ? 'b' : 'c'}.test/${i}`);
const LINKS: Array<[number, number]> = [
  [1, 0], [2, 0], [3, 0], [4, 0], [5, 0], [7, 0], [8, 0], [0, 1], [2, 1], [9, 1], [0, 2], [3, 2], [0, 7], [7, 8], [8, 9], [9, 10], [10, 11], [11, 0], [4, 5], [5, 6],
];
makeCrawl(join(dir, 'hand.db'), { urls: URLS, links: LINKS, fetchOrder: [0, 7, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11] });
makeCrawl(join(dir, 'other.db'), { urls: URLS, links: LINKS, fetchOrder: [11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0] });
const TITLES = ['Gene lab home', 'Genes and genomes', 'Garden', null, 'gene gene gene', 'Lab', 'Kitchen', 'Gene index', 'About', 'Contact', 'genome', 'News'];
makeCrawl(join(dir, 'measured.db'), { urls: URLS, links: LINKS, fetchOrder: [3, 0, 7, 1, 2, 11, 4, 5, 6, 8, 9, 10], titles: TITLES });
const api = new EngineApi(dir);
afterAll(() => api.close());

function listen(): { events: AnalysisProgressEvent[]; off: () => void } {
  const events: AnalysisProgressEvent[] = [];
  const off = api.onAnalysisProgress((e) => events.push(e));
  return { events, off };
}

describe('Results API', () => {
  it('has no stored PageRank before a run, and refuses a crawl that is not there', async () => {
    expect(await api.pageRankResult('hand')).toBeNull();
    await expect(api.pageRankResult('nope')).rejects.toMatchObject({ code: 'CRAWL_DB_MISSING' });
  });

  it('evaluates a crawl without stored PageRank by computing it, telling its steps as it goes', async () => {
    const { events, off } = listen();
    const ev = await api.runEvaluation('hand');
    off();
    expect(ev.truth).toBe('computed');
    expect(events.length).toBeGreaterThan(2);
    expect(events.every((e) => e.crawlId === 'hand' && e.what === 'evaluation')).toBe(true);
    expect(events.map((e) => e.step)).toContain('computing the PageRank of 12 pages');
    const fractions = events.map((e) => e.fraction);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(fractions[fractions.length - 1]).toBeLessThanOrEqual(1);
  });

  it('computes PageRank with progress to the end, then reads the same run back, with its top pages and sites', async () => {
    const { events, off } = listen();
    const ran = await api.runPageRank('hand');
    off();
    expect(events[0]).toMatchObject({ crawlId: 'hand', what: 'pagerank', fraction: 0, step: 'reading the link graph' });
    expect(events.some((e) => /iteration \d+/.test(e.step))).toBe(true);
    expect(events[events.length - 1]).toMatchObject({ fraction: 1 });
    const fractions = events.map((e) => e.fraction);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));

    const stored = (await api.pageRankResult('hand'))!;
    expect(stored.page).toMatchObject({ kind: 'page', runId: ran.page.runId, iterations: ran.page.iterations, nodes: 12, edges: ran.page.edges, current: true });
    expect(stored.page.top.slice(0, ran.page.top.length)).toEqual(ran.page.top);
    expect(stored.page.top).toHaveLength(12);
    expect(stored.site).toMatchObject({ kind: 'site', runId: ran.site!.runId, nodes: 3, current: true });
    expect(stored.site!.top).toEqual(ran.site!.top);
    expect(await api.pageRankResult('other')).toBeNull();

    // The evaluation now uses the stored run.
    expect((await api.runEvaluation('hand')).truth).toBe('stored');
  });

  it('cancels a computation under way, which then fails with CRAWL_CANCELLED and leaves the crawl free to rank', async () => {
    const before = (await api.pageRankResult('other'))?.page.runId ?? null;
    const ranking = api.runPageRank('other');
    await api.cancelAnalysis('other');
    await expect(ranking).rejects.toMatchObject({ code: 'CRAWL_CANCELLED' });
    expect((await api.pageRankResult('other'))?.page.runId ?? null).toBe(before);
    const evaluating = api.runEvaluation('other');
    await api.cancelAnalysis('other');
    await expect(evaluating).rejects.toMatchObject({ code: 'CRAWL_CANCELLED' });
    // The writer's lock was released: the crawl can be ranked now.
    expect((await api.runPageRank('other')).page.nodes).toBe(12);
    await expect(api.cancelAnalysis('../x')).rejects.toMatchObject({ code: 'CRAWL_BAD_OPTION' });
  });

  it('refuses evaluation options it cannot use, naming the field', async () => {
    await expect(api.runEvaluation('hand', { points: 1 })).rejects.toMatchObject({ code: 'CRAWL_BAD_OPTION', field: 'points' });
    await expect(api.runEvaluation('hand', { points: 2.5 })).rejects.toMatchObject({ code: 'CRAWL_BAD_OPTION', field: 'points' });
    await expect(api.runEvaluation('hand', { threshold: -1 })).rejects.toMatchObject({ code: 'CRAWL_BAD_OPTION', field: 'threshold' });
    expect((await api.runEvaluation('hand', { points: 3 })).curve).toHaveLength(3);
  });

  it("evaluates against each of Cho et al.'s measures as `crawlbench eval --measure ... --json` does on the same file", async () => {
    const cases: Array<{ req: EvaluationRequest; flags: string[] }> = [
      { req: { measure: 'backlinks', hotThreshold: 2 }, flags: ['--measure', 'backlinks', '--hot-threshold', '2'] },
      { req: { measure: 'ir' }, flags: ['--measure', 'ir'] },
      { req: { measure: 'ir', damping: 0.85, scale: '1', points: 5 }, flags: ['--measure', 'ir', '--damping', '0.85', '--scale', '1', '--points', '5'] },
      { req: { measure: 'similarity', query: 'gene' }, flags: ['--measure', 'similarity', '--query', 'gene'] },
      { req: { measure: 'location', location: 'slashes', hotThreshold: -1 }, flags: ['--measure', 'location', '--location', 'slashes', '--hot-threshold=-1'] },
    ];
    const clis = await Promise.all(cases.map((c) => crawlbench(['eval', join(dir, 'measured.db'), ...c.flags, '--json'])));
    for (const [i, c] of cases.entries()) {
      expect(clis[i]!.code, clis[i]!.stderr).toBe(0);
      const viaApi = await api.runEvaluation('measured', c.req);
      expect(JSON.parse(JSON.stringify(viaApi))).toEqual(JSON.parse(clis[i]!.stdout));
      expect(viaApi.measure.name).toBe(c.req.measure);
    }
    // What the figures say: IB's hot pages at G = 2 on its own scale; IS over the titles, hot by the topic rule.
    const ib = await api.runEvaluation('measured', { measure: 'backlinks', hotThreshold: 2 });
    expect(ib.threshold).toMatchObject({ g: 2, hotPages: 3 });
    const is = await api.runEvaluation('measured', { measure: 'similarity', query: 'gene' });
    expect(is.measure).toMatchObject({ text: 'titles', query: 'gene', hot: 'topic' });
    expect(is.threshold.hotPages).toBe(TITLES.filter((t) => t !== null && /\bgene\b/i.test(t)).length);
  });

  it('marks the stored run as not current once the crawl has more pages', async () => {
    const store = CrawlStore.open(join(dir, 'hand.db'));
    store.begin();
    const site = store.insertSite('d.test');
    const id = store.insertPage({ url: 'http://d.test/', siteId: site, depth: 1, parentId: 1, redirects: 0, status: 'queued' });
    store.recordFetch(id, fetched(Date.now() + 60_000));
    store.commit();
    store.close();
    const stored = (await api.pageRankResult('hand'))!;
    expect(stored.page.current).toBe(false);
  });
});
