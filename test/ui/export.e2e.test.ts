/**
 * An export from the workbench, in Debian's chromium against `crawlbench serve`: the Export
 * dialog of a crawl runs a WARC export to completion with its progress bar and offers the files
 * for download; Cancel, pressed while an export is held mid-way (serve --export-throttle holds
 * every export 2 s after each chunk), leaves no file behind.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CrawlInfo, ExportJobDto } from '../../core/api/contract.js';
import { httpCall, startServe, type ServeProcess } from './serve-process.js';
import { describeWith } from '../references.js';
import { launchChromium } from './e2e-kit.js';


describeWith(['chromium'], 'Export from the workbench', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'cb-e2e-export-'));
  const workspace = join(tmp, 'workspace');
  let serve: ServeProcess;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    serve = await startServe(['--dir', workspace, '--demo-port', '0', '--export-throttle', '2s']);
    context = await launchChromium(join(tmp, 'profile'), {
      viewport: { width: 1280, height: 900 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    await call('createCrawl', [{ name: 'ex', demoWeb: { latencyMs: 0, pages: 200, sites: 10 }, storeContent: true }]);
    await call('start', ['ex']);
    for (let i = 0; i < 240 && (await call<CrawlInfo[]>('listCrawls', [])).find((c) => c.id === 'ex')?.status !== 'finished'; i++) {
      await new Promise((r) => setTimeout(r, 500));
    }
  }, 180_000);

  afterAll(async () => {
    await context?.close();
    await serve?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  async function call<T>(name: string, data: unknown[]): Promise<T> {
    return ((await httpCall(serve.origin, serve.token, name, data)).body as { data: T }).data;
  }

  async function openDialog(): Promise<void> {
    await page.goto(serve.url);
    await page.goto(`${serve.origin}/#/crawls`);
    await page.locator('tr[data-crawl="ex"] [data-action="export"]').click();
    await page.getByTestId('export-dialog').waitFor();
    await page.getByTestId('export-format').selectOption('warc');
  }

  it('runs a WARC export to completion with its progress bar, then offers the files', async () => {
    await openDialog();
    await page.getByTestId('export-start').click();
    // Held 2 s after each 64 fetches: the bar shows part of the work done.
    const text = page.getByTestId('export-progress-text');
    await expect.poll(async () => (await text.isVisible()) && /^[1-9][\d,]* of [\d,]+ pages · .* written · /.test(await text.innerText()), { timeout: 20_000 }).toBe(true);
    const [done, total] = (/^([\d,]+) of ([\d,]+)/.exec(await text.innerText()) ?? []).slice(1).map((x) => Number(x!.replace(/,/g, '')));
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(total!);
    expect(Number(await page.getByTestId('export-progress').getAttribute('value'))).toBeGreaterThan(0);
    await page.getByTestId('export-done').waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(process.cwd(), 'test', 'artifacts', 'export-dialog.png') });
    const links = page.getByTestId('export-files').locator('a');
    const names = await links.allInnerTexts();
    expect(names).toEqual([expect.stringMatching(/^ex-\d{14}-00000\.warc\.gz$/), expect.stringMatching(/^ex-\d{14}\.cdxj$/)]);
    // The link downloads the file from the workbench's own server (the session cookie carries the token).
    const href = (await links.first().getAttribute('href'))!;
    const got = await page.evaluate(async (h) => {
      const r = await fetch(h);
      return { status: r.status, bytes: (await r.arrayBuffer()).byteLength, disposition: r.headers.get('content-disposition') };
    }, href);
    expect(got).toMatchObject({ status: 200, disposition: expect.stringMatching(/^attachment; filename="ex-\d{14}-00000\.warc\.gz"$/) });
    expect(got.bytes).toBeGreaterThan(10_000);
  }, 120_000);

  it('Cancel, pressed while the export is held mid-way, leaves no file behind', async () => {
    await openDialog();
    await page.getByTestId('export-start').click();
    const text = page.getByTestId('export-progress-text');
    // The export is held 2 s after each chunk of 64 fetches: wait (asking the engine, which is
    // quicker than reading the page on a loaded machine) until it is held mid-way, part done.
    let running: ExportJobDto | undefined;
    await expect
      .poll(async () => {
        running = (await call<ExportJobDto[]>('listExports', ['ex'])).find((j) => j.state === 'running' && j.done > 0 && j.done < j.total);
        return running !== undefined;
      }, { timeout: 20_000, interval: 100 })
      .toBe(true);
    await expect.poll(async () => (await text.isVisible()) && /^[1-9][\d,]* of [\d,]+ pages/.test(await text.innerText()), { timeout: 10_000 }).toBe(true);
    await page.getByTestId('export-cancel').click();
    await page.getByTestId('export-cancelled').waitFor({ timeout: 20_000 });
    const after = (await call<ExportJobDto[]>('listExports', ['ex'])).find((j) => j.exportId === running!.exportId)!;
    expect(after).toMatchObject({ state: 'cancelled', files: [], error: { code: 'CRAWL_CANCELLED' } });
    // Nothing of it on disk: not the WARC, not a partial file, not its folder.
    expect(readdirSync(join(workspace, 'exports'))).not.toContain(running!.exportId);
  }, 120_000);
});
