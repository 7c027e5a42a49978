/**
 * The Sites view in Debian's chromium over the shared finished crawl of the demo web: every
 * figure checked against listSites asked of the same server by a script. A column header
 * sorts (the first row is the engine's largest), the host text filters (rows and "N sites
 * match of M" equal the engine's), Next shows the page at offset 50, the state and errors
 * filters agree with the engine, a reload keeps the place (it is the address), and a site
 * opens its pages (the address carries site=HOST). With UPDATE_SCREENSHOTS set, the view is
 * docs/sites-view.png.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SitesPage, SitesQuery } from '../../core/api/contract.js';
import { ARTIFACTS, DOCS, FIXTURE_ID, openWorkbench, type Workbench } from './e2e-kit.js';
import { describeWith } from '../references.js';

describeWith(['chromium'], 'Sites view in the browser', () => {
  let wb: Workbench;
  beforeAll(async () => {
    wb = await openWorkbench({ name: 'sites', fixture: true });
  }, 300_000);
  afterAll(async () => {
    await wb?.close();
  });

  const list = (q: SitesQuery) => wb.call<SitesPage>('listSites', [FIXTURE_ID, q]);
  const hostsShown = () => wb.page.locator('[data-table="sites"] tbody td[data-col="host"]').allInnerTexts();
  const totalShown = () => wb.page.getByTestId('sites-total').innerText();
  /** The view at a hash of the workbench (loaded first if this file's tests run alone). */
  async function open(hash: string): Promise<void> {
    if (!wb.page.url().startsWith(wb.serve.origin)) await wb.page.goto(wb.serve.url);
    await wb.page.evaluate((h) => (location.hash = h), hash);
  }
  /** Waits until the table's first host is `host` (the answer to the last question came). */
  const firstHostIs = (host: string) => expect.poll(async () => (await hostsShown())[0], { timeout: 10_000 }).toBe(host);

  it('lists every site sorted by pages fetched, then by a header clicked, as the engine sorts them', async () => {
    const { page } = wb;
    await page.goto(wb.serve.url);
    await page.getByRole('tab', { name: 'Sites' }).click();
    await page.evaluate((id) => (location.hash = `#/crawls/${id}/sites`), FIXTURE_ID);
    const all = await list({});
    expect(all.total).toBe(all.allSites);
    await firstHostIs(all.rows[0]!.host);
    expect(await hostsShown()).toEqual(all.rows.map((r) => r.host));
    await expect.poll(totalShown).toBe(`${all.total} sites match of ${all.allSites}`);
    expect(await page.locator('[data-table="sites"] th[aria-sort="descending"]').innerText()).toMatch(/Pages fetched/);

    // Size: largest first, the engine's largest site on top, its size in units.
    await page.locator('[data-table="sites"] th[data-col="bytes"] button').click();
    const bySize = await list({ sort: 'bytes' });
    await firstHostIs(bySize.rows[0]!.host);
    expect(Math.max(...bySize.rows.map((r) => r.bytes))).toBe(bySize.rows[0]!.bytes);
    expect(await page.locator('[data-table="sites"] tbody tr').first().locator('td[data-col="bytes"]').innerText()).toMatch(/^\d+(\.\d)? (B|KB|MB)$/);
    expect(await page.locator('[data-table="sites"] th[data-col="bytes"]').getAttribute('aria-sort')).toBe('descending');
    // Again: smallest first.
    await page.locator('[data-table="sites"] th[data-col="bytes"] button').click();
    await firstHostIs((await list({ sort: 'bytes', descending: false })).rows[0]!.host);
    expect(page.url()).toContain('sort=bytes');

    // Site PageRank (stored with the fixture): the engine's highest on top, shown as a share in %.
    await page.locator('[data-table="sites"] th[data-col="site_pagerank"] button').click();
    const byRank = await list({ sort: 'site_pagerank' });
    expect(byRank.pagerankRun).not.toBeNull();
    await firstHostIs(byRank.rows[0]!.host);
    expect(await page.locator('[data-table="sites"] tbody tr').first().locator('td[data-col="site_pagerank"]').innerText()).toBe(
      `${(byRank.rows[0]!.pagerank! * 100).toLocaleString('en-US', { maximumFractionDigits: 2 })} %`,
    );
  });

  it('pages: Next shows the sites from offset 50, Previous the first ones again', async () => {
    const { page } = wb;
    await open(`#/crawls/${FIXTURE_ID}/sites?sort=host`);
    const first = await list({ sort: 'host' });
    const second = await list({ sort: 'host', offset: 50 });
    expect(second.rows.length).toBeGreaterThan(0);
    await firstHostIs(first.rows[0]!.host);
    expect(await page.locator('[data-range="sites"]').innerText()).toBe(`rows 1–50 of ${first.total}`);
    await page.getByRole('button', { name: 'Next' }).click();
    await firstHostIs(second.rows[0]!.host);
    expect(await hostsShown()).toEqual(second.rows.map((r) => r.host));
    expect(await page.locator('[data-range="sites"]').innerText()).toBe(`rows 51–${50 + second.rows.length} of ${first.total}`);
    expect(page.url()).toContain('offset=50');
    // The place is the address: a reload shows the same page.
    await page.reload();
    await firstHostIs(second.rows[0]!.host);
    await page.getByRole('button', { name: 'Previous' }).click();
    await firstHostIs(first.rows[0]!.host);
  });

  it('filters by host text, state and errors, with the engine\'s rows and totals', async () => {
    const { page } = wb;
    await open(`#/crawls/${FIXTURE_ID}/sites`);
    const all = await list({ limit: 500 });
    // A piece of a host that some sites hold and others do not.
    const hosts = all.rows.map((r) => r.host);
    const needle = hosts.map((h) => h.slice(0, 4)).find((t) => {
      const n = hosts.filter((h) => h.includes(t)).length;
      return n > 1 && n < hosts.length;
    }) ?? hosts[0]!.slice(0, 4);
    await page.getByLabel('Site name contains').fill(needle.toUpperCase());
    const found = await list({ host: needle });
    expect(found.total).toBeLessThan(all.total);
    await expect.poll(totalShown).toBe(`${found.total} ${found.total === 1 ? 'site matches' : 'sites match'} of ${all.allSites}`);
    expect(await hostsShown()).toEqual(found.rows.map((r) => r.host));
    expect((await hostsShown()).every((h) => h.includes(needle))).toBe(true);
    expect(page.url()).toContain(`q=${needle.toUpperCase()}`);

    await page.getByLabel('Site name contains').fill('');
    await page.getByTestId('sites-state').selectOption('parked');
    const parked = await list({ state: 'parked' });
    expect(parked.total).toBeGreaterThan(0);
    await expect.poll(totalShown).toBe(`${parked.total} ${parked.total === 1 ? 'site matches' : 'sites match'} of ${all.allSites}`);
    expect(await hostsShown()).toEqual(parked.rows.map((r) => r.host));
    // Why each was parked, in words, and its robots.txt answer.
    const firstRow = page.locator('[data-table="sites"] tbody tr').first();
    expect(await firstRow.locator('td[data-col="state"]').innerText()).toMatch(/^parked: robots\.txt could not be read/);
    expect(await firstRow.locator('td[data-col="robots"]').innerText()).toBe(`unreadable (HTTP ${parked.rows[0]!.robots!.status})`);

    await page.getByTestId('sites-state').selectOption({ label: 'all sites' });
    await page.getByLabel('only sites with errors').check();
    const withErrors = await list({ errorsOnly: true });
    await expect.poll(totalShown).toBe(`${withErrors.total} ${withErrors.total === 1 ? 'site matches' : 'sites match'} of ${all.allSites}`);
    expect(await hostsShown()).toEqual(withErrors.rows.map((r) => r.host));
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(totalShown).toBe(`${all.total} sites match of ${all.allSites}`);

    // A site's pages not fetched, by reason, in words: the engine's count of robots.txt refusals.
    const refusing = all.rows.find((r) => (r.errorsByKind.CRAWL_ROBOTS_DISALLOWED ?? 0) > 0)!;
    expect(refusing).toBeDefined();
    await page.getByLabel('Site name contains').fill(refusing.host);
    await firstHostIs(refusing.host);
    const row = page.locator('[data-table="sites"] tbody tr').first();
    expect(await row.locator('td[data-col="kinds"]').innerText()).toContain(`disallowed by robots.txt ${refusing.errorsByKind.CRAWL_ROBOTS_DISALLOWED}`);
    expect(await row.locator('td[data-col="robots"]').innerText()).toMatch(/^rules; kept pages out \(HTTP 200/);
    if (process.env.UPDATE_SCREENSHOTS) {
      await page.getByLabel('Site name contains').fill('');
      await firstHostIs(all.rows[0]!.host);
      await page.screenshot({ path: join(DOCS, 'sites-view.png') });
    }
  });

  it('opens a site\'s pages: the Pages view with the site in its address', async () => {
    const { page } = wb;
    await open(`#/crawls/${FIXTURE_ID}/sites`);
    const top = (await list({})).rows[0]!;
    await firstHostIs(top.host);
    await page.screenshot({ path: join(ARTIFACTS, 'sites-view.png') });
    await page.locator('[data-table="sites"] tbody a[data-site-link]').first().click();
    await expect.poll(() => page.evaluate(() => location.hash)).toBe(`#/crawls/${FIXTURE_ID}/pages?site=${encodeURIComponent(top.host)}`);
    expect(wb.consoleErrors).toEqual([]);
  });
});
