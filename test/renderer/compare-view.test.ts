// @vitest-environment happy-dom
/**
 * Crawl again and Compare in the real App over the in-memory API: "Crawl again" on a demo
 * crawl fills New crawl with its web months later and it as history; two crawls ticked in
 * Crawls open #/compare/older/newer, which shows the engine's progress (and cancels), then the
 * report's figures, its warnings, a per-site table filtered and paged, pages opening in either
 * crawl's inspector, and tables saved as CSV.
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CompareProgressEvent, CompareReport, CreateCrawlRequest } from '../../core/api/contract.js';
import { describePolicies } from '../../core/api/policies.js';
import { provideApi } from '../../renderer/api/instance.js';
import { compareReport } from './compare-fixture.js';
import { crawlInfo, fakeApi } from './fake-api.js';
import { openAt, unmountWorkbench } from './mount-workbench.js';

let fake: ReturnType<typeof fakeApi>;
const created: CreateCrawlRequest[] = [];

beforeEach(async () => {
  fake = fakeApi();
  fake.api.listPolicies = async () => describePolicies();
  const create = fake.api.createCrawl;
  created.length = 0;
  fake.api.createCrawl = (req) => (created.push(req), create(req));
  await fake.api.createCrawl({ name: 'first', demoWeb: { latencyMs: 0 }, w: 0 });
  created.length = 0;
  fake.crawls.set('first', crawlInfo('first', { status: 'finished', demoWeb: true, createdAt: '2026-01-01' }));
  fake.crawls.set('later', crawlInfo('later', { status: 'finished', createdAt: '2026-06-01' }));
  provideApi(fake.api);
});
afterEach(unmountWorkbench);

describe('Crawl again', () => {
  it('fills New crawl from a demo crawl: its web months later, the historical policy, it as history', async () => {
    const { router, w } = await openAt('/crawls');
    await w.find('tr[data-crawl="first"] [data-action="again"]').trigger('click');
    await flushPromises();
    await flushPromises();
    expect(router.currentRoute.value.fullPath).toBe('/new?again=first');
    expect(w.find('[data-testid="again-note"]').text()).toMatch(/settings of first, on the same demo web months later \(revision 2\), guided by its PageRank \(historical-pagerank-parent/);
    expect((w.find('[data-testid="demo-revision-2"]').element as HTMLInputElement).checked).toBe(true);
    expect((w.find('input[name="policy"][value="historical-pagerank-parent"]').element as HTMLInputElement).checked).toBe(true);
    expect((w.find('[data-testid="history"]').element as HTMLSelectElement).value).toBe('first');
    expect((w.find('[data-testid="w"]').element as HTMLInputElement).value).toBe('0');
    expect((w.find('[data-testid="name"]').element as HTMLInputElement).value).toBe('first-again');
    await w.find('form.new-crawl').trigger('submit');
    await flushPromises();
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ name: 'first-again', policy: 'historical-pagerank-parent', historyCrawl: 'first', w: 0, demoWeb: { revision: 2, latencyMs: 0, sites: 60, pages: 3000 } });
    expect(router.currentRoute.value.fullPath).toBe('/crawls/first-again/live');
  });

  it('is offered on Live too', async () => {
    const { w } = await openAt('/crawls/first/live');
    expect(w.find('[data-testid="crawl-again"]').attributes('href')).toBe('/new?again=first');
  });

  it('offers the demo web months later in a plain New crawl too', async () => {
    const { w } = await openAt('/new');
    await w.find('[data-testid="demo-revision-2"]').setValue(true);
    await w.find('[data-testid="name"]').setValue('r2');
    await w.find('form.new-crawl').trigger('submit');
    await flushPromises();
    expect(created[0]).toMatchObject({ name: 'r2', demoWeb: { revision: 2 } });
  });
});

describe('Compare', () => {
  it('opens from two crawls ticked in Crawls, older as A, with the engine\'s progress and Cancel', async () => {
    let finish: (r: CompareReport) => void = () => {};
    const progress = new Set<(e: CompareProgressEvent) => void>();
    const asked: Array<[string, string, string | undefined]> = [];
    fake.api.onCompareProgress = (cb) => (progress.add(cb), () => void progress.delete(cb));
    fake.api.compareCrawls = (a, b, opts) => (asked.push([a, b, opts?.jobId]), new Promise((r) => (finish = r)));
    fake.api.cancelCompare = vi.fn(async () => {});
    const { router, w } = await openAt('/crawls');
    expect(w.find('[data-testid="compare-picked"]').attributes('disabled')).toBeDefined();
    await w.find('tr[data-crawl="later"] [data-action="pick"]').setValue(true);
    await w.find('tr[data-crawl="first"] [data-action="pick"]').setValue(true);
    await w.find('[data-testid="compare-picked"]').trigger('click');
    await flushPromises();
    expect(router.currentRoute.value.fullPath).toBe('/compare/first/later');
    expect(asked.map(([a, b]) => [a, b])).toEqual([['first', 'later']]);
    // Another job's progress is not this one's.
    for (const cb of progress) cb({ jobId: 'other', step: 'reading B', fraction: 0.9 });
    for (const cb of progress) cb({ jobId: asked[0]![2]!, step: 'PageRank of A', fraction: 0.55 });
    await flushPromises();
    expect(w.find('[data-testid="compare-progress"]').text()).toMatch(/PageRank of A… 55 %/);
    await w.find('[data-testid="compare-cancel"]').trigger('click');
    expect(fake.api.cancelCompare).toHaveBeenCalledWith(asked[0]![2]);
    finish(compareReport());
    await flushPromises();
    expect(w.find('[data-testid="compare-progress"]').exists()).toBe(false);
    expect(w.find('[data-card="pages-both"]').text()).toBe('55');
  });

  it('shows the figures, warnings and notes, a per-site table filtered and paged, and opens pages in either crawl', async () => {
    fake.api.compareCrawls = async () => JSON.parse(JSON.stringify(compareReport())) as CompareReport;
    const { w } = await openAt('/compare/first/later');
    const card = (id: string) => w.find(`[data-card="${id}"]`).text();
    expect([card('pages-a'), card('pages-b'), card('pages-jaccard'), card('sites'), card('content-changed'), card('new-links')]).toEqual(['100', '110', '0.355', '3 / 3 / 2', '20 of 55', '28.6 %']);
    expect([card('tau'), card('rho'), card('top100'), card('top1000'), card('pages-share'), card('pagerank-share')]).toEqual(['0.612', '0.750', '55.0 %', '–', '50.0 %', '72.1 %']);
    expect(w.find('[data-testid="compare-warning"]').text()).toMatch(/different scopes/);
    expect(w.find('[data-testid="compare-note"]').text()).toMatch(/computed in memory/);
    const sites = w.find('[data-table="sites"]');
    expect(sites.findAll('tbody tr')).toHaveLength(25);
    expect(sites.find('.pager').text()).toMatch(/page 1 of 2/);
    await sites.find('[data-filter="sites"]').setValue('s2');
    expect(sites.findAll('tbody tr').map((r) => r.find('td').text())).toEqual(Array.from({ length: 10 }, (_, i) => `s2${i}.test`));
    await sites.find('th[aria-sort] button').trigger('click');
    expect(sites.find('th').attributes('aria-sort')).toBe('ascending');
    const riser = w.find('[data-table="risers"]');
    expect(riser.find('[data-open="a"]').attributes('href')).toBe('/crawls/first/pages?url=http://a.test/up');
    expect(riser.find('[data-open="b"]').attributes('href')).toBe('/crawls/later/pages?url=http://a.test/up');
    expect(w.find('[data-table="added"] .url').text()).toBe('http://a.test/new');
  });

  it('saves a table as CSV, every row that passes the filter', async () => {
    fake.api.compareCrawls = async () => compareReport();
    const blobs: Blob[] = [];
    const names: string[] = [];
    URL.createObjectURL = (b: Blob) => (blobs.push(b), 'blob:x');
    URL.revokeObjectURL = () => {};
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const { w } = await openAt('/compare/first/later');
    await w.find('[data-filter="sites"]').setValue('s0');
    await w.find('[data-csv="sites"]').trigger('click');
    click.mockRestore();
    expect(names).toEqual(['compare-first-later-sites.csv']);
    const lines = (await blobs[0]!.text()).trim().split('\r\n');
    expect(lines[0]).toBe('site,pagesA,pagesB,growth,added,removed,changed,bytesA,bytesB,errorsA,errorsB,connectMsA,connectMsB,pagesPerConnectionA,pagesPerConnectionB');
    expect(lines).toHaveLength(11);
    expect(lines[1]).toBe('s00.test,30,0,-1,0,1,0,10,20,0,0,,3,,2');
  });

  it('says when the comparison failed or was cancelled, and compares again on asking', async () => {
    let calls = 0;
    fake.api.compareCrawls = async () => {
      calls++;
      throw Object.assign(new Error('the comparison was cancelled'), { code: 'CRAWL_CANCELLED' });
    };
    const { w } = await openAt('/compare/first/later');
    expect(w.find('[data-testid="compare-cancelled"]').exists()).toBe(true);
    fake.api.compareCrawls = async () => compareReport();
    await w.find('[data-testid="compare-cancelled"] button').trigger('click');
    await flushPromises();
    expect(calls).toBe(1);
    expect(w.find('[data-card="pages-a"]').text()).toBe('100');
  });
});
