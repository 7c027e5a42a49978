/**
 * A parallel crawl in Debian's chromium (issue 25, item 6), as a user makes one: New crawl with
 * the demo web, "Parallel" ticked with 3 workers and a hash of the hosts, content kept; Live shows the
 * Workers section, a row per worker with its pages and a line per worker in the throughput
 * chart, while the crawl runs in its own process with three `crawlbench worker` processes and
 * the embedded nats-server; when the workers have spent the page limit the merged crawl is the
 * crawl NAME.db, at its page limit as a crawl of one process would be, with the pages' content
 * its workers kept (a WARC export holds it), and Results computes its PageRank like any crawl's.
 * Resumed with a higher limit, the workers go on from their parts.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CrawlInfo, ParallelCrawlDto, StoredPageRankDto } from '../../core/api/contract.js';
import { formatNumber } from '../../renderer/lib/format.js';
import { crawlbench } from '../helpers/run.js';
import { ARTIFACTS, openWorkbench, type Workbench } from './e2e-kit.js';
import { describeWith } from '../references.js';

describeWith(['nats-server', 'chromium'], 'a parallel crawl from the workbench', () => {
  let wb: Workbench;
  let page: Page;
  const K = 3;
  /** The demo web's pages fetched at most: a small crawl, split among the workers. */
  const MAX = 300;

  beforeAll(async () => {
    wb = await openWorkbench({ name: 'parallel', viewport: { width: 1280, height: 900 } });
    page = wb.page;
  }, 60_000);
  afterAll(() => wb?.close());

  /** The fetches (responses and revisits) of the crawl's WARC export, as `crawlbench export` writes it from the workspace's file. */
  async function warcFetches(id: string): Promise<number> {
    const out = join(wb.tmp, `${id}-warc-${Date.now()}`);
    const r = await crawlbench(['export', join(wb.workspace, `${id}.db`), '--format', 'warc', '--out', out, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as { responses: number; revisits: number; warnings: string[] };
    expect(s.warnings).toEqual([]);
    return s.responses + s.revisits;
  }

  it('New crawl starts K workers by a hash of the hosts; Live shows each worker; the merged crawl opens in Results', async () => {
    await page.goto(wb.serve.url);
    await page.getByRole('heading', { name: 'New crawl' }).waitFor();
    await page.getByText('breadth-first').first().waitFor();
    await page.getByTestId('demo-web').check();
    await page.getByTestId('name').fill('par');
    await page.getByTestId('max-pages').fill(String(MAX));
    await page.getByTestId('w').fill('0');
    // Each worker keeps its pages' content; the merged crawl's WARC export holds them (below).
    await page.getByTestId('store-content').check();
    await page.getByTestId('parallel').check();
    await page.getByTestId('parallel-workers').fill(String(K));
    await page.getByTestId('assign-host-hash').check();
    await page.getByTestId('create').click();

    await page.getByRole('heading', { name: 'Live — par' }).waitFor();
    const dto = await wb.call<ParallelCrawlDto | null>('parallelCrawl', ['par']);
    expect(dto?.options).toEqual({ parts: K, model: 'site', assign: 'hash' });
    const live = page.getByTestId('parallel-live');
    await live.waitFor();
    expect(await page.getByTestId('parallel-assignment').innerText()).toMatch(new RegExp(`^${K} workers, sites by a hash of their hosts`));
    // A row per worker, each with pages of its own, and a line per worker in the throughput chart.
    const rows = page.locator('[data-testid="workers"] tbody tr');
    await expect.poll(() => rows.count(), { timeout: 60_000 }).toBe(K);
    await expect.poll(async () => (await wb.series('worker-throughput')).map((s) => s.name), { timeout: 30_000 }).toEqual([0, 1, 2].map((i) => `worker ${i}`));
    await expect.poll(async () => (await wb.series('worker-throughput')).some((s) => s.data.some(([, y]) => y > 0)), { timeout: 60_000 }).toBe(true);

    const crawl = async () => (await wb.call<CrawlInfo[]>('listCrawls', [])).find((c) => c.id === 'par');
    // Every worker spent its share of the page limit: the merged crawl ends at the limit, as a crawl of one process does.
    await expect.poll(async () => (await crawl())?.endReason?.kind, { timeout: 120_000, interval: 500 }).toBe('max-pages');
    await page.screenshot({ path: join(ARTIFACTS, 'parallel-live.png'), fullPage: true });
    const info = (await crawl())!;
    expect(info.pagesFetched).toBeGreaterThan(0);
    expect(info.pagesFetched).toBeLessThanOrEqual(MAX);
    // Each worker's row: its pages, summing to the merged crawl's.
    await expect.poll(async () => {
      const cells = await rows.evaluateAll((trs) => trs.map((tr) => Number((tr.children[1]?.textContent ?? '').replace(/\D/g, ''))));
      return cells.reduce((a, b) => a + b, 0);
    }, { timeout: 10_000 }).toBe(info.pagesFetched);
    for (let i = 0; i < K; i++) expect(Number((await rows.nth(i).locator('td').nth(1).innerText()).replace(/\D/g, ''))).toBeGreaterThan(0);
    expect(info.status).toBe('paused');
    await expect.poll(() => page.getByTestId('end-reason').innerText()).toMatch(/^reached its page limit/);

    // Results: the merged crawl, PageRank computed on it as on any crawl.
    await page.getByRole('tab', { name: 'Results', exact: true }).click();
    await page.getByRole('heading', { name: 'Results — par' }).waitFor();
    await page.getByTestId('results-no-pagerank').waitFor();
    await page.getByTestId('results-rank').click();
    await page.locator('[data-testid="results-top-pages"] tbody tr').first().waitFor({ timeout: 60_000 });
    const stored = await wb.call<StoredPageRankDto>('pageRankResult', ['par']);
    expect(stored.page.nodes).toBe(info.pagesKnown);
    expect(await page.locator('[data-testid="results-top-pages"] tbody tr a').allInnerTexts()).toEqual(stored.page.top.map((p) => p.name));
    expect(await page.locator('[data-testid="results-runs"] tbody tr[data-kind="page"]').innerText()).toContain(formatNumber(stored.page.nodes));
    expect(await warcFetches('par')).toBeGreaterThanOrEqual(info.pagesFetched);
    expect(wb.consoleErrors).toEqual([]);
  }, 240_000);

  it('resumed with a higher page limit, the workers go on from their parts up to it, and the merged crawl replaces the first', async () => {
    const before = (await wb.call<CrawlInfo[]>('listCrawls', [])).find((c) => c.id === 'par')!;
    const more = before.pagesFetched + 150;
    // The engine's start with a limit, as `crawlbench crawl --max-pages` raises a crawl's.
    await wb.call('start', ['par', { maxPages: more }]);
    const crawl = async () => (await wb.call<CrawlInfo[]>('listCrawls', [])).find((c) => c.id === 'par');
    await expect.poll(async () => (await crawl())?.status, { timeout: 120_000, interval: 500 }).toBe('paused');
    const after = (await crawl())!;
    expect(after.endReason?.kind).toBe('max-pages');
    expect(after.pagesFetched).toBeGreaterThan(before.pagesFetched);
    expect(after.pagesFetched).toBeLessThanOrEqual(more);
    await page.getByRole('tab', { name: 'Live', exact: true }).click();
    await expect.poll(() => page.getByTestId('pages').innerText()).toBe(formatNumber(after.pagesFetched));
    // The merged crawl's content replaced the first's: the new pages' bodies are in its export.
    expect(await warcFetches('par')).toBeGreaterThanOrEqual(after.pagesFetched);
    expect(wb.consoleErrors).toEqual([]);
  }, 180_000);
});
