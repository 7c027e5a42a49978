/**
 * The Live charts come from the timeline stored with the crawl: a reload during a crawl
 * reattaches to it with its history from 0, and a finished crawl reopened later shows its whole
 * timeline, x from 0 to the crawl's duration (Debian's chromium against `crawlbench serve`).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlInfo, Timeline } from '../../core/api/contract.js';
import { httpCall, startServe, type ServeProcess } from './serve-process.js';
import { describeWith } from '../references.js';
import { launchChromium } from './e2e-kit.js';


describeWith(['chromium'], 'Live draws the stored timeline', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'cb-e2e-tl-'));
  let serve: ServeProcess;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    serve = await startServe(['--dir', join(tmp, 'workspace'), '--demo-port', '0']);
    context = await launchChromium(join(tmp, 'profile'), {
      viewport: { width: 1280, height: 800 },
    });
    page = context.pages()[0] ?? (await context.newPage());
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await serve?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  const call = async <T>(name: string, data: unknown[]): Promise<T> => ((await httpCall(serve.origin, serve.token, name, data)).body as { data: T }).data;
  /** The x values the throughput chart draws. */
  const xs = () =>
    page.evaluate(() => {
      const option = window.__charts?.throughput?.getOption() as { series?: Array<{ data?: Array<[number, number]> }> } | undefined;
      return (option?.series?.[0]?.data ?? []).map((p) => p[0]);
    });
  const liveUrl = (id: string) => `${serve.origin}/#/crawls/${id}/live`;

  it('reattaches to a running crawl after a reload with its history from 0, and shows a reopened crawl whole', async () => {
    // 300 pages on 30 sites, 0.3 s between connections to a site, 4 at a time: a crawl of about 20 s.
    await call('createCrawl', [{ name: 'tl', demoWeb: { latencyMs: 0, pages: 300, sites: 30 }, w: 300, c: 1, r: 4 }]);
    await call('start', ['tl']);
    await page.goto(serve.url);
    await page.goto(liveUrl('tl'));
    await page.getByRole('heading', { name: 'Live — tl' }).waitFor();
    await expect.poll(async () => (await xs()).length, { timeout: 30_000 }).toBeGreaterThan(6);

    await page.reload();
    await page.getByRole('heading', { name: 'Live — tl' }).waitFor();
    await expect.poll(async () => (await xs()).length, { timeout: 10_000 }).toBeGreaterThan(6);
    const afterReload = await xs();
    expect(afterReload[0]!).toBeLessThan(2);
    // Still attached: new samples keep coming after the reload.
    await expect.poll(async () => Math.max(...(await xs())), { timeout: 10_000 }).toBeGreaterThan(Math.max(...afterReload));

    await expect.poll(async () => (await call<CrawlInfo[]>('listCrawls', [])).find((c) => c.id === 'tl')?.status, { timeout: 180_000, interval: 1000 }).toBe('finished');
    const stored = await call<Timeline>('timeline', ['tl', 2000]);
    const duration = stored.points[stored.points.length - 1]!.t;

    // Reopened later, in a fresh page: the whole history, from 0 to the crawl's duration.
    const fresh = await context.newPage();
    await page.close();
    page = fresh;
    await page.goto(serve.url);
    await page.goto(liveUrl('tl'));
    await page.getByRole('heading', { name: 'Live — tl' }).waitFor();
    await expect.poll(async () => (await xs()).length, { timeout: 10_000 }).toBeGreaterThan(6);
    const whole = await xs();
    expect(whole[0]!).toBeLessThan(2);
    expect(whole[whole.length - 1]!).toBeCloseTo(duration, 0);
    const axisMin = await page.evaluate(() => (window.__charts?.throughput?.getOption() as { xAxis?: Array<{ min?: number }> }).xAxis?.[0]?.min);
    expect(axisMin).toBe(0);
  }, 240_000);
});
