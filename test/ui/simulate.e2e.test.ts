/**
 * The simulator in the window, in Debian's chromium (issue 18): a finished crawl of the demo
 * web (3,000 pages) replayed with three policies from the Simulate view. The run shows its
 * progress (the server slows each step a little so that it can be seen), then one curve per
 * policy equal to the engine's stored report, which equals `crawlbench simulate --json` on the
 * same file, and the results table; the measure of Cho et al.'s Crawl & Stop curves is IB,
 * chosen in the form, and each policy's curves equal the report's (as `simulate --measure
 * backlinks`). Then the server is restarted on the same workspace and the
 * run, reopened from the list of kept runs, shows the same curves.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulationDto, SimulationReportDto } from '../../core/api/contract.js';
import { crawlbench } from '../helpers/run.js';
import { ARTIFACTS, FIXTURE_ID, freePort, openWorkbench, type Workbench } from './e2e-kit.js';
import { httpCall, startServe, type ServeProcess } from './serve-process.js';
import { describeWith } from '../references.js';

const POLICIES = ['breadth-first', 'opic', 'omniscient'];

describeWith(['chromium'], 'Simulate view in the browser', () => {
  let wb: Workbench;
  let again: ServeProcess | null = null;

  beforeAll(async () => {
    wb = await openWorkbench({ name: 'simulate', fixture: true, serveArgs: ['--simulation-throttle', '30ms'] });
  }, 300_000);

  afterAll(async () => {
    await again?.stop();
    await wb?.close();
  });

  let runId = '';
  let drawn: Array<{ name: string; data: Array<[number, number]> }> = [];

  it('runs a simulation of a crawl from the view with its progress, then draws its curves and table', async () => {
    const { page } = wb;
    await page.goto(wb.serve.url);
    await page.getByRole('tab', { name: 'Simulate' }).click();
    await page.waitForFunction(() => location.hash === '#/simulate');
    const source = page.getByTestId('simulate-source');
    await expect.poll(() => source.inputValue()).toBe(`crawl:${FIXTURE_ID}`);
    for (const p of POLICIES) expect(await page.locator(`input[data-policy="${p}"]`).isChecked()).toBe(true);
    await page.getByLabel('w: wait between connections (s)').fill('1');
    await page.getByLabel('c: pages per connection').fill('2');
    await page.getByTestId('simulate-measure').selectOption('backlinks');
    await page.getByTestId('simulate-hot-threshold').fill('5');
    await page.getByTestId('simulate-run').click();

    await page.waitForFunction(() => /^#\/simulate\/sim-/.test(location.hash));
    runId = await page.evaluate(() => location.hash.slice('#/simulate/'.length));
    const progress = page.getByTestId('simulate-progress');
    await progress.waitFor();
    await expect.poll(() => page.getByTestId('simulate-step').textContent(), { timeout: 30_000 }).toMatch(/\(policy [123] of 3\): [\d,]+ of [\d,]+ pages/);
    const fraction = Number(await page.locator('[data-testid="simulate-progress"] progress').getAttribute('value'));
    expect(fraction).toBeGreaterThanOrEqual(0);
    expect(fraction).toBeLessThan(1);

    await page.locator('[data-chart="simulation-curves"]').waitFor({ timeout: 120_000 });
    await expect.poll(async () => (await wb.series('simulation-curves')).length).toBe(3);
    expect(await progress.count()).toBe(0);

    const sim = await wb.call<SimulationDto>('getSimulation', [runId]);
    expect(sim.state).toBe('finished');
    const report = sim.report!;
    drawn = await wb.series('simulation-curves');
    expect(drawn.map((s) => s.name)).toEqual(POLICIES);
    drawn.forEach((s, i) => {
      const curve = report.policies[i]!.curve;
      expect(s.data).toHaveLength(curve.length);
      s.data.forEach(([x, y], k) => {
        expect(x).toBeCloseTo(curve[k]!.fractionPages * 100, 9);
        expect(y).toBeCloseTo(curve[k]!.cumulativePageRank * 100, 9);
      });
    });

    // The stored report is the command line's on the same file.
    const cli = await crawlbench(['simulate', '--graph', join(wb.workspace, `${FIXTURE_ID}.db`), '--policy', POLICIES.join(','), '--w', '1s', '--c', '2', '--measure', 'backlinks', '--hot-threshold', '5', '--json']);
    expect(cli.code, cli.stderr).toBe(0);
    const numbers = (r: SimulationReportDto) => ({ ...r, graph: undefined, loadSeconds: undefined, policies: r.policies.map((p) => ({ ...p, wallSeconds: undefined })) });
    expect(numbers(report)).toEqual(numbers(JSON.parse(cli.stdout) as SimulationReportDto));

    // The table: a row per policy with the report's figures.
    const rows = page.locator('[data-table="simulation-results"] tbody tr');
    expect(await rows.count()).toBe(3);
    for (const [i, p] of report.policies.entries()) {
      const row = rows.nth(i);
      expect(await row.locator('[data-col="policy"]').textContent()).toBe(p.policy);
      expect(await row.locator('[data-col="average_cumulative_pagerank"]').textContent()).toBe(p.averageCumulativePageRank.toLocaleString('en-US', { maximumFractionDigits: 3 }));
      expect(await row.locator('[data-col="pages_fetched"]').textContent()).toBe(p.pagesFetched.toLocaleString('en-US'));
    }
    expect(await page.getByTestId('simulate-summary').textContent()).toContain(`${report.pages.toLocaleString('en-US')} pages`);
    // Cho et al.'s models on IB per policy: the curves and the table, the report's.
    expect(report.measure).toMatchObject({ name: 'backlinks', g: 5 });
    expect(await page.getByTestId('simulate-cho-measure').textContent()).toContain(`hot pages: IB (backlinks) at least 5 (${report.measure.hotPages.toLocaleString('en-US')} of`);
    await expect.poll(async () => (await wb.series('simulation-crawl-and-stop')).length).toBe(4);
    const stop = await wb.series('simulation-crawl-and-stop');
    expect(stop.map((s) => s.name)).toEqual([...POLICIES, 'random order']);
    report.policies.forEach((p, i) => {
      expect(stop[i]!.data).toHaveLength(p.cho!.curve.length);
      stop[i]!.data.forEach(([x, y], k) => {
        expect(x).toBeCloseTo(p.cho!.curve[k]!.fractionPages * 100, 9);
        expect(y).toBeCloseTo(p.cho!.curve[k]!.crawlAndStop * 100, 9);
      });
    });
    const hot = await wb.series('simulation-hot-fetched');
    hot.slice(0, 3).forEach((s, i) => s.data.forEach(([, y], k) => expect(y).toBeCloseTo(report.policies[i]!.cho!.curve[k]!.hotFetched! * 100, 9)));
    const cho = page.locator('[data-table="simulation-cho"] tbody tr');
    expect(await cho.count()).toBe(3);
    const tenth = report.policies[2]!.cho!.crawlAndStop.find((c) => c.percent === 10)!;
    expect(await cho.nth(2).locator('[data-col="crawl_and_stop_10pct"]').textContent()).toBe(`${(tenth.share * 100).toLocaleString('en-US', { maximumFractionDigits: 1 })} %`);
    await page.screenshot({ path: join(ARTIFACTS, 'simulate-view.png'), fullPage: true });
    // The omniscient reference gathers PageRank fastest, as in docs/results.md.
    const avg = Object.fromEntries(report.policies.map((p) => [p.policy, p.averageCumulativePageRank]));
    expect(avg.omniscient).toBeGreaterThan(avg['breadth-first']!);
  }, 240_000);

  it('reopens the kept run from the list after the server restarts, with the same curves', async () => {
    const { page } = wb;
    expect(runId).not.toBe('');
    // Leave the page before its server goes, so its socket does not report a lost connection.
    await page.goto('about:blank');
    await wb.serve.stop();
    again = await startServe(['--dir', wb.workspace, '--demo-port', String(await freePort())]);
    const list = await httpCall(again.origin, again.token, 'listSimulations', []);
    expect((list.body as { data: SimulationDto[] }).data.map((s) => [s.simulationId, s.state])).toEqual([[runId, 'finished']]);

    await page.goto(again.url);
    await page.getByRole('tab', { name: 'Simulate' }).click();
    const link = page.locator(`[data-run="${runId}"] a`);
    await link.waitFor();
    expect(await page.locator(`[data-run="${runId}"]`).textContent()).toContain(`crawl ${FIXTURE_ID}`);
    await link.click();
    await page.waitForFunction((id) => location.hash === `#/simulate/${id}`, runId);
    await expect.poll(async () => (await wb.series('simulation-curves')).length).toBe(3);
    expect(await wb.series('simulation-curves')).toEqual(drawn);
    expect(await page.locator('[data-table="simulation-results"] tbody tr').count()).toBe(3);
    expect(wb.consoleErrors).toEqual([]);
  }, 120_000);
});
