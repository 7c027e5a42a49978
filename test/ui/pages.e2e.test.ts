/**
 * The Pages view in Debian's chromium (issue 18) on the shared finished crawl of the demo web:
 * a page found by URL text (the count and rows as the engine gives them), the pages sorted by
 * PageRank (the first is the stored run's top page), a page opened from the results showing
 * its PageRank, discovery path and link totals, its in-links paged (the place kept in the
 * address over a reload), and the Sites view's link (?site=) as the site filter.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageDetail, PageSearchDto, StoredPageRankDto } from '../../core/api/contract.js';
import { formatPageRank } from '../../renderer/lib/page-search-route.js';
import { ARTIFACTS, DOCS, FIXTURE_ID, openWorkbench, type Workbench } from './e2e-kit.js';
import { describeWith } from '../references.js';

describeWith(['chromium'], 'Pages view in the browser', () => {
  let wb: Workbench;
  const search = (q: object) => wb.call<PageSearchDto>('searchPages', [FIXTURE_ID, q]);
  const detail = (url: string, links?: object) => wb.call<PageDetail>('getPage', [FIXTURE_ID, url, links]);
  const shownUrls = () => wb.page.locator('[data-testid="page-results"] tbody tr[data-url]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-url')));
  const goto = async (query: string) => {
    await wb.page.evaluate((h) => (location.hash = h), `#/crawls/${FIXTURE_ID}/pages${query}`);
  };

  beforeAll(async () => {
    wb = await openWorkbench({ name: 'pages', fixture: true });
    await wb.page.goto(wb.serve.url);
  }, 300_000);
  afterAll(() => wb?.close());

  it('finds pages by URL text, with the engine’s count and rows', async () => {
    const { page } = wb;
    await page.getByRole('tab', { name: 'Pages' }).click();
    await page.getByRole('heading', { name: /^Pages/ }).waitFor();
    await goto('');
    await page.getByRole('heading', { name: `Pages — ${FIXTURE_ID}` }).waitFor();
    // A text from a page in the middle of the crawl: the end of its path.
    const sample = (await search({ offset: 1500, limit: 1 })).rows[0]!.url;
    const text = sample.slice(sample.lastIndexOf('/'));
    const expected = await search({ url: text });
    expect(expected.total).toBeGreaterThan(0);
    await page.getByTestId('search-url').fill(text);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.getByTestId('result-count').getAttribute('data-total')).toBe(String(expected.total));
    expect(await page.getByTestId('result-count').innerText()).toBe(`${expected.total!.toLocaleString('en-US')} page${expected.total === 1 ? '' : 's'}`);
    expect(await shownUrls()).toEqual(expected.rows.map((r) => r.url));
    expect(decodeURIComponent(new URL(page.url()).hash)).toContain(`q=${text}`);
  });

  it('sorts by PageRank: the first row is the stored run’s top page; a row opens the inspector with PageRank, discovery path and link totals', async () => {
    const { page } = wb;
    const stored = await wb.call<StoredPageRankDto>('pageRankResult', [FIXTURE_ID]);
    const top = stored.page.top[0]!;
    await page.getByTestId('search-url').fill('');
    await page.getByTestId('search-sort').selectOption('pagerank');
    expect(await page.getByTestId('search-order').inputValue()).toBeTruthy();
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(async () => (await shownUrls())[0]).toBe(top.name);
    const all = await search({ sort: 'pagerank' });
    expect(await shownUrls()).toEqual(all.rows.map((r) => r.url));
    expect(await page.getByTestId('result-count').getAttribute('data-total')).toBe(String(all.total));
    expect(await page.locator('[data-testid="page-results"] th[aria-sort="descending"]').innerText()).toMatch(/PageRank/);
    await page.screenshot({ path: join(ARTIFACTS, 'pages-view.png') });
    if (process.env.UPDATE_SCREENSHOTS) await page.screenshot({ path: join(DOCS, 'pages-view.png') });

    // The row opens the page.
    await page.locator(`[data-testid="page-results"] tr[data-url="${top.name}"] td[data-col="status"]`).click();
    await page.getByTestId('page').waitFor();
    const d = await detail(top.name);
    expect(await page.getByTestId('page-url').innerText()).toBe(top.name);
    expect(await page.getByTestId('page-pagerank').innerText()).toBe(formatPageRank(top.value));
    expect(d.pagerank).toBe(top.value);
    expect(await page.getByTestId('in-total').innerText()).toBe(`(${d.inLinkCount!.toLocaleString('en-US')})`);
    expect(await page.getByTestId('out-total').innerText()).toBe(`(${d.outLinkCount.toLocaleString('en-US')})`);
    expect(await page.getByTestId('page-fetched').innerText()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    expect(await page.getByTestId('page-size').innerText()).toMatch(/^\d+(\.\d)? (B|KB|MB)$/);

    // A deeper page: its discovery path, each step a link to that page.
    const deep = (await search({ depth: 3, exactDepth: true, limit: 1 })).rows[0]!;
    const path = (await detail(deep.url)).discoveryPath;
    expect(path.length).toBeGreaterThan(0);
    await goto(`?url=${encodeURIComponent(deep.url)}`);
    await expect.poll(() => page.getByTestId('page-url').innerText()).toBe(deep.url);
    const steps = page.getByTestId('discovery-path').locator('li a');
    expect(await steps.allInnerTexts()).toEqual(path.map((p) => p.url));
    await steps.first().click();
    await expect.poll(() => page.getByTestId('page-url').innerText()).toBe(path[0]!.url);
    expect(await page.getByTestId('discovery-path').innerText()).toMatch(/A seed of the crawl/);
  });

  it('pages the in-links a hundred at a time, and keeps the place over a reload', async () => {
    const { page } = wb;
    const hub = (await search({ sort: 'indegree', limit: 1 })).rows[0]!;
    expect(hub.inDegree).toBeGreaterThan(100);
    await goto(`?url=${encodeURIComponent(hub.url)}`);
    await expect.poll(() => page.getByTestId('page-url').innerText()).toBe(hub.url);
    expect(await page.getByTestId('in-total').innerText()).toBe(`(${hub.inDegree!.toLocaleString('en-US')})`);
    expect(await page.getByTestId('in-links').locator('li').count()).toBe(100);
    expect(await page.getByTestId('in-range').innerText()).toBe(`1–100 of ${hub.inDegree!.toLocaleString('en-US')}`);
    await page.screenshot({ path: join(ARTIFACTS, 'page-inspector.png') });
    if (process.env.UPDATE_SCREENSHOTS) await page.screenshot({ path: join(DOCS, 'page-inspector.png') });
    await page.getByTestId('in-next').click();
    const second = await detail(hub.url, { linkLimit: 100, inOffset: 100 });
    await expect.poll(() => page.getByTestId('in-range').innerText()).toBe(`101–${Math.min(200, hub.inDegree!)} of ${hub.inDegree!.toLocaleString('en-US')}`);
    expect(await page.getByTestId('in-links').locator('li a').first().innerText()).toBe(second.inLinks[0]!.url);
    expect(new URL(page.url()).hash).toContain('in=100');
    await page.reload();
    await expect.poll(() => page.getByTestId('in-range').innerText()).toBe(`101–${Math.min(200, hub.inDegree!)} of ${hub.inDegree!.toLocaleString('en-US')}`);
    await page.getByTestId('in-previous').click();
    await expect.poll(() => page.getByTestId('in-range').innerText()).toBe(`1–100 of ${hub.inDegree!.toLocaleString('en-US')}`);
  });

  it('takes the Sites view’s ?site= as the site filter, and goes back to the results from a page', async () => {
    const { page } = wb;
    const host = new URL((await search({ offset: 700, limit: 1 })).rows[0]!.url).hostname;
    const hostKey = (await wb.call<{ rows: Array<{ host: string }> }>('listSites', [FIXTURE_ID, { host, limit: 1 }])).rows[0]!.host;
    const expected = await search({ site: hostKey });
    await goto(`?site=${encodeURIComponent(hostKey)}`);
    await expect.poll(() => page.getByTestId('result-count').getAttribute('data-total')).toBe(String(expected.total));
    expect(await page.getByTestId('search-site').inputValue()).toBe(hostKey);
    expect(await shownUrls()).toEqual(expected.rows.map((r) => r.url));
    await page.locator('[data-testid="page-results"] tbody a').first().click();
    await page.getByTestId('page').waitFor();
    await page.getByTestId('back-to-results').click();
    await expect.poll(() => page.getByTestId('result-count').getAttribute('data-total')).toBe(String(expected.total));
    expect(await page.getByTestId('search-site').inputValue()).toBe(hostKey);
    expect(wb.consoleErrors).toEqual([]);
  });
});
