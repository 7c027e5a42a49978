/**
 * The README's screenshots, one per view, from a real crawl of the demo web:
 *
 *   npm run screenshots [-- --out docs/views --dark]
 *
 * Starts `crawlbench serve` on a new workspace, crawls the demo web at its own latency and w
 * (so that the timelines have points), computes its PageRank, crawls its revision 2 guided by
 * it (Crawl again), runs a small simulation and a partitioning, then opens every view in
 * Debian's chromium at 1280x800 and saves it as OUT/<view>.png. Takes a few minutes.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import type { CrawlInfo, CrawlSettingsDto } from '../core/api/contract.js';
import { serve, type Served } from './serve.js';

const CHROMIUM = '/usr/bin/chromium';

interface Shot {
  /** The file name, without .png. */
  name: string;
  hash: string;
  /** What shows the view is filled in. */
  ready: string;
  /** Steps a user would take on the view before it is shot. */
  act?: (page: Page) => Promise<void>;
  /** The window only (a view with a sticky bar, which a full-page shot draws mid-page). */
  windowOnly?: boolean;
}

async function waitFor(what: string, check: () => Promise<boolean>, seconds: number): Promise<void> {
  const end = Date.now() + seconds * 1000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function crawlToTheEnd(s: Served, id: string, req: Record<string, unknown>): Promise<void> {
  await s.call('createCrawl', [{ name: id, ...req }]);
  await s.call('start', [id]);
  process.stdout.write(`crawling ${id} …\n`);
  await waitFor(`${id} to finish`, async () => (await s.call<CrawlInfo[]>('listCrawls', [])).find((c) => c.id === id)?.status === 'finished', 600);
}

/** The crawls the views show: the demo web, then the same web months later guided by it. */
async function prepareWorkspace(s: Served): Promise<{ firstUrl: string; simulationId: string | null }> {
  await crawlToTheEnd(s, 'demo', { demoWeb: true });
  await s.call('runPageRank', ['demo']);
  await crawlToTheEnd(s, 'demo-later', { demoWeb: { revision: 2 }, policy: 'historical-pagerank-parent', historyCrawl: 'demo' });
  const seed = (await s.call<CrawlSettingsDto>('crawlSettings', ['demo'])).seeds[0]!;
  const firstUrl = (await s.call<{ url: string } | null>('getPage', ['demo', seed]))?.url ?? seed;
  let simulationId: string | null = null;
  try {
    const started = await s.call<{ simulationId: string }>('startSimulation', [{ source: { kind: 'crawl', id: 'demo' }, policies: ['breadth-first', 'backlink-count', 'opic', 'larger-sites-first'] }]);
    simulationId = started.simulationId;
    await waitFor('the simulation', async () => (await s.call<Array<{ id?: string; simulationId?: string; state?: string }>>('listSimulations', [])).some((r) => (r.id ?? r.simulationId) === simulationId && (r.state ?? 'finished') === 'finished'), 600);
  } catch (err) {
    process.stderr.write(`no simulation for the Simulate view: ${(err as Error).message}\n`);
  }
  return { firstUrl, simulationId };
}

function shots(firstUrl: string, simulationId: string | null): Shot[] {
  return [
    { name: 'new-crawl', hash: '#/new', ready: 'h2#new-title', windowOnly: true },
    { name: 'live', hash: '#/crawls/demo-later/live', ready: '[data-testid="crawl-settings"] [data-fact="policy"]' },
    { name: 'crawls', hash: '#/crawls', ready: 'tr[data-crawl="demo"]' },
    { name: 'sites', hash: '#/crawls/demo/sites', ready: '[data-table="sites"] tbody td[data-col="host"]' },
    { name: 'pages', hash: '#/crawls/demo/pages?sort=pagerank', ready: '.page-results table tbody tr' },
    { name: 'page-inspector', hash: `#/crawls/demo/pages?url=${encodeURIComponent(firstUrl)}`, ready: '[data-testid="page"]' },
    {
      name: 'results',
      hash: '#/crawls/demo/results',
      ready: '[data-testid="results-evaluate"]',
      act: async (page) => {
        await page.getByTestId('results-evaluate').click();
        await page.getByTestId('results-evaluation').waitFor({ timeout: 300_000 });
      },
    },
    { name: 'compare', hash: '#/compare/demo/demo-later', ready: '[data-testid="compare-cards"]' },
    {
      name: 'partition',
      hash: '#/crawls/demo/partition',
      ready: 'h2',
      act: async (page) => {
        await page.getByTestId('partition-runs').fill('2');
        await page.getByTestId('partition-run').click();
        await page.locator('[data-testid="partition-table"], [data-testid="partition-error"]').first().waitFor({ timeout: 600_000 });
      },
    },
    { name: 'simulate', hash: simulationId ? `#/simulate/${encodeURIComponent(simulationId)}` : '#/simulate', ready: simulationId ? '[data-chart]' : 'h2' },
  ];
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string', default: 'docs/views' }, dark: { type: 'boolean', default: false }, only: { type: 'string' } } });
  const out = resolve(values.out!);
  mkdirSync(out, { recursive: true });
  const tmp = mkdtempSync(join(tmpdir(), 'cb-screenshots-'));
  const s = await serve(join(tmp, 'workspace'));
  const context = await chromium.launchPersistentContext(join(tmp, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    viewport: { width: 1280, height: 800 },
    colorScheme: values.dark ? 'dark' : 'light',
  });
  try {
    const { firstUrl, simulationId } = await prepareWorkspace(s);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(s.url);
    for (const shot of shots(firstUrl, simulationId)) {
      if (values.only && !values.only.split(',').includes(shot.name)) continue;
      await page.evaluate(`location.hash = ${JSON.stringify(shot.hash)}`);
      await page.reload();
      await page.locator(shot.ready).first().waitFor({ timeout: 60_000 });
      await shot.act?.(page);
      await page.waitForLoadState('networkidle').catch(() => undefined);
      await page.waitForTimeout(500);
      const file = join(out, `${shot.name}.png`);
      await page.screenshot({ path: file, fullPage: !shot.windowOnly });
      process.stdout.write(`${file}\n`);
    }
  } finally {
    await context.close();
    await s.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((err: Error) => {
  process.stderr.write(`screenshots: ${err.message}\n`);
  process.exit(1);
});
