// @vitest-environment happy-dom
/**
 * The Sites view in the real App over the in-memory API (whose listSites filters, sorts and
 * pages as the engine does): the address holds the place (an address with filters opens with
 * them set and their rows shown), a header, the pager and the filters change the address and
 * ask the engine again, typed host text arrives after a pause, site names link to their pages,
 * a crawl without site PageRank says where to compute it, and a refusal shows in words.
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SitesQuery } from '../../core/api/contract.js';
import { provideApi } from '../../renderer/api/instance.js';
import { crawlInfo, fakeApi } from './fake-api.js';
import { fakeSiteRows } from './fake-sites.js';
import { openAt, unmountWorkbench } from './mount-workbench.js';

let fake: ReturnType<typeof fakeApi>;
const asked: SitesQuery[] = [];

beforeEach(() => {
  fake = fakeApi();
  fake.crawls.set('demo1', crawlInfo('demo1', { status: 'finished', sites: 120, pagesKnown: 5000 }));
  fake.sites.set('demo1', fakeSiteRows(120));
  fake.crawls.set('bare', crawlInfo('bare', { status: 'finished', sites: 3 }));
  fake.sites.set('bare', fakeSiteRows(3, false));
  const listSites = fake.api.listSites;
  asked.length = 0;
  fake.api.listSites = (id, q) => (asked.push(q ?? {}), listSites(id, q));
  provideApi(fake.api);
});
afterEach(unmountWorkbench);

const hosts = (w: VueWrapper) => w.findAll('[data-table="sites"] tbody td[data-col="host"]').map((td) => td.text());
const engine = (q: SitesQuery) => fake.api.listSites('demo1', q);

describe('Sites view', () => {
  it('a crawl of an earlier version being brought up to date: the refusal in words, then its sites once that is done, the view left open', async () => {
    const message = 'old.db: made by an earlier crawlbench (schema 11); it is being brought up to this version\'s (schema 13) and opens once that is done';
    fake.crawls.set('old', crawlInfo('old', { status: 'upgrading', problem: message }));
    fake.sites.set('old', fakeSiteRows(4));
    const listSites = fake.api.listSites;
    fake.api.listSites = (id, q) =>
      fake.crawls.get(id)?.status === 'upgrading' ? Promise.reject(Object.assign(new Error(message), { name: 'CrawlError', code: 'CRAWL_DB_UPGRADING' })) : listSites(id, q);
    const { w } = await openAt('/crawls/old/sites');
    expect(w.find('[data-testid="sites-error"]').text()).toMatch(/being brought up to this version's/);
    expect(w.find('[data-testid="sites-total"]').exists()).toBe(false);
    fake.crawls.set('old', crawlInfo('old', { status: 'finished', sites: 4 }));
    fake.emitState({ crawlId: 'old', status: 'finished' });
    await flushPromises();
    await flushPromises();
    expect(w.find('[data-testid="sites-total"]').text()).toBe('4 sites match of 4');
  });

  it('shows the first 50 sites by pages fetched, the total, and links each to its pages', async () => {
    const { w } = await openAt('/crawls/demo1/sites');
    const expected = await engine({});
    expect(hosts(w)).toEqual(expected.rows.map((r) => r.host));
    expect(w.find('[data-testid="sites-total"]').text()).toBe('120 sites match of 120');
    expect(w.find('[data-range="sites"]').text()).toBe('rows 1–50 of 120');
    const link = w.find('[data-table="sites"] tbody a[data-site-link]');
    expect(link.attributes('href')).toBe(`/crawls/demo1/pages?site=${expected.rows[0]!.host}`);
    expect(w.find('th[data-col="pages_fetched"]').attributes('aria-sort')).toBe('descending');
    // Each column has a tooltip saying what it holds.
    expect(w.findAll('[data-table="sites"] th').every((th) => (th.attributes('title') ?? '').length > 10)).toBe(true);
  });

  it('sorts by a header and pages with Next, each kept in the address and asked of the engine', async () => {
    const { router, w } = await openAt('/crawls/demo1/sites');
    await w.find('th[data-col="bytes"] button').trigger('click');
    await flushPromises();
    expect(router.currentRoute.value.query).toEqual({ sort: 'bytes' });
    expect(asked.at(-1)).toMatchObject({ sort: 'bytes', descending: true, offset: 0, limit: 50 });
    expect(hosts(w)).toEqual((await engine({ sort: 'bytes' })).rows.map((r) => r.host));
    await w.find('[data-page="next"]').trigger('click');
    await flushPromises();
    expect(router.currentRoute.value.query).toEqual({ sort: 'bytes', offset: '50' });
    expect(hosts(w)).toEqual((await engine({ sort: 'bytes', offset: 50 })).rows.map((r) => r.host));
    expect(w.find('[data-range="sites"]').text()).toBe('rows 51–100 of 120');
    await w.find('th[data-col="bytes"] button').trigger('click');
    await flushPromises();
    // A new order starts again at the first page.
    expect(router.currentRoute.value.query).toEqual({ sort: 'bytes', desc: '0' });
  });

  it('opens an address with filters set, and filters by host text after a pause in typing', async () => {
    const { router, w } = await openAt('/crawls/demo1/sites?state=parked&errors=1&offset=0');
    expect((w.find('[data-testid="sites-state"]').element as HTMLSelectElement).value).toBe('parked');
    expect((w.find('[data-testid="sites-errors"]').element as HTMLInputElement).checked).toBe(true);
    const both = await engine({ state: 'parked', errorsOnly: true });
    expect(hosts(w)).toEqual(both.rows.map((r) => r.host));
    expect(w.find('[data-testid="sites-total"]').text()).toBe(`${both.total} ${both.total === 1 ? 'site matches' : 'sites match'} of 120`);

    await w.find('[data-testid="sites-clear"]').trigger('click');
    await flushPromises();
    expect(router.currentRoute.value.query).toEqual({});
    await w.find('[data-testid="sites-host"]').setValue('SITE1');
    await new Promise((r) => setTimeout(r, 400));
    await flushPromises();
    expect(router.currentRoute.value.query).toEqual({ q: 'SITE1' });
    const found = await engine({ host: 'site1' });
    expect(hosts(w)).toEqual(found.rows.map((r) => r.host));
    expect(w.find('[data-testid="sites-total"]').text()).toBe(`${found.total} sites match of 120`);
  });

  it('shows why a site was parked, its pages not fetched by reason and its robots.txt in words', async () => {
    const { w } = await openAt('/crawls/demo1/sites?state=parked&sort=host');
    const row = w.find('[data-table="sites"] tbody tr');
    expect(row.find('td[data-col="state"]').text()).toMatch(/^parked: robots\.txt could not be read/);
    expect(row.find('td[data-col="robots"]').text()).toBe('unreadable (HTTP 503)');
    const errs = await openAt('/crawls/demo1/sites?errors=1&sort=host');
    expect(errs.w.find('[data-table="sites"] tbody td[data-col="kinds"]').text()).toMatch(/^server error \(5xx\) \d+$/);
    expect(w.text()).not.toMatch(/CRAWL_/);
  });

  it("shows each site's schemes and certificate in words (issue 26)", async () => {
    const { w } = await openAt('/crawls/demo1/sites?sort=host&q=www.site33.test');
    const cell = (r: ReturnType<typeof w.find>, col: string) => r.find(`td[data-col="${col}"]`).text();
    const expired = w.find('[data-table="sites"] tbody tr');
    expect(cell(expired, 'host')).toBe('www.site33.test');
    expect(cell(expired, 'schemes')).toBe('http and https');
    expect(cell(expired, 'certificate')).toBe('certificate expired');
    const other = (await openAt('/crawls/demo1/sites?sort=host&q=www.site34.test')).w.find('[data-table="sites"] tbody tr');
    expect([cell(other, 'schemes'), cell(other, 'certificate')]).toEqual(['http', 'none (not https)']);
    const valid = (await openAt('/crawls/demo1/sites?sort=host&q=www.site30.test')).w.find('[data-table="sites"] tbody tr');
    expect(cell(valid, 'certificate')).toBe('valid');
    expect(w.text()).not.toMatch(/CRAWL_TLS/);
  });

  it('names the field of an address the engine refuses, and keeps the table (issue 23)', async () => {
    const { router, w } = await openAt('/crawls/demo1/sites?sort=host&offset=99999999999999999999');
    const note = w.find('[data-testid="sites-error"]').text();
    expect(note).toMatch(/^Offset \(offset= in the address\): must be a whole number from 0 to 1,000,000,000/);
    expect(note).toMatch(/first sites are shown/);
    // The table is there, at its first page, in the order the address asked for.
    expect(hosts(w)).toEqual((await engine({ sort: 'host' })).rows.map((r) => r.host));
    expect(router.currentRoute.value.query).toEqual({ sort: 'host' });
    // A refusal once a page is shown keeps that page.
    fake.api.listSites = () => Promise.reject(Object.assign(new Error('host: must be at most 500 characters'), { name: 'CrawlError', code: 'CRAWL_BAD_OPTION', field: 'host' }));
    const shown = hosts(w);
    await w.find('[data-page="next"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-testid="sites-error"]').text()).toMatch(/^Site name contains: must be at most 500 characters/);
    expect(hosts(w)).toEqual(shown);
  });

  it('says where site PageRank is computed when the crawl has none, and shows a refusal in words', async () => {
    const { w } = await openAt('/crawls/bare/sites');
    expect(w.find('[data-testid="sites-no-pagerank"]').text()).toMatch(/Results computes it/);
    expect(w.findAll('td[data-col="site_pagerank"]').every((td) => td.text() === '–')).toBe(true);
    fake.api.listSites = () => Promise.reject(Object.assign(new Error('no crawl named "gone"'), { name: 'CrawlError', code: 'CRAWL_DB_MISSING' }));
    const gone = await openAt('/crawls/gone/sites');
    expect(gone.w.find('[data-testid="sites-error"]').text()).toMatch(/^No crawl named "gone"/);
  });
});
