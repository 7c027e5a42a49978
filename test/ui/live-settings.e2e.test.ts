/**
 * What every visit shows, in Debian's chromium: the favicon (no 404 on each load), the view
 * tabs moved through with the arrow keys, and on Live a finished crawl's settings, crawl time
 * and counters as stored at its end (not its last sample).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlInfo, CrawlSettingsDto } from '../../core/api/contract.js';
import { FIXTURE_ID, openWorkbench, type Workbench } from './e2e-kit.js';
import { describeWith } from '../references.js';

describeWith(['chromium'], 'favicon, tabs and a crawl’s settings in the browser', () => {
  let wb: Workbench;
  const failed: string[] = [];

  beforeAll(async () => {
    wb = await openWorkbench({ name: 'live-settings', fixture: true });
    wb.page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
  }, 300_000);

  afterAll(async () => {
    await wb?.close();
  });

  it('serves a favicon, so no load asks for one in vain', async () => {
    const { page } = wb;
    await page.goto(wb.serve.url);
    await page.getByRole('heading', { name: 'New crawl' }).waitFor();
    const icon = await page.evaluate(async () => {
      const href = document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href ?? '';
      const r = await fetch(href);
      return { href, status: r.status, type: r.headers.get('content-type'), text: await r.text() };
    });
    expect(icon).toMatchObject({ status: 200, type: 'image/svg+xml' });
    expect(icon.text).toMatch(/^<svg /);
    expect(failed).toEqual([]);
  });

  it('moves through the view tabs with the arrow keys', async () => {
    const { page } = wb;
    await page.getByRole('tab', { name: 'New crawl' }).focus();
    const order: string[] = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('ArrowRight');
      const focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
      await page.locator('[role="tab"][aria-selected="true"]', { hasText: focused }).waitFor();
      order.push(focused);
    }
    expect(order).toEqual(['Live', 'Crawls', 'Sites', 'Pages', 'Results', 'Partition', 'Simulate', 'New crawl']);
    await page.keyboard.press('ArrowLeft');
    await page.getByRole('heading', { name: /^Simulat/ }).first().waitFor();
    expect(new URL(page.url()).hash).toMatch(/^#\/simulate/);
    await page.keyboard.press('Home');
    await page.getByRole('heading', { name: 'New crawl' }).waitFor();
    // One tab in the Tab order: the current one.
    expect(await page.locator('[role="tab"][tabindex="0"]').allInnerTexts()).toEqual(['New crawl']);
  });

  it("shows a finished crawl's settings, crawl time and final counters on Live", async () => {
    const { page } = wb;
    const settings = await wb.call<CrawlSettingsDto>('crawlSettings', [FIXTURE_ID]);
    const info = (await wb.call<CrawlInfo[]>('listCrawls', [])).find((c) => c.id === FIXTURE_ID)!;
    await page.evaluate((id) => (location.hash = `#/crawls/${id}/live`), FIXTURE_ID);
    const panel = page.getByTestId('crawl-settings');
    await panel.locator('[data-fact="policy"] dd').waitFor();
    const fact = (key: string) => panel.locator(`[data-fact="${key}"] dd`).innerText();
    expect(await fact('policy')).toBe(settings.policy);
    expect(await fact('source')).toBe(`demo web: ${settings.demoWeb!.sites} sites, ${settings.demoWeb!.pages.toLocaleString('en-US')} pages`);
    expect(await fact('w')).toBe(`${settings.w} ms`);
    expect(await fact('c')).toBe(String(settings.c));
    expect(await fact('r')).toBe(String(settings.r));
    expect(await fact('maxDepth')).toBe(String(settings.maxDepth));
    expect(await fact('history')).toBe('none');
    // Every fact explains itself in a tooltip.
    for (const title of await panel.locator('[data-fact]').evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''))) expect(title).not.toBe('');
    // Counters: the crawl's stored end state.
    expect(await page.locator('.counters').getAttribute('data-final')).toBe('true');
    expect(await page.getByTestId('pages').innerText()).toBe(info.pagesFetched.toLocaleString('en-US'));
    expect(await page.getByTestId('errors').innerText()).toBe((info.errorTotal ?? -1).toLocaleString('en-US'));
    expect(await page.getByTestId('connections').innerText()).toBe(`0 / ${settings.r}`);
    expect(info.crawlSeconds).toBeGreaterThan(0);
    expect(await page.getByTestId('elapsed').innerText()).toMatch(/^\d+(\.\d)? s$|min/);
    // Finished: progress full, no time left.
    expect(await page.getByTestId('crawl-progress').innerText()).toMatch(/^Progress: 100 % of the demo web's pages \(3,000\)/);
    expect(await page.getByTestId('eta').count()).toBe(0);
    expect(wb.consoleErrors).toEqual([]);
  });

  it("creates a demo crawl from the form with the demo's own politeness (c = 10, w = 50 ms), shown on Live", async () => {
    const { page } = wb;
    await page.getByRole('tab', { name: 'New crawl' }).click();
    await page.getByTestId('demo-web').check();
    await page.getByTestId('name').fill('demo-form');
    await page.getByText('Start at once').click(); // created only: nothing to crawl in this test
    await page.getByTestId('create').click();
    await page.getByRole('heading', { name: 'Live — demo-form' }).waitFor();
    const settings = await wb.call<CrawlSettingsDto>('crawlSettings', ['demo-form']);
    expect(settings).toMatchObject({ c: 10, w: 50, r: 64 });
    await page.getByTestId('crawl-settings').locator('[data-fact="c"] dd').waitFor();
    expect(await page.getByTestId('crawl-settings').locator('[data-fact="c"] dd').innerText()).toBe('10');
    expect(await page.getByTestId('status').innerText()).toBe('created');
    expect(wb.consoleErrors).toEqual([]);
  });
});
