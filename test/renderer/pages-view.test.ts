// @vitest-environment happy-dom
/**
 * The Pages view with the real App, router and stores over the in-memory API (whose search is
 * the engine's checks and order, test/renderer/fake-pages.ts): the count and rows as the API
 * gives them, paging and sorting kept in the address, a row opening the inspector with its
 * PageRank, discovery path and link totals, in-links paged by a hundred, and a refusal shown
 * where the search was made.
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { provideApi } from '../../renderer/api/instance.js';
import { formatPageRank } from '../../renderer/lib/page-search-route.js';
import { crawlInfo, fakeApi } from './fake-api.js';
import { fakePages, fakeSearchPages } from './fake-pages.js';
import { openAt, unmountWorkbench } from './mount-workbench.js';

let fake: ReturnType<typeof fakeApi>;
const held = fakePages(160);

beforeEach(() => {
  fake = fakeApi();
  fake.crawls.set('demo1', crawlInfo('demo1', { status: 'finished' }));
  fake.pages.set('demo1', held);
  provideApi(fake.api);
});
afterEach(unmountWorkbench);

const urls = (w: VueWrapper) => w.findAll('[data-testid="page-results"] tbody tr[data-url]').map((r) => r.attributes('data-url'));
const settle = async () => {
  await flushPromises();
  await new Promise((r) => setTimeout(r, 0));
  await flushPromises();
};

describe('Pages view', () => {
  it('shows the count and the first fifty pages, pages on, and sorts by PageRank, all kept in the address', async () => {
    const { router, w } = await openAt('/crawls/demo1/pages');
    expect(w.find('h2').text()).toBe('Pages — demo1');
    expect(w.find('[data-testid="result-count"]').text()).toBe('160 pages');
    expect(urls(w)).toEqual(fakeSearchPages(held, { limit: 50 }).rows.map((r) => r.url));
    await w.find('button[data-page="next"]').trigger('click');
    await settle();
    expect(router.currentRoute.value.query.from).toBe('50');
    expect(urls(w)).toEqual(fakeSearchPages(held, { offset: 50, limit: 50 }).rows.map((r) => r.url));

    await w.find('[data-testid="search-sort"]').setValue('pagerank');
    expect((w.find('[data-testid="search-order"]').element as HTMLSelectElement).selectedIndex).toBe(1); // largest first
    await w.find('[data-testid="search-url"]').setValue('PAGE-1');
    await w.find('form.page-search').trigger('submit');
    await settle();
    expect(router.currentRoute.value.query).toMatchObject({ q: 'PAGE-1', sort: 'pagerank', order: 'desc' });
    expect(router.currentRoute.value.query.from).toBeUndefined();
    const expected = fakeSearchPages(held, { url: 'PAGE-1', sort: 'pagerank', descending: true, limit: 50 });
    expect(urls(w)).toEqual(expected.rows.map((r) => r.url));
    expect(w.find('[data-testid="result-count"]').text()).toBe(`${expected.total} pages`);
    expect(w.find('th[aria-sort="descending"]').text()).toMatch(/PageRank/);
  });

  it('opens a row in the inspector: PageRank, discovery path, link totals; in-links a hundred at a time', async () => {
    const { router, w } = await openAt('/crawls/demo1/pages?sort=pagerank');
    const first = urls(w)[0]!;
    await w.find(`tr[data-url="${first}"] td[data-col="status"]`).trigger('click');
    await settle();
    expect(router.currentRoute.value.query).toMatchObject({ url: first, sort: 'pagerank' });
    const page = held.find((p) => p.url === first)!;
    expect(w.find('[data-testid="page-pagerank"]').text()).toBe(formatPageRank(page.pagerank));
    expect(w.find('[data-testid="in-total"]').text()).toBe(`(${first === 'http://a.test/' ? 159 : 0})`);

    // The home page: linked from every other page, found by none.
    await router.push({ query: { url: 'http://a.test/' } });
    await settle();
    expect(w.find('[data-testid="in-total"]').text()).toBe('(159)');
    expect(w.findAll('[data-testid="in-links"] li')).toHaveLength(100);
    expect(w.find('[data-testid="discovery-path"]').text()).toMatch(/A seed of the crawl/);
    await w.find('[data-testid="in-next"]').trigger('click');
    await settle();
    expect(router.currentRoute.value.query.in).toBe('100');
    expect(w.find('[data-testid="in-range"]').text()).toBe('101–159 of 159');
    expect(w.find('[data-testid="in-next"]').attributes('disabled')).toBeDefined();

    // A page found through the home page: its discovery path links there.
    await router.push({ query: { url: held[5]!.url } });
    await settle();
    const steps = w.findAll('[data-testid="discovery-path"] li a');
    expect(steps.map((a) => a.text())).toEqual(['http://a.test/']);
    expect(w.find('[data-testid="page-size"]').text()).toMatch(/KB$/);
    await w.find('[data-testid="back-to-results"]').trigger('click');
    await settle();
    expect(router.currentRoute.value.query.url).toBeUndefined();
  });

  it('shows a refused search where it was made, in words', async () => {
    const { w } = await openAt('/crawls/demo1/pages');
    fake.api.searchPages = () => Promise.reject(Object.assign(new Error('sort: no PageRank is stored for this crawl yet'), { name: 'CrawlError', code: 'CRAWL_BAD_OPTION', field: 'sort' }));
    await w.find('form.page-search').trigger('submit');
    await w.find('[data-testid="search-url"]').setValue('x');
    await w.find('form.page-search').trigger('submit');
    await settle();
    expect(w.find('[data-testid="search-error"]').text()).toMatch(/PageRank/);
  });

  it('searches by a typed depth, and says so at the field when the depth is not one', async () => {
    const { router, w } = await openAt('/crawls/demo1/pages');
    await w.find('[data-testid="search-depth"]').setValue('1');
    await w.find('form.page-search').trigger('submit');
    await settle();
    expect(router.currentRoute.value.query).toMatchObject({ depth: '1' });
    const expected = fakeSearchPages(held, { depth: 1, limit: 50 });
    expect(urls(w)).toEqual(expected.rows.map((r) => r.url));
    await w.find('[data-testid="search-depth"]').setValue('two');
    await w.find('form.page-search').trigger('submit');
    await settle();
    expect(w.find('[data-testid="search-depth-error"]').text()).toBe('Depth must be a whole number from 0 to 1,000 (not “two”).');
    expect(router.currentRoute.value.query).toMatchObject({ depth: '1' });
  });
});
