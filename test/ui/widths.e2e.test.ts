/**
 * Every view at 1280x800 with the e2e kit's demo set loaded (issue 23: Compare, with two demo
 * crawls, was 1,288 px wide, the sites table's last columns and its CSV button cut off): the two
 * shared crawls (revision 1, and revision 2 guided by it), their comparison, a partition and a
 * simulation, each view filled as a user sees it. No view may scroll sideways (the document's
 * scrollWidth against the viewport), and each passes the accessibility check, in light and in
 * dark mode: axe-core (the engine behind Lighthouse's and Playwright's checks;
 * @axe-core/playwright wants Node 22, so axe-core itself is put into the page), no serious or
 * critical violation: contrast, names of controls and images, labels, table headers, ARIA roles
 * (the tabs among them). This was a file of its own (a11y.e2e) on the single demo crawl; every
 * view it visited is visited here, filled further.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { SimulationDto } from '../../core/api/contract.js';
import { axeViolations, copyDemoPairInto, describeViolation, openWorkbench, type Workbench } from './e2e-kit.js';
import { describeWith, itWith } from '../references.js';

const VIEWPORT = { width: 1280, height: 800 };
/** The two crawls under names New crawl gives when none is typed (the longest a user usually has). */
const FIRST = 'crawl-2026-11-25T01-23-45-678';
const SECOND = 'crawl-2026-11-25T01-31-02-114';

/** The document's width against the viewport's, and what sticks out past its right edge. */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const doc = document.documentElement;
    const view = doc.clientWidth;
    const label = (e: Element) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.getAttribute('data-testid') ? `[data-testid=${e.getAttribute('data-testid')}]` : ''}${e.getAttribute('data-table') ? `[data-table=${e.getAttribute('data-table')}]` : ''}${typeof e.className === 'string' && e.className ? `.${e.className.trim().split(/\s+/).join('.')}` : ''}`;
    // The outermost elements past the right edge (their insides go with them).
    const past = [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > view + 0.5 && !(e.parentElement && e.parentElement.getBoundingClientRect().right > view + 0.5));
    // Tables that scroll inside their place: their last columns are out of sight until scrolled to.
    const cut = [...document.querySelectorAll('.table-scroll')].filter((e) => e.scrollWidth > e.clientWidth + 0.5);
    // Buttons out of sight to the right (Compare's sites table once hid its CSV button).
    const hidden = [...document.querySelectorAll('button')].filter((b) => b.getClientRects().length > 0 && b.getBoundingClientRect().right > view + 0.5);
    return {
      scrollWidth: doc.scrollWidth,
      clientWidth: view,
      past: past.slice(0, 5).map((e) => `${label(e)} to ${Math.round(e.getBoundingClientRect().right)} px`),
      cut: cut.map((e) => `${label(e.closest('[data-table]') ?? e)}: ${e.scrollWidth} px in ${e.clientWidth}`),
      hidden: hidden.slice(0, 5).map((b) => `${label(b)} “${b.textContent?.trim()}”`),
    };
  });
}

describeWith(['chromium'], 'every view at 1280x800 with the demo set loaded', () => {
  let wb: Workbench;
  let simulationId = '';
  let firstUrl = '';

  beforeAll(async () => {
    wb = await openWorkbench({ name: 'widths', viewport: VIEWPORT, scrollbars: true });
    await copyDemoPairInto(wb.workspace, [FIRST, SECOND]);
    // A simulation of the first crawl, kept in the workspace.
    simulationId = (await wb.call<{ simulationId: string }>('startSimulation', [{ source: { kind: 'crawl', id: FIRST }, policies: ['breadth-first', 'opic', 'omniscient'] }])).simulationId;
    for (let state = 'running'; state === 'running'; await new Promise((r) => setTimeout(r, 500))) {
      state = (await wb.call<SimulationDto>('getSimulation', [simulationId])).state;
      if (state !== 'running' && state !== 'finished') throw new Error(`the simulation ended ${state}`);
      if (state === 'finished') break;
    }
    const seed = (await wb.call<{ seeds: string[] }>('crawlSettings', [FIRST])).seeds[0]!;
    firstUrl = (await wb.call<{ url: string } | null>('getPage', [FIRST, seed]))!.url;
  }, 600_000);

  afterAll(async () => {
    await wb?.close();
  });

  /** Every view, at an address that fills it (and what to wait for there, or do first). */
  const views = (): Array<{ name: string; hash: string; ready: string; act?: (page: Page) => Promise<void> }> => [
    { name: 'New crawl', hash: '#/new', ready: 'h2#new-title' },
    { name: 'Live (revision 1)', hash: `#/crawls/${FIRST}/live`, ready: '[data-testid="crawl-settings"] [data-fact="policy"]' },
    { name: 'Live (revision 2, historical)', hash: `#/crawls/${SECOND}/live`, ready: '[data-testid="crawl-settings"] [data-fact="policy"]' },
    { name: 'Crawls', hash: '#/crawls', ready: `tr[data-crawl="${SECOND}"]` },
    { name: 'Sites', hash: `#/crawls/${FIRST}/sites`, ready: '[data-table="sites"] tbody td[data-col="host"]' },
    { name: 'Pages', hash: `#/crawls/${FIRST}/pages`, ready: 'h2' },
    { name: 'Page inspector', hash: `#/crawls/${FIRST}/pages?url=${encodeURIComponent(firstUrl)}`, ready: '[data-testid="page"]' },
    {
      name: 'Results',
      hash: `#/crawls/${SECOND}/results`,
      ready: '[data-testid="results-evaluate"]',
      act: async (page) => {
        await page.getByTestId('results-evaluate').click();
        await page.getByTestId('results-evaluation').waitFor({ timeout: 120_000 });
      },
    },
    {
      name: 'Partition',
      hash: `#/crawls/${FIRST}/partition`,
      ready: '[data-testid="partition-run"]',
      act: async (page) => {
        await page.getByTestId('partition-run').click();
        await page.locator('[data-testid="partition-table"], [data-testid="partition-error"]').first().waitFor({ timeout: 180_000 });
        expect(await page.getByTestId('partition-error').count()).toBe(0);
      },
    },
    { name: 'Simulate (its runs)', hash: '#/simulate', ready: 'h2' },
    { name: 'Simulate', hash: `#/simulate/${simulationId}`, ready: '[data-table="simulation-results"] tbody tr' },
    { name: 'Compare', hash: `#/compare/${FIRST}/${SECOND}`, ready: '[data-testid="compare-cards"]' },
  ];

  itWith(['metis'], 'no view scrolls sideways, and each passes the accessibility check, in light and in dark mode', async () => {
    const { page } = wb;
    const wide: string[] = [];
    const violations: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      // A page load per scheme (charts take their theme when drawn); within it, what a view
      // computed (the partition) stays, as it does for a user.
      await page.goto(wb.serve.url);
      for (const v of views()) await visit(page, v, `${v.name} (${scheme})`, wide, violations);
    }
    expect(wide).toEqual([]);
    expect(violations).toEqual([]);
    expect(wb.consoleErrors).toEqual([]);
  }, 900_000);

  /** Opens a view, lets it settle, and notes what sticks out and what axe-core finds. */
  async function visit(page: Page, v: ReturnType<typeof views>[number], name: string, wide: string[], violations: string[]) {
    await page.evaluate((h) => (location.hash = h), v.hash);
    await page.locator(v.ready).first().waitFor({ timeout: 120_000 });
    await v.act?.(page);
    await page.waitForLoadState('networkidle').catch(() => undefined);
    await page.waitForTimeout(500);
    const o = await overflow(page);
    if (o.scrollWidth > o.clientWidth) wide.push(`${name}: ${o.scrollWidth} px wide in ${o.clientWidth} (${o.past.join(', ')})`);
    for (const t of o.cut) wide.push(`${name}: a table cut off: ${t}`);
    for (const b of o.hidden) wide.push(`${name}: a button out of sight: ${b}`);
    for (const x of await axeViolations(page)) violations.push(`${name}: ${describeViolation(x)}`);
  }
});
