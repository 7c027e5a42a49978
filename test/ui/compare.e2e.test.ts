/**
 * The workbench's scenario in Debian's chromium (issue 15): a demo crawl, then "Crawl again"
 * from the workbench, which crawls the same demo web months later (revision 2) guided by the
 * first crawl's PageRank; then the two compared in the Compare view, opened from Crawls. The
 * figures shown are checked against `crawlbench compare --json` on the two files, formatted
 * here on their own; both PageRank curves and both timelines are drawn; a riser opens in the
 * Page inspector; a table saves as CSV and a chart as PNG. With UPDATE_SCREENSHOTS set, the
 * view is the README's docs/compare-view.png.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareReport, CrawlInfo, CrawlSettingsDto } from '../../core/api/contract.js';
import { crawlbench } from '../helpers/run.js';
import { httpCall, startServe, type ServeProcess } from './serve-process.js';
import { freePort, launchChromium } from './e2e-kit.js';
import { describeWith } from '../references.js';

const ARTIFACTS = new URL('../artifacts/', import.meta.url).pathname;
const DOCS = new URL('../../docs/', import.meta.url).pathname;

/** What each summary card must read, formatted here from the CLI's JSON (not by the view's code). */
function expectedCards(r: CompareReport): Record<string, string> {
  const n = (x: number) => x.toLocaleString('en-US');
  const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)} %`);
  const f3 = (x: number | null) => (x === null ? '–' : x.toFixed(3));
  const p = r.pagerank;
  return {
    'pages-a': n(r.pages.inA),
    'pages-b': n(r.pages.inB),
    'pages-both': n(r.pages.both),
    'pages-jaccard': f3(r.pages.jaccard),
    sites: `${n(r.sites.inA)} / ${n(r.sites.inB)} / ${n(r.sites.both)}`,
    'sites-jaccard': f3(r.sites.jaccard),
    'content-changed': `${n(r.common.contentChanged)} of ${n(r.common.pages)}`,
    'not-modified': `${n(r.common.notModifiedB)} in B, ${n(r.common.notModifiedA)} in A`,
    'new-links': pct(r.links.newShare),
    tau: f3(p.kendallTauB),
    rho: f3(p.spearmanRho),
    top100: pct(p.topK.find((t) => t.k === 100)!.overlap),
    top1000: pct(p.topK.find((t) => t.k === 1000)!.overlap),
    'pages-share': pct(p.pagesShareInA),
    'pagerank-share': pct(p.pageRankShareInA),
    'average-cumulative': `${f3(p.averageCumulativeA)} / ${f3(p.averageCumulativeB)}`,
  };
}

describeWith(['chromium'], 'Crawl again and Compare in the browser', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'cb-e2e-compare-'));
  const workspace = join(tmp, 'workspace');
  let serve: ServeProcess;
  let context: BrowserContext;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    // A port of this run's own for the demo webs: both revisions on it, so their URLs match.
    serve = await startServe(['--dir', workspace, '--demo-port', String(await freePort())]);
    context = await launchChromium(join(tmp, 'profile'), {
      acceptDownloads: true,
      viewport: { width: 1280, height: 800 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (m) => {
      // The browser's own ask for /favicon.ico (which serve has not) is no error of the view.
      if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) consoleErrors.push(`${m.text()} ${m.location().url}`);
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await serve?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  const call = async <T>(name: string, data: unknown[]): Promise<T> => {
    const r = await httpCall(serve.origin, serve.token, name, data);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (r.body as { data: T }).data;
  };
  const crawl = async (id: string) => (await call<CrawlInfo[]>('listCrawls', [])).find((c) => c.id === id);

  it('starts the demo web months later from "Crawl again", guided by the first crawl', async () => {
    // Quick by default; for the README's screenshot the demo's own latency and w, so that the
    // throughput timelines have more than a couple of points.
    await call('createCrawl', [process.env.UPDATE_SCREENSHOTS ? { name: 'first', demoWeb: true } : { name: 'first', demoWeb: { latencyMs: 0 }, w: 0 }]);
    await call('start', ['first']);
    await expect.poll(async () => (await crawl('first'))?.status, { timeout: 150_000, interval: 500 }).toBe('finished');

    await page.goto(serve.url);
    await page.getByRole('tab', { name: 'Crawls', exact: true }).click();
    await page.locator('tr[data-crawl="first"] [data-action="again"]').click();
    await expect.poll(() => page.getByTestId('again-note').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByTestId('demo-revision-2').isChecked()).toBe(true);
    expect(await page.locator('input[name="policy"][value="historical-pagerank-parent"]').isChecked()).toBe(true);
    expect(await page.getByTestId('history').inputValue()).toBe('first');
    expect(await page.getByTestId('name').inputValue()).toBe('first-again');
    await page.getByTestId('create').click();
    await page.getByRole('heading', { name: 'Live — first-again' }).waitFor();

    await expect.poll(async () => (await crawl('first-again'))?.historyMatched ?? 0, { timeout: 30_000 }).toBeGreaterThan(0);
    const again = (await crawl('first-again'))!;
    expect(again).toMatchObject({ policy: 'historical-pagerank-parent', demoWeb: true });
    const settings = await call<CrawlSettingsDto>('crawlSettings', ['first-again']);
    const first = await call<CrawlSettingsDto>('crawlSettings', ['first']);
    // The same web months later: its spec, revision 2, and a size of its own.
    expect(settings).toMatchObject({ historyCrawl: 'first', policy: 'historical-pagerank-parent', w: first.w, c: first.c, r: first.r, demoWeb: { ...first.demoWeb, revision: 2, webPages: expect.any(Number) } });
    expect(settings.demoWeb!.webPages).not.toBe(first.demoWeb!.webPages);
    expect(first.demoWeb?.revision).toBe(1);
    await expect.poll(async () => (await crawl('first-again'))?.status, { timeout: 150_000, interval: 500 }).toBe('finished');
  }, 360_000);

  it('compares the two from Crawls: the figures of compare --json, both curves, a riser in the inspector, CSV and PNG', async () => {
    const cli = await crawlbench(['compare', join(workspace, 'first.db'), join(workspace, 'first-again.db'), '--json', '--quiet']);
    expect(cli.code, cli.stderr).toBe(0);
    const report = JSON.parse(cli.stdout) as CompareReport;
    // The demo web months later: most pages still there, some gone, some new.
    expect(report.pages.both).toBeGreaterThan(0);
    expect(report.pages.onlyA + report.pages.onlyB).toBeGreaterThan(0);

    await page.getByRole('tab', { name: 'Crawls', exact: true }).click();
    await page.locator('tr[data-crawl="first-again"] [data-action="pick"]').check();
    await page.locator('tr[data-crawl="first"] [data-action="pick"]').check();
    await page.getByTestId('compare-picked').click();
    await page.getByRole('heading', { name: 'Compare — A: first · B: first-again' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/compare/first/first-again');
    await page.locator('[data-card="pages-a"]').waitFor({ timeout: 60_000 });

    const shown = await page.locator('[data-card]').evaluateAll((els) => Object.fromEntries(els.map((e) => [e.getAttribute('data-card'), (e as HTMLElement).innerText])));
    expect(shown).toEqual(expectedCards(report));
    expect(await page.getByTestId('compare-warning').count()).toBe(report.warnings.length);
    expect(await page.getByTestId('compare-note').count()).toBe(report.notes.length);

    const series = (name: string) =>
      page.evaluate((n) => {
        const o = window.__charts?.[n]?.getOption() as { series?: Array<{ name?: string; data?: unknown[] }> } | undefined;
        return (o?.series ?? []).map((s) => ({ name: s.name, points: s.data?.length ?? 0 }));
      }, name);
    const curves = await series('compare-curves');
    expect(curves.find((s) => s.name === 'A')?.points).toBe(report.pagerank.curveA.length);
    expect(curves.find((s) => s.name === 'B')?.points).toBe(report.pagerank.curveB.length);
    expect(report.pagerank.curveA.length).toBeGreaterThan(10);
    expect((await series('compare-throughput')).map((s) => s.name)).toEqual(['A', 'B']);
    expect((await series('compare-scatter'))[0]!.points).toBeGreaterThan(0);
    expect(await page.getByTestId('no-timeline').count()).toBe(0);

    // The figures and the four charts (the tables follow below them).
    await page.screenshot({ path: join(ARTIFACTS, 'compare.png'), fullPage: true, clip: { x: 0, y: 0, width: 1280, height: 1090 } });
    await page.screenshot({ path: join(ARTIFACTS, 'compare-full.png'), fullPage: true });
    // The README's screenshot is refreshed on request only, so a test run leaves the tree clean.
    if (process.env.UPDATE_SCREENSHOTS) copyFileSync(join(ARTIFACTS, 'compare.png'), join(DOCS, 'compare-view.png'));

    // A table as CSV (every site), a chart as PNG.
    const [csv] = await Promise.all([page.waitForEvent('download'), page.locator('[data-csv="sites"]').click()]);
    expect(csv.suggestedFilename()).toBe('compare-first-first-again-sites.csv');
    const rows = readFileSync((await csv.path())!, 'utf8').trim().split('\r\n');
    expect(rows).toHaveLength(report.perSite.length + 1);
    const [png] = await Promise.all([page.waitForEvent('download'), page.locator('[data-png="compare-curves"]').click()]);
    expect(png.suggestedFilename()).toBe('compare-first-first-again-pagerank-curves.png');
    expect(readFileSync((await png.path())!).subarray(1, 4).toString()).toBe('PNG');

    // The biggest riser, opened in B's Page inspector.
    const riser = report.pagerank.risers[0]!;
    expect(await page.locator('[data-table="risers"] tbody tr').first().locator('.url').innerText()).toBe(riser.url);
    await page.locator('[data-table="risers"] tbody tr').first().locator('[data-open="b"]').click();
    await page.getByRole('heading', { name: 'Pages — first-again' }).waitFor();
    expect(await page.getByTestId('inspect-url').inputValue()).toBe(riser.url);
    await page.getByTestId('page-title').waitFor({ timeout: 10_000 });
    expect(consoleErrors).toEqual([]);
  }, 180_000);
});
