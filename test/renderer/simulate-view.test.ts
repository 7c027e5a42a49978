// @vitest-environment happy-dom
/**
 * The Simulate view in the real App over the in-memory API: the graphs and policies listed,
 * the form sent as the engine's request (seconds to ms, KB/s to bytes/s), the run's page with
 * its progress and Cancel, the results table once finished, a refusal shown at its field, and
 * the kept runs listed with links to reopen them; the measure of Cho et al.'s Crawl & Stop curves
 * sent with the run and its curves and table per policy shown. The curves' chart option is checked here
 * against the report (happy-dom has no canvas; the e2e test reads the drawn chart).
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SimulationRequest } from '../../core/api/contract.js';
import { parseSimulationRequest } from '../../core/api/simulation-request.js';
import { provideApi } from '../../renderer/api/instance.js';
import { formatNumber } from '../../renderer/lib/format.js';
import { choCurvesOption, curvesOption, requestOf, defaultForm } from '../../renderer/lib/simulation-view.js';
import { crawlInfo, fakeApi } from './fake-api.js';
import { fakeSimulationReport } from './fake-simulations.js';
import { openAt, unmountWorkbench } from './mount-workbench.js';

let fake: ReturnType<typeof fakeApi>;
const asked: SimulationRequest[] = [];

beforeEach(() => {
  fake = fakeApi();
  fake.crawls.set('demo1', crawlInfo('demo1', { status: 'finished', sites: 20, pagesKnown: 500 }));
  fake.simulations.datasets.push({ kind: 'dataset', id: 'uci-ics-2019', pages: null, sites: null, bytes: 1_900_000 });
  const start = fake.api.startSimulation;
  asked.length = 0;
  fake.api.startSimulation = (req) => (asked.push(req), start(req));
  provideApi(fake.api);
});
afterEach(unmountWorkbench);

describe('Simulate view', () => {
  it('sends the form as the engine’s request, follows the run, and shows its results', async () => {
    const { router, w } = await openAt('/simulate');
    const options = w.findAll('[data-testid="simulate-source"] option').map((o) => o.attributes('value'));
    expect(options).toEqual(['', 'crawl:demo1', 'dataset:uci-ics-2019']);
    expect((w.find('[data-testid="simulate-source"]').element as HTMLSelectElement).value).toBe('crawl:demo1');
    expect(w.find('input[data-policy="omniscient"]').exists()).toBe(true);
    // Every input has a label with a tooltip.
    for (const input of w.findAll('.simulate-form input, .simulate-form select, .simulate-form textarea')) expect(input.element.closest('label')).not.toBeNull();
    for (const label of w.findAll('.simulate-form .grid > label')) expect(label.attributes('title')).toMatch(/\w/);
    expect(w.find('.simulate-form').text()).not.toMatch(/--\w/);

    await w.find('[data-testid="simulate-source"]').setValue('dataset:uci-ics-2019');
    await w.find('input[data-policy="opic"]').setValue(false);
    await w.find('input[data-policy="backlink-count"]').setValue(true);
    await w.find('[data-testid="simulate-r"]').setValue('64');
    await w.find('[data-testid="simulate-w"]').setValue('0.5');
    await w.find('[data-testid="simulate-bandwidth"]').setValue('200');
    await w.find('form.simulate-form').trigger('submit');
    await flushPromises();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ source: { kind: 'dataset', id: 'uci-ics-2019' }, r: 64, w: 500, c: 1, bandwidth: 204_800, latency: true });
    expect([...asked[0]!.policies].sort()).toEqual(['backlink-count', 'breadth-first', 'omniscient']);
    expect(router.currentRoute.value.fullPath).toBe('/simulate/sim-1');

    await new Promise((r) => setTimeout(r, 5));
    await flushPromises();
    expect(w.find('[data-testid="simulate-progress"]').exists()).toBe(true);
    expect(w.find('[data-testid="simulate-step"]').text()).toMatch(/policy 1 of 3/);

    fake.simulations.finish('sim-1');
    await flushPromises();
    expect(w.find('[data-testid="simulate-progress"]').exists()).toBe(false);
    const rows = w.findAll('[data-table="simulation-results"] tbody tr');
    expect(rows.map((r) => r.find('[data-col="policy"]').text())).toEqual(asked[0]!.policies);
    expect(w.find('[data-testid="simulate-summary"]').text()).toMatch(/1,000 pages/);
    expect(w.find('[data-testid="simulate-settings"]').text()).toMatch(/dataset uci-ics-2019.*r = 64, w = 0.5 s, c = 1, bandwidth 200 KB\/s/);

    // The kept runs list it, with a link that reopens it.
    await router.push('/simulate');
    await flushPromises();
    const link = w.find('[data-run="sim-1"] a');
    expect(link.attributes('href')).toContain('/simulate/sim-1');
    expect(w.find('[data-run="sim-1"]').text()).toMatch(/finished/);
  });

  it("shows a refusal at its field, in the words of the engine's schema, and stays on the form without asking the engine", async () => {
    const { router, w } = await openAt('/simulate');
    const started = fake.simulations.runs.size;
    await w.find('[data-testid="simulate-r"]').setValue('0');
    await w.find('form.simulate-form').trigger('submit');
    await flushPromises();
    expect(router.currentRoute.value.fullPath).toBe('/simulate');
    expect(fake.simulations.runs.size).toBe(started);
    expect(w.find('[data-testid="simulate-r"]').attributes('aria-invalid')).toBe('true');
    expect(w.find('[data-testid="simulate-r"]').element.closest('label')!.textContent).toMatch(/Must be a whole number from 1 to 10,000/);
  });

  it('says every number field that holds no number, in its own unit, before asking the engine', async () => {
    const { router, w } = await openAt('/simulate');
    const started = fake.simulations.runs.size;
    await w.find('[data-testid="simulate-w"]').setValue('fifteen');
    await w.find('[data-testid="simulate-r"]').setValue('64x');
    await w.find('[data-testid="simulate-bandwidth"]').setValue('0.5s');
    await w.find('form.simulate-form').trigger('submit');
    await flushPromises();
    expect(router.currentRoute.value.fullPath).toBe('/simulate');
    expect(fake.simulations.runs.size).toBe(started);
    const said = (id: string) => w.find(`[data-testid="${id}"]`).element.closest('label')!.textContent;
    expect(said('simulate-w')).toMatch(/w \(wait between connections, in seconds\) must be a number \(not “fifteen”\)/);
    expect(said('simulate-r')).toMatch(/r \(simultaneous connections\) must be a whole number \(not “64x”\)/);
    expect(said('simulate-bandwidth')).toMatch(/bandwidth \(KB\/s\) must be a number \(not “0.5s”\)/);
  });

  it('cancels a run under way', async () => {
    const { w } = await openAt('/simulate');
    await w.find('form.simulate-form').trigger('submit');
    await flushPromises();
    await w.find('[data-testid="simulate-cancel"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-testid="simulate-cancelled"]').exists()).toBe(true);
    expect(fake.simulations.runs.get('sim-1')?.state).toBe('cancelled');
  });

  it('says why a run failed, in words', async () => {
    const { w } = await openAt('/simulate');
    await w.find('form.simulate-form').trigger('submit');
    await flushPromises();
    fake.simulations.fail('sim-1', { code: 'CRAWL_BAD_OPTION', field: 'seeds', message: 'seeds: http://nowhere.example/ is not a page of the graph' });
    await flushPromises();
    expect(w.find('[data-testid="simulate-progress"]').exists()).toBe(false);
    expect(w.find('[data-testid="simulate-failed"]').text()).toBe('The simulation failed (start pages): http://nowhere.example/ is not a page of the graph');
  });

  it('draws one curve per policy in percent, against pages or simulated hours', () => {
    const report = fakeSimulationReport(parseSimulationRequest(requestOf({ ...defaultForm(), source: 'crawl:demo1' })));
    const byPages = curvesOption(report, 'pages');
    const series = byPages.series as Array<{ name: string; data: Array<[number, number]> }>;
    expect(series.map((s) => s.name)).toEqual(['breadth-first', 'opic', 'omniscient']);
    expect(series[1]!.data[5]).toEqual([50, report.policies[1]!.curve[5]!.cumulativePageRank * 100]);
    const byTime = curvesOption(report, 'time').series as Array<{ data: Array<[number, number]> }>;
    expect(byTime[0]!.data[10]![0]).toBeCloseTo(report.policies[0]!.curve[10]!.seconds / 3600);
  });

  it("sends the measure of Cho et al.'s curves with the run, then shows each policy's Crawl & Stop and hot pages fetched", async () => {
    const { w } = await openAt('/simulate');
    await w.find('[data-testid="simulate-measure"]').setValue('ir');
    await w.find('[data-testid="simulate-damping"]').setValue('0.85');
    await w.find('[data-testid="simulate-scale"]').setValue('1');
    await w.find('[data-testid="simulate-hot-threshold"]').setValue('0.002');
    await w.find('form.simulate-form').trigger('submit');
    await flushPromises();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ measure: 'ir', damping: 0.85, scale: '1', hotThreshold: 0.002 });
    expect(asked[0]).not.toHaveProperty('query');
    fake.simulations.finish('sim-1');
    await flushPromises();
    const report = (await fake.api.getSimulation('sim-1')).report!;
    expect(w.find('[data-testid="simulate-settings"]').text()).toMatch(/Crawl & Stop on IR, hot at 0\.002/);
    expect(w.find('[data-testid="simulate-cho-measure"]').text()).toBe(`On IR: the fake's ir; hot pages: IR at least 0.002 (${report.measure.hotPages} of 1,000 reachable pages).`);
    expect(w.findAll('e-chart-stub').map((c) => c.attributes('name'))).toEqual(['simulation-curves', 'simulation-crawl-and-stop', 'simulation-hot-fetched']);
    const table = w.find('[data-table="simulation-cho"]');
    const head = table.findAll('thead th').map((th) => th.text().replace(/\s*[▲▼]$/, ''));
    expect(head.slice(0, 2)).toEqual(['Policy', "Kendall's tau (20-page sample)"]);
    expect(head.slice(2)).toEqual([...report.policies[0]!.cho!.crawlAndStop.map((c) => `C&S ${c.percent} %`), ...report.policies[0]!.cho!.threshold.fetched.map((t) => `Hot at ${t.percent} %`)]);
    const rows = table.findAll('tbody tr');
    expect(rows.map((r) => r.find('[data-col="policy"]').text())).toEqual(report.policies.map((p) => p.policy));
    const c10 = report.policies[1]!.cho!.crawlAndStop.find((c) => c.percent === 10)!;
    expect(rows[1]!.find('[data-col="crawl_and_stop_10pct"]').text()).toBe(`${formatNumber(c10.share * 100, 1)} %`);
    // One curve per policy from the report's points, and a random order's diagonal.
    const series = choCurvesOption(report, 'crawlAndStop').series as Array<{ name: string; data: Array<[number, number]> }>;
    expect(series.map((x) => x.name)).toEqual([...report.policies.map((p) => p.policy), 'random order']);
    expect(series[2]!.data).toEqual(report.policies[2]!.cho!.curve.map((c) => [c.fractionPages * 100, c.crawlAndStop * 100]));
  });

  it('refuses a similarity without a query, and a similarity over a dataset, at their fields before asking the engine', async () => {
    const { w } = await openAt('/simulate');
    await w.find('[data-testid="simulate-measure"]').setValue('similarity');
    await w.find('form.simulate-form').trigger('submit');
    await flushPromises();
    expect(fake.simulations.runs.size).toBe(0);
    expect(w.find('[data-testid="simulate-query"]').element.closest('label')!.textContent).toMatch(/The similarity measure needs a query: the words pages are scored against/);
    await w.find('[data-testid="simulate-query"]').setValue('gene');
    await w.find('[data-testid="simulate-source"]').setValue('dataset:uci-ics-2019');
    await w.find('form.simulate-form').trigger('submit');
    await flushPromises();
    expect(fake.simulations.runs.size).toBe(0);
    expect(w.find('[data-testid="simulate-measure"]').attributes('aria-invalid')).toBe('true');
    expect(w.find('[data-testid="simulate-measure"]').element.closest('label')!.textContent).toMatch(/Similarity needs the pages' text: choose a crawl as the web graph \(a dataset folder holds none\)/);
  });
});
