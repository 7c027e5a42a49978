// @vitest-environment happy-dom
/**
 * The workbench's addresses, with the real App, views and stores over the in-memory API:
 * the crawl shown is the route's, an address opened afresh (a reload) shows the same place,
 * Live and Pages without a crawl say how to pick one, and creating a crawl goes to
 * its Live address.
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { provideApi } from '../../renderer/api/instance.js';
import { crawlInfo, fakeApi } from './fake-api.js';
import { openAt, unmountWorkbench } from './mount-workbench.js';

let fake: ReturnType<typeof fakeApi>;

beforeEach(() => {
  fake = fakeApi();
  fake.crawls.set('demo1', crawlInfo('demo1', { status: 'finished', pagesFetched: 1234, demoWeb: true }));
  fake.crawls.set('other', crawlInfo('other', { status: 'paused' }));
  provideApi(fake.api);
});
afterEach(unmountWorkbench);

const heading = (w: VueWrapper) => w.find('h2').text();
const currentTab = (w: VueWrapper) => w.findAll('nav a[aria-current="page"]').map((a) => a.text());

describe('routes', () => {
  it('shows the crawl named in the address, as a reload of /crawls/:id/live would', async () => {
    const { w } = await openAt('/crawls/demo1/live');
    expect(heading(w)).toBe('Live — demo1');
    expect(w.find('[data-testid="status"]').text()).toBe('finished');
    expect(w.find('[data-testid="pages"]').text()).toBe('1,234');
    expect(currentTab(w)).toEqual(['Live']);
    expect(w.find('.top .selected').text()).toBe('demo1 · finished');
  });

  it('says how to pick a crawl on Live and Pages without one, and names a crawl that is not there', async () => {
    const { router, w } = await openAt('/live');
    expect(heading(w)).toBe('Live');
    expect(w.find('[data-testid="no-crawl"]').text()).toMatch(/No crawl selected/);
    await router.push('/pages');
    await flushPromises();
    expect(heading(w)).toBe('Pages');
    expect(w.find('[data-testid="no-crawl"]').text()).toMatch(/Open a crawl first/);
    expect(w.find('[data-testid="inspect-url"]').exists()).toBe(false);
    await router.push('/crawls/gone/live');
    await flushPromises();
    expect(heading(w)).toBe('Live — gone');
    expect(w.find('[data-testid="no-crawl"]').text()).toMatch(/no crawl named “gone”/);
  });

  it('opens the page inspector at the page in the address, and a lookup changes the address', async () => {
    const { router, w } = await openAt('/crawls/demo1/pages?url=http%3A%2F%2Fa.test%2Fevil');
    expect(heading(w)).toBe('Pages — demo1');
    expect(w.find('[data-testid="page-title"]').text()).toBe('<img src=x onerror=alert(1)>');
    expect(w.find('[data-testid="page"] img').exists()).toBe(false);
    await w.find('[data-testid="inspect-url"]').setValue('http://a.test/missing');
    await w.find('form.lookup').trigger('submit');
    await flushPromises();
    expect(router.currentRoute.value.fullPath).toBe('/crawls/demo1/pages?url=http://a.test/missing');
    expect(w.find('[data-testid="page"]').exists()).toBe(false);
    expect(w.text()).toMatch(/This crawl does not know that URL/);
    router.back();
    await flushPromises();
    await new Promise((r) => setTimeout(r, 0));
    await flushPromises();
    expect(w.find('[data-testid="page-title"]').exists()).toBe(true);
  });

  it('keeps the tabs on the crawl last opened, and marks the current one', async () => {
    const { router, w } = await openAt('/crawls');
    expect(currentTab(w)).toEqual(['Crawls']);
    expect(w.find('nav a[data-tab="live"]').attributes('href')).toBe('/live');
    await w.find('tr[data-crawl="other"] [data-action="open"]').trigger('click');
    await flushPromises();
    expect(router.currentRoute.value.fullPath).toBe('/crawls/other/live');
    expect(heading(w)).toBe('Live — other');
    await w.find('nav a[data-tab="crawls"]').trigger('click');
    await flushPromises();
    expect(heading(w)).toBe('Crawls');
    expect(w.find('nav a[data-tab="live"]').attributes('href')).toBe('/crawls/other/live');
    expect(w.find('nav a[data-tab="inspector"]').attributes('href')).toBe('/crawls/other/pages');
    await w.find('nav a[data-tab="live"]').trigger('click');
    await flushPromises();
    expect(heading(w)).toBe('Live — other');
    expect(currentTab(w)).toEqual(['Live']);
  });

  it('goes to the new crawl’s Live address once it is created and started', async () => {
    const { router, w } = await openAt('/');
    expect(router.currentRoute.value.fullPath).toBe('/new');
    expect(heading(w)).toBe('New crawl');
    expect(w.text()).toMatch(/breadth-first/);
    await w.find('[data-testid="name"]').setValue('fresh');
    await w.find('form.new-crawl').trigger('submit');
    await flushPromises();
    expect(router.currentRoute.value.fullPath).toBe('/crawls/fresh/live');
    expect(heading(w)).toBe('Live — fresh');
    expect(w.find('[data-testid="status"]').text()).toBe('running');
    expect(fake.calls.filter((c) => !c.startsWith('list'))).toEqual(['createCrawl', 'start fresh']);
  });

  it('moves through the view tabs with the arrow keys, Home and End, one tab in the Tab order', async () => {
    const { router, w } = await openAt('/crawls/demo1/live');
    const tabs = () => w.findAll('[role="tablist"] [role="tab"]');
    expect(tabs().map((t) => t.text())).toEqual(['New crawl', 'Live', 'Crawls', 'Sites', 'Pages', 'Results', 'Partition', 'Simulate']);
    const selected = () => tabs().filter((t) => t.attributes('aria-selected') === 'true').map((t) => t.text());
    const focusable = () => tabs().filter((t) => t.attributes('tabindex') === '0').map((t) => t.text());
    expect(selected()).toEqual(['Live']);
    expect(focusable()).toEqual(['Live']);
    expect(w.find('main [role="tabpanel"]').attributes('aria-labelledby')).toBe('tab-live');
    const key = async (k: string) => {
      await w.find('[role="tab"][aria-selected="true"]').trigger('keydown', { key: k });
      await flushPromises();
    };
    await key('ArrowRight');
    expect(router.currentRoute.value.fullPath).toBe('/crawls');
    expect(selected()).toEqual(['Crawls']);
    expect(document.activeElement?.textContent).toBe('Crawls');
    await key('ArrowRight');
    expect(router.currentRoute.value.fullPath).toBe('/crawls/demo1/sites');
    await key('End');
    expect(router.currentRoute.value.fullPath).toBe('/simulate');
    await key('ArrowRight');
    expect(router.currentRoute.value.fullPath).toBe('/new');
    await key('ArrowLeft');
    expect(router.currentRoute.value.fullPath).toBe('/simulate');
    await key('Home');
    expect(router.currentRoute.value.fullPath).toBe('/new');
    expect(focusable()).toEqual(['New crawl']);
  });

  it('leaves New crawl for an unknown address', async () => {
    const { router } = await openAt('/no/such/place');
    expect(router.currentRoute.value.fullPath).toBe('/new');
  });
});
