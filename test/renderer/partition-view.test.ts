// @vitest-environment happy-dom
/**
 * The Partition view in the real App over the in-memory API: the tab reaches it, the crawl is
 * picked from a list (its address follows), the models and K ticked go to the engine as they
 * are, its progress events show, the report's table has a row per level, method and K, the
 * chart options hold the report's series on log axes, a refusal shows at the form, and the
 * graph files written are offered for download.
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PartitionRequest } from '../../core/api/contract.js';
import { provideApi } from '../../renderer/api/instance.js';
import { messagesOption, seriesOf, volumeOption } from '../../renderer/lib/partition-charts.js';
import { crawlInfo, fakeApi } from './fake-api.js';
import { openAt, unmountWorkbench } from './mount-workbench.js';

let fake: ReturnType<typeof fakeApi>;
const asked: PartitionRequest[] = [];

beforeEach(() => {
  fake = fakeApi();
  fake.crawls.set('demo1', crawlInfo('demo1', { status: 'finished', sites: 20, pagesKnown: 500 }));
  fake.crawls.set('demo2', crawlInfo('demo2', { status: 'finished', sites: 3, pagesKnown: 50 }));
  const partition = fake.api.partitionCrawl;
  asked.length = 0;
  fake.api.partitionCrawl = (id, req) => (asked.push(req), partition(id, req));
  provideApi(fake.api);
});
afterEach(unmountWorkbench);

describe('Partition view', () => {
  it('picks a crawl, sends the models and K ticked, and shows the table of the report', async () => {
    const { router, w } = await openAt('/partition');
    expect(w.find('[data-testid="no-crawl"]').exists()).toBe(true);
    await w.find('[data-testid="partition-crawl"]').setValue('demo1');
    await flushPromises();
    expect(router.currentRoute.value.fullPath).toBe('/crawls/demo1/partition');
    await w.find('input[data-model="site-hypergraph"]').setValue(false);
    await w.find('input[data-k="32"]').setValue(true);
    await w.find('[data-testid="partition-runs"]').setValue('3');
    await w.find('form.partition-form').trigger('submit');
    await flushPromises();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ models: ['page', 'site', 'page-hypergraph'], parts: [2, 4, 8, 16, 32], runs: 3, jobId: expect.stringMatching(/^ui-/) });
    // page: hash, GP (gpmetis), HP (Zoltan PHG), HP (KaHyPar); site: hash, GP (gpmetis); five K.
    expect(w.findAll('[data-testid="partition-table"] tbody tr')).toHaveLength(6 * 5);
    expect(w.find('tr[data-row="page-GP-32"]').text()).toMatch(/page\s*GP \(gpmetis\)\s*32\s*3/);
    expect(w.find('tr[data-row="page-PHG-32"]').text()).toMatch(/page\s*HP \(Zoltan PHG\)\s*32\s*3/);
    expect(w.find('tr[data-row="page-KaHyPar-32"]').text()).toMatch(/page\s*HP \(KaHyPar\)\s*32\s*3/);
    // Rows in the order GP, PHG, KaHyPar, hash at each K.
    expect(w.findAll('[data-testid="partition-table"] tbody tr').slice(0, 4).map((r) => r.attributes('data-row'))).toEqual(['page-GP-2', 'page-PHG-2', 'page-KaHyPar-2', 'page-hash-2']);
    expect(w.find('[data-testid="partition-summary"]').text()).toMatch(/100 pages, 400 links, 4 sites/);
  });

  it('leaves out K beyond the sites of a crawl, and shows the engine’s refusal at the form', async () => {
    const { w } = await openAt('/crawls/demo2/partition');
    expect((w.find('input[data-k="4"]').element as HTMLInputElement).checked).toBe(false);
    expect((w.find('input[data-k="2"]').element as HTMLInputElement).checked).toBe(true);
    fake.api.partitionCrawl = () => Promise.reject(Object.assign(new Error('parts: 64 parts for the site model\'s 3 sites: at most 3'), { name: 'CrawlError', code: 'CRAWL_BAD_OPTION', field: 'parts' }));
    await w.find('form.partition-form').trigger('submit');
    await flushPromises();
    expect(w.find('[data-testid="partition-error"]').text()).toMatch(/at most 3/);
  });

  it('writes a graph file and offers it and its id map for download', async () => {
    const { w } = await openAt('/crawls/demo1/partition');
    await w.find('button[data-export="page-metis"]').trigger('click');
    await flushPromises();
    const links = w.findAll('[data-testid="partition-files"] a');
    expect(links.map((a) => a.attributes('href'))).toEqual(['/exports/graph-demo1/page.metis', '/exports/graph-demo1/page.metis.ids.tsv']);
    expect(links.every((a) => a.attributes('download') !== undefined)).toBe(true);
    expect(fake.calls).toContain('exportGraph demo1 page metis');
  });
});

describe('Partition charts', () => {
  it('volume and messages against K on log axes, one line per level and partitioner, named by it', async () => {
    const report = await fake.api.partitionCrawl('demo1', { models: ['page', 'page-hypergraph', 'site'], parts: [2, 4, 8], runs: 2 });
    const v = volumeOption(report) as { xAxis: { type: string; logBase: number }; yAxis: { type: string }; series: Array<{ name: string; data: Array<[number, number]> }> };
    expect(v.xAxis).toMatchObject({ type: 'log', logBase: 2 });
    expect(v.yAxis.type).toBe('log');
    expect(v.series.map((s) => s.name)).toEqual(['page GP (gpmetis)', 'page hash', 'site GP (gpmetis)', 'site hash']);
    expect(v.series[0]!.data).toEqual(seriesOf(report, 'page', 'gpmetis', 'volume'));
    const m = messagesOption(report) as { series: Array<{ name: string; data: Array<[number, number]> }> };
    expect(m.series.map((s) => s.name)).toEqual(['page HP (Zoltan PHG)', 'page HP (KaHyPar)', 'page hash', 'site hash']);
    expect(m.series[0]!.data).toEqual(seriesOf(report, 'page', 'Zoltan PHG', 'messages'));
  });
});
