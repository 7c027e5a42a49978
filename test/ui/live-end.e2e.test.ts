/**
 * Live when a run ends under the user's eyes (issue 23: watching a crawl to its end left Live
 * stale, Top sites at 365 of 382 fetched and the parked sites' skipped pages at 9 and 3, where
 * the stored final state and a reload said 382 of 382, 12 and 4): the moment Live says
 * "finished", its counters and tables are the crawl's stored final state, without a reload.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CrawlInfo, ParkedSiteDto, RecentError, SitesPage } from '../../core/api/contract.js';
import { openWorkbench, type Workbench } from './e2e-kit.js';
import { describeWith } from '../references.js';

/** What Live shows: counters, Top sites, Recent errors and Parked sites, as text. */
async function shown(page: Page) {
  return page.evaluate(() => {
    const cells = (tr: Element) => [...tr.querySelectorAll('td')].map((td) => (td.querySelector('summary') ?? td).textContent!.trim());
    const rows = (table: Element | null | undefined) => [...(table?.querySelectorAll('tbody tr') ?? [])].map(cells).filter((r) => r.length > 1);
    const tables = document.querySelectorAll('.live .tables table');
    const text = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.textContent?.trim() ?? null;
    return {
      status: text('status'),
      pages: text('pages'),
      queued: text('queued'),
      errors: text('errors'),
      topSites: rows(tables[0]).map((r) => [r[0], r[1], r[2]]),
      recentErrors: rows(tables[1]).map((r) => r[0]),
      parked: rows(document.querySelector('[data-testid="parked-sites"]')).map((r) => [r[0], r[2]]),
    };
  });
}

describeWith(['chromium'], 'Live when a run ends under your eyes', () => {
  let wb: Workbench;

  beforeAll(async () => {
    wb = await openWorkbench({ name: 'live-end' });
  }, 60_000);

  afterAll(async () => {
    await wb?.close();
  });

  it("shows the stored final state the moment the crawl finishes, as a reload would", async () => {
    const { page } = wb;
    // The demo web's 60 sites (two of them with a broken robots.txt), 900 pages of its 3,000, without latency.
    await wb.call('createCrawl', [{ name: 'watched', demoWeb: { latencyMs: 0, pages: 900 } }]);
    await page.goto(wb.serve.url);
    await page.evaluate(() => (location.hash = '#/crawls/watched/live'));
    await page.getByTestId('resume').click();
    await expect.poll(() => page.getByTestId('status').innerText(), { timeout: 20_000 }).toBe('running');
    await expect.poll(() => page.getByTestId('status').innerText(), { timeout: 180_000, interval: 100 }).toBe('finished');

    const [info] = (await wb.call<CrawlInfo[]>('listCrawls', [])).filter((c) => c.id === 'watched');
    const sites = await wb.call<SitesPage>('listSites', ['watched', { sort: 'pages_fetched', descending: true, limit: 10 }]);
    const parked = await wb.call<ParkedSiteDto[]>('parkedSites', ['watched', 20]);
    const recent = await wb.call<RecentError[]>('recentErrors', ['watched', 10]);
    expect(parked.length).toBeGreaterThan(0);
    const stored = {
      status: 'finished',
      pages: info!.pagesFetched.toLocaleString('en-US'),
      queued: info!.queued.toLocaleString('en-US'),
      errors: (info!.errorTotal ?? 0).toLocaleString('en-US'),
      topSites: sites.rows.map((r) => [r.host, String(r.pagesFetched), String(r.pagesKnown)]),
      recentErrors: recent.map((e) => e.url),
      parked: parked.map((p) => [p.host, p.pagesSkipped.toLocaleString('en-US')]),
    };
    // Within a second of "finished" (Live asks for its tables every 3 s: not by luck of that timer).
    await expect.poll(() => shown(page), { timeout: 1000, interval: 100 }).toEqual(stored);
    // And what a reload shows is the same.
    await page.reload();
    await page.locator('[data-testid="parked-sites"] tbody tr[data-host]').first().waitFor();
    await expect.poll(() => shown(page), { timeout: 10_000 }).toEqual(stored);
    expect(wb.consoleErrors).toEqual([]);
  }, 240_000);
});
