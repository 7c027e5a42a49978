/**
 * The Partition view in Debian's chromium (issue 17): a real crawl of the demo web, partitioned
 * from the workbench with gpmetis and Zoltan PHG (and KaHyPar, where it is installed) beside
 * hashing. The run shows its progress, then draws the four charts (every series named by its
 * partitioner, with a point per K) and the table, whose hash rows equal
 * `crawlbench partition-eval --assign hash` on the same file; a METIS file is written and
 * downloaded through the server's token rules; a long run is cancelled. With
 * UPDATE_SCREENSHOTS set, the finished view is the README's docs/partition-view.png (npm run
 * screenshots takes every view, this one included, from a crawl at the demo's own latency).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { crawlbench } from '../helpers/run.js';
import { copyFixtureInto, freePort, launchChromium } from './e2e-kit.js';
import { describeWith, present, refPath } from '../references.js';
import { startServe, type ServeProcess } from './serve-process.js';

const ARTIFACTS = new URL('../artifacts/', import.meta.url).pathname;
const DOCS = new URL('../../docs/', import.meta.url).pathname;

interface ChartSeries {
  name: string;
  data: Array<[number, number]>;
}

describeWith(['chromium', 'metis', 'zoltan'], 'Partition view in the browser', () => {
  // KaHyPar is optional: where it is installed its series and rows come beside Zoltan PHG's.
  const kahypar = present('kahypar');
  const hp = kahypar ? ['HP (Zoltan PHG)', 'HP (KaHyPar)'] : ['HP (Zoltan PHG)'];
  const tmp = mkdtempSync(join(tmpdir(), 'cb-e2e-partition-'));
  const workspace = join(tmp, 'workspace');
  let serve: ServeProcess;
  let context: BrowserContext;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    // The serve process finds KaHyPar as a user's would.
    serve = await startServe(['--dir', workspace, '--demo-port', String(await freePort())], kahypar ? { env: { CRAWLBENCH_KAHYPAR: refPath('kahypar') } } : {});
    context = await launchChromium(join(tmp, 'profile'), {
      viewport: { width: 1280, height: 900 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) consoleErrors.push(`${m.text()} ${m.location().url}`);
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await serve?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  const series = (chart: string) =>
    page.evaluate((name) => ((window.__charts?.[name]?.getOption() as { series?: ChartSeries[] } | undefined)?.series ?? []).map((s) => ({ name: s.name, data: s.data })), chart);

  it('partitions a crawl of the demo web with progress, then draws its charts and table', async () => {
    // The shared finished crawl of the demo web (test/ui/e2e-kit.ts), copied in as "demo".
    await copyFixtureInto(workspace, 'demo');
    await page.goto(serve.url);
    await page.getByRole('tab', { name: 'Partition', exact: true }).click();
    await page.getByTestId('partition-crawl').selectOption('demo');
    await page.getByRole('heading', { name: 'Partition — demo' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/crawls/demo/partition');
    // The demo web has 60 sites: K up to 32 fits the site models too.
    for (const k of [2, 4, 8, 16, 32]) await page.locator(`input[data-k="${k}"]`).check();
    await page.getByTestId('partition-runs').fill('2');
    await page.getByTestId('partition-run').click();
    await page.getByTestId('partition-progress').waitFor({ timeout: 10_000 });
    await page.locator('[data-testid="partition-table"], [data-testid="partition-error"]').first().waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('partition-error').count(), await page.getByTestId('partition-error').allInnerTexts().then((t) => t.join())).toBe(0);
    expect(await page.getByTestId('partition-progress').count()).toBe(0);

    const K = [2, 4, 8, 16, 32];
    // Two levels; GP (gpmetis), the HP partitioners and hash at each; five K.
    expect(await page.locator('[data-testid="partition-table"] tbody tr').count()).toBe(2 * (2 + hp.length) * K.length);
    expect(await page.locator('tr[data-row="page-PHG-8"] td').nth(1).innerText()).toBe('HP (Zoltan PHG)');
    const volume = await series('partition-volume');
    expect(volume.map((s) => s.name)).toEqual(['page GP (gpmetis)', 'page hash', 'site GP (gpmetis)', 'site hash']);
    for (const s of volume) expect(s.data.map(([k]) => k)).toEqual(K);
    // Graph partitioning cuts far less than hashing URLs at the page level.
    for (let i = 0; i < K.length; i++) expect(volume[0]!.data[i]![1]).toBeLessThan(volume[1]!.data[i]![1]);
    const messages = await series('partition-messages');
    expect(messages.map((s) => s.name)).toEqual(['page', 'site'].flatMap((level) => [...hp.map((h) => `${level} ${h}`), `${level} hash`]));
    // Hypergraph partitioning sends fewer messages than hashing URLs at the page level.
    for (let i = 0; i < K.length; i++) expect(messages[0]!.data[i]![1]).toBeLessThan(messages[hp.length]!.data[i]![1]);
    for (const chart of ['partition-storage', 'partition-requests']) expect((await series(chart)).map((s) => s.data.length)).toEqual(Array(2 * (2 + hp.length)).fill(5));

    // The table's hash row is what the command line computes for the same crawl file.
    const cli = await crawlbench(['partition-eval', '--graph', join(workspace, 'demo.db'), '--model', 'page', '--parts', '8', '--assign', 'hash', '--json']);
    expect(cli.code, cli.stderr).toBe(0);
    const hash = JSON.parse(cli.stdout) as { volume: number; messages: number };
    const cells = await page.locator('tr[data-row="page-hash-8"] td').allInnerTexts();
    expect(cells[6]).toBe(hash.volume.toLocaleString('en-US'));
    expect(cells[7]).toBe(hash.messages.toLocaleString('en-US'));

    await page.screenshot({ path: join(ARTIFACTS, 'partition.png'), fullPage: true });
    if (process.env.UPDATE_SCREENSHOTS) copyFileSync(join(ARTIFACTS, 'partition.png'), join(DOCS, 'partition-view.png'));
    expect(consoleErrors).toEqual([]);
  }, 360_000);

  it('writes a METIS file that downloads through the token rules', async () => {
    await page.locator('button[data-export="page-metis"]').click();
    const link = page.locator('[data-testid="partition-files"] a', { hasText: 'page.graph' }).first();
    await link.waitFor({ timeout: 60_000 });
    const href = (await link.getAttribute('href'))!;
    expect(href).toBe('/exports/graph-demo/page.graph');
    const got = await page.evaluate(async (h) => {
      const r = await fetch(h);
      return { status: r.status, text: (await r.text()).split('\n').find((l) => !l.startsWith('%')) };
    }, href);
    expect(got.status).toBe(200);
    expect(got.text).toMatch(/^\d+ \d+ 011 2$/);
    // Without the token cookie (another client), the file is not served.
    expect((await fetch(`${serve.origin}${href}`)).status).toBe(401);
  }, 120_000);

  it('cancels a long partitioning', async () => {
    // The page hypergraph, 20 seeds for each of eight K: far longer than the test waits.
    for (const m of ['page', 'site', 'site-hypergraph']) await page.locator(`input[data-model="${m}"]`).uncheck();
    for (const k of [64, 128, 256]) await page.locator(`input[data-k="${k}"]`).check();
    await page.getByTestId('partition-runs').fill('20');
    await page.getByTestId('partition-run').click();
    await page.getByTestId('partition-progress').waitFor({ timeout: 10_000 });
    await page.getByTestId('partition-cancel').click();
    await page.getByTestId('partition-cancelled').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('partition-progress').count()).toBe(0);
  }, 120_000);
});
