/**
 * The workbench end to end in browser mode: Debian's chromium, driven by playwright-core,
 * against `crawlbench serve`. Creates and watches a demo crawl from the UI, pauses and
 * resumes it (checking the demo web's request log goes quiet), reopens it, and shows a
 * hostile page title as text.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestWebServer } from '../../core/testweb/server.js';
import { XSS_TITLE, xssWeb } from '../api/contract-suite.js';
import { httpCall, startServe, type ServeProcess } from './serve-process.js';
import { describeWith } from '../references.js';
import { launchChromium } from './e2e-kit.js';

const ARTIFACTS = new URL('../artifacts/', import.meta.url).pathname;
const DOCS = new URL('../../docs/', import.meta.url).pathname;


describeWith(['chromium'], 'workbench in the browser', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'cb-e2e-'));
  const demoLog = join(tmp, 'demo-requests.ndjson');
  let serve: ServeProcess;
  let context: BrowserContext;
  let page: Page;
  let xss: TestWebServer;
  let xssPort = 0;
  const dialogs: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    xss = new TestWebServer(xssWeb(), { port: 0, timeFactor: 0.2 });
    xssPort = await xss.start();
    serve = await startServe(['--dir', join(tmp, 'workspace'), '--demo-log', demoLog]);
    context = await launchChromium(join(tmp, 'profile'), {
      viewport: { width: 1280, height: 800 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await serve?.stop();
    await xss?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  const demoRequests = () => (existsSync(demoLog) ? readFileSync(demoLog, 'utf8').split('\n').filter(Boolean).length : 0);
  const pagesShown = async () => Number((await page.getByTestId('pages').innerText()).replace(/\D/g, '') || 0);
  const throughputPoints = () =>
    page.evaluate(() => {
      const option = window.__charts?.throughput?.getOption() as { series?: Array<{ data?: unknown[] }> } | undefined;
      return option?.series?.[0]?.data?.length ?? 0;
    });

  it('refuses the API and the page without the token', async () => {
    expect((await fetch(`${serve.origin}/`)).status).toBe(401);
    expect((await httpCall(serve.origin, null, 'listCrawls', [])).status).toBe(401);
    expect((await httpCall(serve.origin, 'not-the-token', 'listCrawls', [])).status).toBe(401);
    expect((await httpCall(serve.origin, serve.token, 'listCrawls', [])).status).toBe(200);
  });

  it('creates a demo crawl from the UI, watches it, pauses, resumes, finishes and reopens it', async () => {
    await page.goto(serve.url);
    await page.getByRole('heading', { name: 'New crawl' }).waitFor();
    await page.getByText('breadth-first').first().waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'new-crawl.png'), fullPage: true });

    await page.getByTestId('demo-web').check();
    await page.getByTestId('name').fill('demo1');
    // Five requests a connection at the demo's w (50 ms): a crawl of some 30 s, time enough to pause mid-crawl.
    await page.getByTestId('w').fill('0.05');
    await page.getByTestId('c').fill('5');
    await page.getByTestId('create').click();
    await page.getByRole('heading', { name: 'Live — demo1' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/crawls/demo1/live');

    await expect.poll(pagesShown, { timeout: 20_000 }).toBeGreaterThan(0);
    const firstCount = await pagesShown();
    const firstPoints = await throughputPoints();
    await expect.poll(pagesShown, { timeout: 20_000 }).toBeGreaterThan(firstCount);
    await expect.poll(throughputPoints, { timeout: 20_000 }).toBeGreaterThan(Math.max(firstPoints, 1));

    await page.getByTestId('pause').click();
    await expect.poll(() => page.getByTestId('status').innerText(), { timeout: 30_000 }).toBe('paused');
    const before = demoRequests();
    await new Promise((r) => setTimeout(r, 3000));
    expect(demoRequests()).toBe(before);
    const pausedAt = await pagesShown();

    await page.getByTestId('resume').click();
    await expect.poll(() => page.getByTestId('status').innerText(), { timeout: 10_000 }).toBe('running');
    await expect.poll(() => demoRequests(), { timeout: 10_000 }).toBeGreaterThan(before);
    // A screenshot with some history in the charts (for the README).
    await expect.poll(throughputPoints, { timeout: 60_000 }).toBeGreaterThan(10);
    await page.screenshot({ path: join(ARTIFACTS, 'live.png'), fullPage: true });
    await expect.poll(() => page.getByTestId('status').innerText(), { timeout: 180_000, interval: 1000 }).toBe('finished');
    expect(await pagesShown()).toBeGreaterThan(pausedAt);
    await page.screenshot({ path: join(ARTIFACTS, 'live-finished.png'), fullPage: true });
    mkdirSync(DOCS, { recursive: true });
    // The README's screenshot is refreshed on request only, so a test run leaves the tree clean.
    if (process.env.UPDATE_SCREENSHOTS) copyFileSync(join(ARTIFACTS, 'live.png'), join(DOCS, 'live-view.png'));

    await page.getByRole('tab', { name: 'Crawls', exact: true }).click();
    const row = page.locator('tr[data-crawl="demo1"]');
    await expect.poll(() => row.locator('td').nth(1).innerText()).toBe('finished');
    await page.getByRole('tab', { name: 'New crawl', exact: true }).click();
    await page.getByRole('tab', { name: 'Crawls', exact: true }).click();
    await row.locator('[data-action="open"]').click();
    await page.getByRole('heading', { name: 'Live — demo1' }).waitFor();
    expect(await page.getByTestId('status').innerText()).toBe('finished');
  }, 300_000);

  it('keeps the crawl shown across a reload of its address, with the token out of the address', async () => {
    expect(new URL(page.url()).hash).toBe('#/crawls/demo1/live');
    await page.reload();
    await page.getByRole('heading', { name: 'Live — demo1' }).waitFor();
    // The crawl itself, not only its name: its status and pages come from the engine again.
    await expect.poll(() => page.getByTestId('status').innerText(), { timeout: 10_000 }).toBe('finished');
    expect(await pagesShown()).toBeGreaterThan(0);
    expect(await page.getByRole('tab', { name: 'Live', exact: true }).getAttribute('aria-current')).toBe('page');
    expect(page.url()).not.toContain('token=');
    // Back and forward move between places as they do between pages.
    await page.getByRole('tab', { name: 'Crawls', exact: true }).click();
    await page.getByRole('heading', { name: 'Crawls' }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'Live — demo1' }).waitFor();
  }, 60_000);

  it('shows a hostile page title as text in the Page inspector', async () => {
    const created = await httpCall(serve.origin, serve.token, 'createCrawl', [
      { name: 'xss', seedText: `http://a.test:${xssPort}/`, resolve: [{ pattern: '*.test', address: '127.0.0.1' }], w: 0, r: 4 },
    ]);
    expect(created.status).toBe(200);
    await httpCall(serve.origin, serve.token, 'start', ['xss']);
    const status = async () => {
      const list = (await httpCall(serve.origin, serve.token, 'listCrawls', [])).body as { data: Array<{ id: string; status: string }> };
      return list.data.find((c) => c.id === 'xss')?.status;
    };
    await expect.poll(status, { timeout: 30_000 }).toBe('finished');

    await page.getByRole('tab', { name: 'Crawls', exact: true }).click();
    await page.locator('tr[data-crawl="xss"]').getByRole('link', { name: 'Inspect pages' }).click();
    await page.getByTestId('inspect-url').fill(`http://a.test:${xssPort}/evil`);
    await page.getByRole('button', { name: 'Look up' }).click();
    const title = page.getByTestId('page-title');
    await title.waitFor();
    expect(await title.innerText()).toBe(XSS_TITLE);
    expect(await page.locator('[data-testid="page"] img').count()).toBe(0);
    await expect.poll(() => page.getByText('the <b>evil</b> page').count()).toBeGreaterThan(0);
    // The page looked up is part of the address: a reload shows it again, still as text.
    expect(new URL(page.url()).hash).toMatch(/^#\/crawls\/xss\/pages\?url=/);
    await page.reload();
    await title.waitFor();
    expect(await title.innerText()).toBe(XSS_TITLE);
    expect(await page.locator('[data-testid="page"] img').count()).toBe(0);
    expect(dialogs).toEqual([]);
    expect(consoleErrors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
  }, 60_000);
});
