/**
 * An accessibility check of every view, in light and in dark mode: axe-core (the engine behind
 * Lighthouse's and Playwright's checks; @axe-core/playwright wants Node 22, so axe-core itself
 * is put into the page) on each address of the workbench with a real crawl of the demo web in
 * it, filled in as a user would see it. No serious or critical violation may remain: contrast,
 * names of controls and images, labels, table headers, ARIA roles (the tabs among them).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FIXTURE_ID, axeViolations as violations, copyFixtureInto, describeViolation as describeView, openWorkbench, type Workbench } from './e2e-kit.js';
import { describeWith } from '../references.js';

/** Every view, at an address that fills it with the demo crawl (and what to wait for there). */
const VIEWS: Array<{ name: string; hash: string; ready: string; act?: (page: Page) => Promise<void> }> = [
  { name: 'New crawl', hash: '#/new', ready: 'h2#new-title' },
  { name: 'Live', hash: `#/crawls/${FIXTURE_ID}/live`, ready: '[data-testid="crawl-settings"] [data-fact="policy"]' },
  { name: 'Crawls', hash: '#/crawls', ready: `tr[data-crawl="${FIXTURE_ID}"]` },
  { name: 'Sites', hash: `#/crawls/${FIXTURE_ID}/sites`, ready: '[data-table="sites"] tbody td[data-col="host"]' },
  { name: 'Pages', hash: `#/crawls/${FIXTURE_ID}/pages`, ready: 'h2' },
  { name: 'Page inspector', hash: '(the first seed, below)', ready: '[data-testid="page"]' },
  {
    name: 'Results',
    hash: `#/crawls/${FIXTURE_ID}/results`,
    ready: '[data-testid="results-evaluate"]',
    // With the evaluation drawn: its charts, figures and tables are what the view is for.
    act: async (page) => {
      await page.getByTestId('results-evaluate').click();
      await page.getByTestId('results-evaluation').waitFor({ timeout: 120_000 });
    },
  },
  { name: 'Partition', hash: `#/crawls/${FIXTURE_ID}/partition`, ready: 'h2' },
  { name: 'Simulate', hash: '#/simulate', ready: 'h2' },
  { name: 'Compare', hash: `#/compare/${FIXTURE_ID}/again`, ready: '[data-testid="compare-cards"], .compare-cards' },
];

describeWith(['chromium'], 'accessibility of every view (axe-core)', () => {
  let wb: Workbench;
  let firstUrl = '';

  beforeAll(async () => {
    wb = await openWorkbench({ name: 'a11y', fixture: true });
    // A second crawl (the same file under another name) so that Compare has a pair to show.
    await copyFixtureInto(wb.workspace, 'again');
    // The inspector at a real page: the demo crawl's first seed.
    const seed = (await wb.call<{ seeds: string[] }>('crawlSettings', [FIXTURE_ID])).seeds[0]!;
    firstUrl = (await wb.call<{ url: string } | null>('getPage', [FIXTURE_ID, seed]))!.url;
  }, 300_000);

  afterAll(async () => {
    await wb?.close();
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`has no serious or critical violation on any view in ${scheme} mode`, async () => {
      const { page } = wb;
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(wb.serve.url);
      const found: string[] = [];
      for (const v of VIEWS) {
        const hash = v.name === 'Page inspector' ? `#/crawls/${FIXTURE_ID}/pages?url=${encodeURIComponent(firstUrl)}` : v.hash;
        await page.evaluate((h) => (location.hash = h), hash);
        // A reload, so that the charts are drawn in this scheme's theme from the start.
        await page.reload();
        await page.locator(v.ready).first().waitFor({ timeout: 60_000 });
        await v.act?.(page);
        // Let the view's requests settle (tables, charts).
        await page.waitForLoadState('networkidle').catch(() => undefined);
        await page.waitForTimeout(300);
        for (const x of await violations(page)) found.push(`${v.name}: ${describeView(x)}`);
      }
      expect(found).toEqual([]);
      expect(wb.consoleErrors).toEqual([]);
    }, 300_000);
  }
});
