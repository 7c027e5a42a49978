/**
 * The Results view in Debian's chromium on the shared finished demo crawl (with its stored
 * PageRank): reached from Crawls, it shows the stored run's top pages at once; the evaluation
 * shows its progress bar, then draws the cumulative PageRank curve beside the best order and
 * random with the values `crawlbench eval --json` computes on the same file, Kendall's tau as
 * the CLI's and the Crawl & Stop rows; every chart has its PNG and CSV buttons, and a chart's
 * CSV downloaded holds the series drawn. Evaluated against Cho et al.'s IB with a hot threshold,
 * it shows Crawl & Stop with and without threshold as `crawlbench eval --measure backlinks
 * --hot-threshold G --json` computes them; a similarity without a query is refused at its field.
 * PageRank computed again shows its progress and times.
 * Live's throughput chart labels bytes/s in the unit its largest value needs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationDto, StoredPageRankDto } from '../../core/api/contract.js';
import { byteRateUnit } from '../../renderer/lib/chart-units.js';
import { formatNumber } from '../../renderer/lib/format.js';
import { crawlbench } from '../helpers/run.js';
import { ARTIFACTS, FIXTURE_ID, openWorkbench, type Workbench } from './e2e-kit.js';
import { describeWith } from '../references.js';

declare global {
  interface Window {
    /** Every text the progress line showed while the test watched. */
    __progressSeen?: string[];
  }
}

/** Records every text of the progress line from now on (a fast computation shows it only briefly). */
async function watchProgress(page: Page): Promise<void> {
  await page.evaluate(() => {
    window.__progressSeen = [];
    const look = () => {
      const el = document.querySelector('[data-testid="results-progress"]');
      if (el && el.querySelector('progress')) window.__progressSeen!.push(el.textContent ?? '');
    };
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
  });
}

function parseCsv(text: string): string[][] {
  return text.trimEnd().split('\r\n').map((line) => line.split(','));
}

describeWith(['chromium'], 'Results view in the browser', () => {
  let wb: Workbench;
  let page: Page;
  let ev: EvaluationDto;

  beforeAll(async () => {
    wb = await openWorkbench({ name: 'results', fixture: true });
    page = wb.page;
    const out = await crawlbench(['eval', join(wb.workspace, `${FIXTURE_ID}.db`), '--json']);
    expect(out.code, out.stderr).toBe(0);
    ev = JSON.parse(out.stdout) as EvaluationDto;
  }, 300_000);
  afterAll(() => wb?.close());

  it("opens from Crawls with the stored PageRank's top pages at once", async () => {
    await page.goto(wb.serve.url);
    await page.evaluate(() => (location.hash = '#/crawls'));
    await page.locator(`tr[data-crawl="${FIXTURE_ID}"] a[data-action="results"]`).click();
    await page.getByRole('heading', { name: `Results — ${FIXTURE_ID}` }).waitFor();
    const stored = await wb.call<StoredPageRankDto>('pageRankResult', [FIXTURE_ID]);
    const firstPage = page.locator('[data-testid="results-top-pages"] tbody tr').first();
    await firstPage.waitFor();
    expect(await page.locator('[data-testid="results-top-pages"] tbody tr a').allInnerTexts()).toEqual(stored.page.top.map((p) => p.name));
    expect(await page.locator('[data-testid="results-top-sites"] tbody tr td:nth-child(2) a').allInnerTexts()).toEqual(stored.site!.top.map((s) => s.name));
    expect(await page.locator('[data-testid="results-runs"] tbody tr[data-kind="page"]').innerText()).toContain(formatNumber(stored.page.nodes));
    expect(await page.locator('[data-testid="results-no-evaluation"]').count()).toBe(1);
  });

  it("evaluates with a progress bar, then draws the curve, tau and Crawl & Stop as the CLI computes them on the same file", async () => {
    await watchProgress(page);
    await page.getByTestId('results-evaluate').click();
    await page.getByTestId('results-evaluation').waitFor();
    const seen = await page.evaluate(() => window.__progressSeen ?? []);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]).toMatch(/^Evaluation: /);

    await expect.poll(async () => (await wb.series('results-curve')).length).toBe(3);
    const curve = await wb.series('results-curve');
    expect(curve.map((s) => s.name)).toEqual(['this crawl', 'best order (by PageRank)', 'random order']);
    const expected = [ev.curve.map((p) => [p.fractionPages, p.cumulativePageRank]), ev.curve.map((p) => [p.fractionPages, p.upperBound]), ev.curve.map((p) => [p.fractionPages, p.random])];
    curve.forEach((s, k) => {
      expect(s.data).toHaveLength(ev.curve.length);
      s.data.forEach(([x, y], i) => {
        expect(x).toBeCloseTo(expected[k]![i]![0]! * 100, 9);
        expect(y).toBeCloseTo(expected[k]![i]![1]! * 100, 9);
      });
    });
    expect(ev.curve.length).toBeGreaterThan(100);

    expect(await page.getByTestId('results-tau').innerText()).toBe(formatNumber(ev.kendallTau, 4));
    expect(await page.getByTestId('results-average').innerText()).toBe(`${formatNumber(ev.averageCumulativePageRank * 100, 1)} %`);
    expect(await page.getByTestId('results-upper').innerText()).toBe(`${formatNumber(ev.upperBoundAverage * 100, 1)} %`);
    const rows = page.locator('[data-testid="results-crawl-and-stop"] tbody tr');
    expect(await rows.count()).toBe(ev.crawlAndStop.length);
    for (const [i, r] of ev.crawlAndStop.entries()) {
      const cells = await rows.nth(i).locator('td').allInnerTexts();
      expect(cells.slice(0, 3)).toEqual([`${r.percent} %`, formatNumber(r.k), `${formatNumber(r.share * 100, 1)} %`]);
    }
    await page.screenshot({ path: join(ARTIFACTS, 'results-view.png'), fullPage: true });
    const pagesFor = await page.locator('[data-testid="results-pages-for"] tbody tr td:nth-child(2)').allInnerTexts();
    expect(pagesFor).toEqual(ev.pagesForPageRank.map((r) => (r.fractionPages === null ? '–' : `${formatNumber(r.fractionPages * 100, 1)} % (${formatNumber(Math.round(r.fractionPages * ev.pagesFetched))} pages)`)));
  });

  it('has PNG and CSV buttons on every chart, and a CSV downloaded holds the series drawn', async () => {
    const charts = page.locator('figure.chart');
    expect(await charts.count()).toBe(4);
    for (const name of await charts.evaluateAll((els) => els.map((e) => e.getAttribute('data-chart')!))) {
      await expect.poll(() => page.locator(`button[data-png="${name}"]`).count()).toBe(1);
      expect(await page.locator(`button[data-csv="${name}"]`).count()).toBe(1);
      expect(await page.locator(`button[data-png="${name}"]`).getAttribute('aria-label')).toMatch(/PNG/);
    }

    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('button[data-csv="results-curve"]').click()]);
    expect(download.suggestedFilename()).toBe(`results-${FIXTURE_ID}-cumulative-pagerank.csv`);
    const csv = parseCsv(readFileSync((await download.path())!, 'utf8'));
    const curve = await wb.series('results-curve');
    expect(csv[0]).toEqual(['pages fetched (%)', ...curve.map((s) => s.name)]);
    expect(csv.slice(1).map((r) => r.map(Number))).toEqual(curve[0]!.data.map(([x], i) => [x, ...curve.map((s) => s.data[i]![1])]));

    const [png] = await Promise.all([page.waitForEvent('download'), page.locator('button[data-png="results-crawl-and-stop"]').click()]);
    expect(png.suggestedFilename()).toBe(`results-${FIXTURE_ID}-crawl-and-stop.png`);
    expect(readFileSync((await png.path())!).subarray(1, 4).toString()).toBe('PNG');
  });

  it("evaluates against IB with a hot threshold as `crawlbench eval --measure backlinks` does, and refuses a similarity without a query at its field", async () => {
    const out = await crawlbench(['eval', join(wb.workspace, `${FIXTURE_ID}.db`), '--measure', 'backlinks', '--hot-threshold', '5', '--json']);
    expect(out.code, out.stderr).toBe(0);
    const ib = JSON.parse(out.stdout) as EvaluationDto;
    expect(ib.threshold.hotPages).toBeGreaterThan(0);

    await page.getByTestId('results-measure').selectOption('similarity');
    await page.getByTestId('results-evaluate').click();
    const query = page.getByTestId('results-query');
    await expect.poll(() => query.getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('label', { has: query }).locator('.field-error').innerText()).toBe('The similarity measure needs a query: the words pages are scored against');

    await page.getByTestId('results-measure').selectOption('backlinks');
    await page.getByTestId('results-hot-threshold').fill('5');
    await page.getByTestId('results-evaluate').click();
    const rated = page.getByTestId('results-rated');
    await expect.poll(() => rated.innerText(), { timeout: 60_000 }).toMatch(/rated against IB \(backlinks\): distinct pages linking to the page/);
    expect(await rated.innerText()).toContain('Hot pages: IB (backlinks) at least 5.');
    expect(await page.locator('.field-error').count()).toBe(0);
    const stop = await page.locator('[data-testid="results-crawl-and-stop"] tbody tr td:nth-child(3)').allInnerTexts();
    expect(stop).toEqual(ib.crawlAndStop.map((r) => `${formatNumber(r.share * 100, 1)} %`));
    expect(await page.locator('[data-testid="results-threshold"] caption').innerText()).toContain(`the ${formatNumber(ib.threshold.hotPages)} hot pages (IB (backlinks) at least 5)`);
    const hot = await page.locator('[data-testid="results-threshold"] tbody tr td:nth-child(2)').allInnerTexts();
    expect(hot).toEqual(ib.threshold.fetched.map((t) => (t.share === null ? '–' : `${formatNumber(t.share * 100, 1)} %`)));
    expect(await page.getByTestId('results-tau').innerText()).toBe(formatNumber(ib.kendallTau, 4));

    // Cho's curves drawn: Crawl & Stop and the hot pages fetched, at the engine's points.
    await expect.poll(async () => (await wb.series('results-cho')).map((x) => x.name), { timeout: 30_000 }).toEqual(['Crawl & Stop', 'Crawl & Stop with Threshold', 'random order']);
    const cho = await wb.series('results-cho');
    cho[0]!.data.forEach(([x, y], i) => {
      expect(x).toBeCloseTo(ib.choCurve[i]!.fractionPages * 100, 9);
      expect(y).toBeCloseTo(ib.choCurve[i]!.crawlAndStop * 100, 9);
    });
    cho[1]!.data.forEach(([, y], i) => expect(y).toBeCloseTo(ib.choCurve[i]!.hotFetched! * 100, 9));
    expect((await wb.series('results-curve')).map((x) => x.name)).toContain('best order (by IB (backlinks))');
    await page.screenshot({ path: join(ARTIFACTS, 'results-view-ib.png'), fullPage: true });
  });

  it('computes PageRank again with its progress, then shows the new run with its times', async () => {
    await watchProgress(page);
    const before = await wb.call<StoredPageRankDto>('pageRankResult', [FIXTURE_ID]);
    await page.getByTestId('results-rank').click();
    await expect.poll(async () => (await wb.call<StoredPageRankDto>('pageRankResult', [FIXTURE_ID])).page.runId, { timeout: 60_000 }).toBeGreaterThan(before.page.runId);
    await expect.poll(() => page.locator('[data-testid="results-runs"] tbody tr[data-kind="page"] td').count()).toBe(9);
    const seen = await page.evaluate(() => window.__progressSeen ?? []);
    expect(seen.some((t) => /^PageRank: /.test(t))).toBe(true);
    const cells = await page.locator('[data-testid="results-runs"] tbody tr[data-kind="page"] td').allInnerTexts();
    for (const t of cells.slice(6)) expect(t).toMatch(/^[\d.,]+ (ms|s)$/);
  });

  it("labels Live's byte rate in the unit its largest value needs, with PNG and CSV on each chart", async () => {
    await page.evaluate((id) => (location.hash = `#/crawls/${id}/live`), FIXTURE_ID);
    await expect.poll(async () => (await wb.series('throughput'))[1]?.data.length ?? 0).toBeGreaterThan(2);
    const bytes = (await wb.series('throughput'))[1]!.data.map((p) => p[1]);
    const axis = await page.evaluate(() => (window.__charts?.throughput?.getOption() as { yAxis: Array<{ name: string }> }).yAxis[1]!.name);
    expect(axis).toBe(byteRateUnit(Math.max(...bytes)).name);
    expect(axis).toMatch(/^(KB|MB)\/s$/);
    for (const name of ['throughput', 'connections', 'queue']) {
      expect(await page.locator(`button[data-png="${name}"]`).count()).toBe(1);
      expect(await page.locator(`button[data-csv="${name}"]`).count()).toBe(1);
    }
    // The fixture's policy (breadth-first) keeps no PageRank estimate: no empty chart, a line that says so.
    expect(await page.locator('button[data-png="pagerank"]').count()).toBe(0);
    expect(await page.getByTestId('pagerank-none').innerText()).toMatch(/breadth-first keeps no PageRank estimate/);
    expect(wb.consoleErrors).toEqual([]);
  });
});
