// @vitest-environment happy-dom
/**
 * The Results view in the real App over the in-memory API: Crawls' "Results" opens it (no raw
 * JSON anywhere), a crawl is picked from a list, its stored PageRank shows at once (none: a
 * hint and "Compute PageRank"), computing shows the engine's progress step and then the run's
 * figures and top pages (opening in the Pages view), the evaluation shows Kendall's tau and the
 * tables as the engine computes them, a running crawl is warned about, and a refusal shows in
 * words at the view. The evaluation against one of Cho et al.'s measures: the measure chosen in
 * words is sent as the engine's request, the figures and tables name it, and a bad value (a
 * similarity without a query, a negative threshold) is refused at its field without asking the engine.
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EvaluationDto, EvaluationRequest, PageRankResultDto } from '../../core/api/contract.js';
import { provideApi } from '../../renderer/api/instance.js';
import { formatNumber } from '../../renderer/lib/format.js';
import { choOption } from '../../renderer/lib/results-charts.js';
import { crawlInfo, fakeApi } from './fake-api.js';
import { openAt, unmountWorkbench } from './mount-workbench.js';

let fake: ReturnType<typeof fakeApi>;

beforeEach(() => {
  fake = fakeApi();
  fake.crawls.set('demo1', crawlInfo('demo1', { status: 'finished', pagesFetched: 4, pagesKnown: 4 }));
  fake.crawls.set('live1', crawlInfo('live1', { status: 'running', pagesFetched: 2 }));
  provideApi(fake.api);
});
afterEach(unmountWorkbench);

describe('Results view', () => {
  it("is reached from Crawls' Results link, which replaced the raw JSON of PageRank and Evaluate", async () => {
    const { router, w } = await openAt('/crawls');
    expect(w.find('pre').exists()).toBe(false);
    expect(w.findAll('button').some((b) => /^(PageRank|Evaluate)$/.test(b.text()))).toBe(false);
    await w.find('tr[data-crawl="demo1"] a[data-action="results"]').trigger('click');
    await flushPromises();
    expect(router.currentRoute.value.fullPath).toBe('/crawls/demo1/results');
    expect(w.find('#results-title').text()).toBe('Results — demo1');
  });

  it('picks a crawl; without stored PageRank says so, computes it with the progress step, then shows its runs and top pages', async () => {
    const { router, w } = await openAt('/results');
    expect(w.find('[data-testid="no-crawl"]').exists()).toBe(true);
    await w.find('[data-testid="results-crawl"]').setValue('demo1');
    await flushPromises();
    expect(router.currentRoute.value.fullPath).toBe('/crawls/demo1/results');
    expect(w.find('[data-testid="results-no-pagerank"]').exists()).toBe(true);

    // Held mid-way: the progress bar shows the engine's step.
    const rank = fake.api.runPageRank;
    let release!: () => void;
    fake.api.runPageRank = (id) => new Promise<PageRankResultDto>((resolve) => (release = () => resolve(rank(id)))).then((r) => r);
    const steps: string[] = [];
    fake.api.onAnalysisProgress((e) => steps.push(e.step));
    await w.find('[data-testid="results-rank"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-testid="results-progress"]').text()).toMatch(/PageRank: reading the link graph \(0 %\)/);
    expect(w.find('[data-testid="results-rank"]').attributes('disabled')).toBeDefined();
    release();
    await flushPromises();
    expect(steps).toEqual(['computing the PageRank of 4 pages']);
    expect(w.find('[data-testid="results-progress"]').exists()).toBe(false);

    const stored = (await fake.api.pageRankResult('demo1'))!;
    const rows = w.findAll('[data-testid="results-runs"] tbody tr');
    expect(rows.map((r) => r.attributes('data-kind'))).toEqual(['page', 'site']);
    expect(rows[0]!.text()).toContain(`${stored.page.nodes}`);
    expect(rows[0]!.text()).toMatch(/10 ms\s*20 ms\s*10 ms/);
    const top = w.findAll('[data-testid="results-top-pages"] tbody tr');
    expect(top.map((r) => r.find('a').text())).toEqual(stored.page.top.map((p) => p.name));
    expect(w.find('[data-testid="results-rank"]').text()).toBe('Compute PageRank again');

    const sites = w.findAll('[data-testid="results-top-sites"] tbody tr a');
    expect(sites.map((a) => a.text())).toEqual(stored.site!.top.map((s) => s.name));
    expect(sites[0]!.attributes('href')).toBe(`/crawls/demo1/sites?q=${stored.site!.top[0]!.name}`);
    await top[0]!.find('a').trigger('click');
    await flushPromises();
    expect(router.currentRoute.value.name).toBe('pages');
    expect(router.currentRoute.value.query.url).toBe(stored.page.top[0]!.name);
  });

  it("shows a stored PageRank at once, and the evaluation's tau, averages and tables as the engine computes them", async () => {
    await fake.api.runPageRank('demo1');
    fake.calls.length = 0;
    const { w } = await openAt('/crawls/demo1/results');
    expect(fake.calls).not.toContain('runPageRank demo1');
    expect(w.findAll('[data-testid="results-top-pages"] tbody tr')).toHaveLength(4);
    expect(w.find('[data-testid="results-no-evaluation"]').exists()).toBe(true);

    await w.find('[data-testid="results-evaluate"]').trigger('click');
    await flushPromises();
    const ev: EvaluationDto = await fake.api.runEvaluation('demo1');
    expect(w.find('[data-testid="results-tau"]').text()).toBe(formatNumber(ev.kendallTau, 4));
    expect(w.find('[data-testid="results-average"]').text()).toBe(`${formatNumber(ev.averageCumulativePageRank * 100, 1)} %`);
    expect(w.find('[data-testid="results-upper"]').text()).toBe(`${formatNumber(ev.upperBoundAverage * 100, 1)} %`);
    const stop = w.findAll('[data-testid="results-crawl-and-stop"] tbody tr');
    expect(stop.map((r) => r.attributes('data-percent'))).toEqual(ev.crawlAndStop.map((r) => String(r.percent)));
    expect(stop[0]!.text()).toMatch(new RegExp(`1 %\\s*${ev.crawlAndStop[0]!.k}\\s*${formatNumber(ev.crawlAndStop[0]!.share * 100, 1)} %`));
    expect(w.findAll('[data-testid="results-pages-for"] tbody tr').map((r) => r.attributes('data-share'))).toEqual(['0.5', '0.8', '0.95']);
    expect(w.findAll('[data-testid="results-threshold"] tbody tr')).toHaveLength(ev.threshold.fetched.length);
    expect(w.text()).toContain('rated against the PageRank stored with the crawl');
    expect(w.find('[data-testid="results-evaluate"]').text()).toBe('Evaluate again');
  });

  it('cancels a computation under way: the engine is asked, and the view says it was cancelled, not that it failed', async () => {
    const { w } = await openAt('/crawls/demo1/results');
    let fail!: () => void;
    fake.api.runEvaluation = () => new Promise((_resolve, reject) => (fail = () => reject(Object.assign(new Error('the computation was cancelled'), { name: 'CrawlError', code: 'CRAWL_CANCELLED' }))));
    await w.find('[data-testid="results-evaluate"]').trigger('click');
    await flushPromises();
    await w.find('[data-testid="results-cancel"]').trigger('click');
    await flushPromises();
    expect(fake.calls).toContain('cancelAnalysis demo1');
    fail();
    await flushPromises();
    expect(w.find('[data-testid="results-progress"]').exists()).toBe(false);
    expect(w.find('[data-testid="results-cancelled"]').text()).toBe('Cancelled.');
    expect(w.find('[data-testid="results-eval-error"]').exists()).toBe(false);
  });

  it('warns that a running crawl is a snapshot, keeps PageRank for a paused crawl, and shows a refusal in words', async () => {
    const { w } = await openAt('/crawls/live1/results');
    expect(w.find('[data-testid="results-running"]').text()).toMatch(/still running: its results are of a snapshot/);
    expect(w.find('[data-testid="results-rank"]').attributes('disabled')).toBeDefined();
    fake.api.runEvaluation = () => Promise.reject(Object.assign(new Error('live1.db has no fetched pages'), { name: 'CrawlError', code: 'CRAWL_BAD_OPTION' }));
    await w.find('[data-testid="results-evaluate"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-testid="results-eval-error"]').text()).toMatch(/no fetched pages/i);
    expect(w.find('[data-testid="results-progress"]').exists()).toBe(false);
  });

  it("evaluates against Cho et al.'s IB with its hot threshold: the request the engine's, the figures and tables named by the measure", async () => {
    const asked: Array<EvaluationRequest | undefined> = [];
    const run = fake.api.runEvaluation;
    fake.api.runEvaluation = (id, req) => (asked.push(req), run(id, req));
    const { w } = await openAt('/crawls/demo1/results');
    const choices = w.findAll('[data-testid="results-measure"] option').map((o) => o.text());
    expect(choices).toEqual(['PageRank (d = 0.85, normalised to sum 1)', 'IB: backlink count', 'IR: PageRank with d = 0.9, summing to N (as Cho et al.)', 'IS: similarity to a query', 'IL: the location metric']);
    await w.find('[data-testid="results-measure"]').setValue('backlinks');
    // The default G said for the measure chosen; IS's query and IR's damping are not asked for.
    expect(w.find('[data-testid="results-hot-threshold"]').element.closest('label')!.textContent).toMatch(/empty = 100 backlinks, as Cho et al\./);
    expect(w.find('[data-testid="results-query"]').exists()).toBe(false);
    expect(w.find('[data-testid="results-damping"]').exists()).toBe(false);
    await w.find('[data-testid="results-hot-threshold"]').setValue('0.25');
    await w.find('[data-testid="results-evaluate"]').trigger('click');
    await flushPromises();
    expect(asked).toEqual([{ measure: 'backlinks', hotThreshold: 0.25 }]);
    const ev = await run('demo1', { measure: 'backlinks', hotThreshold: 0.25 });
    expect(w.find('[data-testid="results-rated"]').text()).toMatch(/rated against IB \(backlinks\): the fake's backlinks, computed now over this crawl's pages/);
    expect(w.find('[data-testid="results-rated"]').text()).toMatch(/Hot pages: IB \(backlinks\) at least 0\.25\./);
    expect(w.find('.results-figures').text()).toContain('Average cumulative IB (backlinks)');
    expect(w.find('[data-testid="results-crawl-and-stop"] caption').text()).toBe('Crawl & Stop: of the K pages with the highest IB (backlinks), the share among the first K fetched');
    expect(w.find('[data-testid="results-threshold"] caption').text()).toMatch(new RegExp(`the ${ev.threshold.hotPages} hot pages \\(IB \\(backlinks\\) at least 0\\.25\\)`));
    const hot = w.findAll('[data-testid="results-threshold"] tbody tr td:nth-child(2)').map((td) => td.text());
    expect(hot).toEqual(ev.threshold.fetched.map((t) => (t.share === null ? '–' : `${formatNumber(t.share * 100, 1)} %`)));
    // Cho's two models drawn as curves (the chart is stubbed here: its option, against the engine's points).
    expect(w.findAll('e-chart-stub').map((c) => c.attributes('name'))).toContain('results-cho');
    const series = choOption(ev).series as Array<{ name: string; data: Array<[number, number]> }>;
    expect(series.map((x) => x.name)).toEqual(['Crawl & Stop', 'Crawl & Stop with Threshold', 'random order']);
    expect(series[0]!.data).toEqual(ev.choCurve.map((p) => [p.fractionPages * 100, p.crawlAndStop * 100]));
    expect(series[1]!.data).toEqual(ev.choCurve.map((p) => [p.fractionPages * 100, p.hotFetched! * 100]));
  });

  it('refuses a similarity without a query and a negative threshold at their fields, in the schema’s words, without asking the engine', async () => {
    const { w } = await openAt('/crawls/demo1/results');
    fake.calls.length = 0;
    await w.find('[data-testid="results-measure"]').setValue('similarity');
    await w.find('[data-testid="results-hot-threshold"]').setValue('-1');
    await w.find('[data-testid="results-evaluate"]').trigger('click');
    await flushPromises();
    expect(fake.calls.filter((c) => c.startsWith('runEvaluation'))).toEqual([]);
    const at = (id: string) => w.find(`[data-testid="${id}"]`);
    expect(at('results-query').attributes('aria-invalid')).toBe('true');
    expect(at('results-query').element.closest('label')!.textContent).toMatch(/The similarity measure needs a query: the words pages are scored against/);
    expect(at('results-hot-threshold').element.closest('label')!.textContent).toMatch(/Must be 0 or more \(only the location metric has values below 0\)/);
    // IL's values are below 0 (minus the slashes): there the same threshold is taken.
    await w.find('[data-testid="results-measure"]').setValue('location');
    await w.find('[data-testid="results-evaluate"]').trigger('click');
    await flushPromises();
    expect(fake.calls).toContain('runEvaluation demo1 location');
    expect(w.findAll('.field-error')).toHaveLength(0);
  });

  it("shows the engine's refusal of a measure field at that field", async () => {
    fake.api.runEvaluation = () => Promise.reject(Object.assign(new Error('query: holds no word to score pages against (letters or digits)'), { name: 'CrawlError', code: 'CRAWL_BAD_OPTION', field: 'query' }));
    const { w } = await openAt('/crawls/demo1/results');
    await w.find('[data-testid="results-measure"]').setValue('similarity');
    await w.find('[data-testid="results-query"]').setValue('gene');
    await w.find('[data-testid="results-evaluate"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-testid="results-query"]').element.closest('label')!.textContent).toMatch(/Holds no word to score pages against/);
    expect(w.find('[data-testid="results-eval-error"]').exists()).toBe(false);
  });
});
