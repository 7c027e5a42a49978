/**
 * What a newcomer meets first in the workbench, in Debian's chromium at 1280x800 (issue:
 * "Safe for real sites, open to every newcomer"): a bad w refused at its field by the form
 * (and by the API behind it), a refused form's message beside Create and in view, a short w
 * for real servers needing the checkbox, a historical demo crawl guided by an earlier demo
 * crawl with the pages found in history shown, parked sites listed, and Stop for good.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlInfo } from '../../core/api/contract.js';
import { httpCall, startServe, type ServeProcess } from './serve-process.js';
import { freePort, launchChromium } from './e2e-kit.js';
import { describeWith } from '../references.js';


describeWith(['chromium'], 'New crawl in the browser: safe defaults, errors in view', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'cb-e2e-new-'));
  let serve: ServeProcess;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    // A port of this run's own for the demo webs, stable across its demo crawls.
    serve = await startServe(['--dir', join(tmp, 'workspace'), '--demo-port', String(await freePort())]);
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

  const crawls = async (): Promise<CrawlInfo[]> => ((await httpCall(serve.origin, serve.token, 'listCrawls', [])).body as { data: CrawlInfo[] }).data;
  const inView = async (testid: string) => {
    const box = await page.getByTestId(testid).boundingBox();
    return box !== null && box.y >= 0 && box.y + box.height <= 800;
  };

  it('refuses an empty or non-numeric w at the field, and the API refuses it too; nothing is created', async () => {
    await page.goto(serve.url);
    await page.getByRole('heading', { name: 'New crawl' }).waitFor();
    await page.getByText('breadth-first').first().waitFor();
    await page.getByTestId('demo-web').check();
    for (const w of ['', 'abc', '-1', '99999']) {
      await page.getByTestId('w').fill(w);
      await page.getByTestId('create').click();
      await expect.poll(() => page.getByTestId('error-w').isVisible()).toBe(true);
      expect(await page.getByTestId('error-w').innerText()).toMatch(/^w \(wait between connections\) must be a duration from 0 ms to 1 hour\b/);
      expect(await page.getByTestId('w').getAttribute('aria-invalid')).toBe('true');
      // Beside Create, in view at 1280x800.
      expect(await inView('create-error')).toBe(true);
      expect(await inView('create')).toBe(true);
    }
    expect(await crawls()).toEqual([]);
    // The API behind the form: the same empty w, sent as a script would.
    const r = await httpCall(serve.origin, serve.token, 'createCrawl', [{ name: 'api', demoWeb: true, w: '' }]);
    expect(r.body).toMatchObject({ kind: 'error', error: { code: 'CRAWL_BAD_OPTION', field: 'w' } });
    expect(await crawls()).toEqual([]);
  });

  it('shows a refused crawl beside Create, in words, dismissible, not following to other views; a short w on real servers needs the box', async () => {
    await page.getByTestId('real-seeds').check();
    await page.getByTestId('seeds').fill('not a url at all\nhttp://10.255.255.1/');
    await expect.poll(() => page.getByTestId('seed-problems').isVisible()).toBe(true);
    expect(await page.getByTestId('seed-problems').innerText()).toMatch(/line 1: “not a url at all”/);
    expect(await page.getByTestId('create').isDisabled()).toBe(true);

    await page.getByTestId('seeds').fill('http://10.255.255.1/');
    await expect.poll(() => page.getByTestId('seed-summary').innerText()).toMatch(/^1 URLs/);
    await page.getByTestId('w').fill('0.2');
    await expect.poll(() => page.getByTestId('short-w-warning').isVisible()).toBe(true);
    await page.getByTestId('create').click();
    const note = page.getByTestId('create-error');
    await expect.poll(() => note.isVisible()).toBe(true);
    const text = await note.innerText();
    expect(text).toMatch(/10\.255\.255\.1.*I know: a wait under 1 s on real servers/);
    expect(text).not.toMatch(/--|CRAWL_|expected|Too big/);
    expect(await inView('create-error')).toBe(true);
    expect(await page.getByTestId('error-w').isVisible()).toBe(true);
    expect(await crawls()).toEqual([]);

    await note.getByRole('button', { name: 'Dismiss this message' }).click();
    expect(await note.count()).toBe(0);
    await page.getByTestId('create').click();
    await expect.poll(() => note.isVisible()).toBe(true);
    await page.getByRole('tab', { name: 'Crawls', exact: true }).click();
    await page.getByRole('heading', { name: 'Crawls' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.getByRole('tab', { name: 'New crawl', exact: true }).click();

    // With the box ticked, the crawl is created (and not started: nothing goes to that address).
    await page.getByTestId('real-seeds').check();
    await page.getByTestId('seeds').fill('http://10.255.255.1/');
    await page.getByTestId('w').fill('0.2');
    await page.getByTestId('allow-short-w').check();
    await page.getByText('Start at once').click();
    await page.getByTestId('name').fill('confirmed');
    await page.getByTestId('create').click();
    await expect.poll(async () => (await crawls()).map((c) => c.id)).toEqual(['confirmed']);
    expect((await crawls())[0]!.status).toBe('created');
    await httpCall(serve.origin, serve.token, 'deleteCrawl', ['confirmed']);
  }, 60_000);

  it('runs a historical-pagerank-parent demo crawl guided by an earlier demo crawl: pages found in history, parked sites listed, then Stop for good', async () => {
    // The earlier crawl, made through the API to save time; the guided one through the form.
    expect((await httpCall(serve.origin, serve.token, 'createCrawl', [{ name: 'first', demoWeb: { latencyMs: 0 }, w: 0 }])).status).toBe(200);
    await httpCall(serve.origin, serve.token, 'start', ['first']);
    await expect.poll(async () => (await crawls()).find((c) => c.id === 'first')?.status, { timeout: 120_000, interval: 500 }).toBe('finished');

    await page.goto(serve.url);
    await page.getByRole('heading', { name: 'New crawl' }).waitFor();
    await page.getByTestId('demo-web').check();
    await page.getByText('historical-pagerank-parent').click();
    await page.getByTestId('history').selectOption('first');
    await page.getByTestId('name').fill('second');
    await page.getByTestId('w').fill('0.3');
    await page.getByTestId('create').click();
    await page.getByRole('heading', { name: 'Live — second' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/crawls/second/live');
    await expect.poll(async () => Number((await page.getByTestId('history-matched').innerText()).replace(/\D/g, '') || 0), { timeout: 30_000 }).toBeGreaterThan(0);
    const second = (await crawls()).find((c) => c.id === 'second')!;
    expect(second.policy).toBe('historical-pagerank-parent');

    // Parked sites of the demo web are listed with the pages they skipped (on the finished first crawl).
    await page.getByRole('tab', { name: 'Crawls', exact: true }).click();
    await page.locator('tr[data-crawl="first"] [data-action="open"]').click();
    await page.getByRole('heading', { name: 'Live — first' }).waitFor();
    await expect.poll(() => page.getByTestId('parked-sites').locator('tbody tr[data-host]').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await page.getByTestId('end-reason').innerText()).toMatch(/^finished/);

    // Stop for good, after a confirmation: no Resume afterwards.
    await page.getByRole('tab', { name: 'Crawls', exact: true }).click();
    await page.locator('tr[data-crawl="second"] [data-action="open"]').click();
    await page.getByRole('heading', { name: 'Live — second' }).waitFor();
    await page.getByTestId('stop').click();
    await page.getByTestId('confirm-stop').click();
    await expect.poll(() => page.getByTestId('status').innerText(), { timeout: 30_000 }).toBe('stopped');
    expect(await page.getByTestId('end-reason').innerText()).toMatch(/^stopped for good/);
    expect(await page.getByTestId('resume').count()).toBe(0);
    expect(await page.getByTestId('stop').count()).toBe(0);
  }, 240_000);
});
