/**
 * The bug a new user found (issue 23): importing a 10 MB seed file in New crawl killed
 * `crawlbench serve`, and the running crawl with it; the seed box showed no count and no error.
 * In Debian's chromium: the same 10 MB file (230,000 URLs) is imported while a crawl runs, its
 * seeds are counted in the seed box, the crawl is created with every seed queued and started
 * from Live; the server and the other crawl carried on throughout.
 */
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CrawlInfo, HealthDto, StatsEvent } from '../../core/api/contract.js';
import { tmpDir } from '../helpers/tmp.js';
import { describeWith } from '../references.js';
import { launchChromium } from './e2e-kit.js';
import { httpCall, startServe, type ServeProcess } from './serve-process.js';

const SEEDS = 230_000;

describeWith(['chromium'], 'a 10 MB seed file in New crawl', () => {
  const tmp = tmpDir('cb-e2e-seedfile-');
  let site: http.Server;
  let sitePort = 0;
  let serve: ServeProcess;
  let context: BrowserContext;
  let page: Page;
  const file = join(tmp, 'national-seeds.txt');

  beforeAll(async () => {
    // A site on this machine that answers every seed with a small page (and no robots.txt).
    site = http.createServer((req, res) => {
      if (req.url === '/robots.txt') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><head><title>${req.url}</title></head><body>seed page</body></html>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    sitePort = (site.address() as { port: number }).port;
    let text = '';
    for (let i = 0; i < SEEDS; i++) text += `http://127.0.0.1:${sitePort}/seeds/${String(i).padStart(22, '0')}\n`;
    writeFileSync(file, text);
    expect(text.length).toBeGreaterThan(10_000_000);

    serve = await startServe(['--dir', join(tmp, 'workspace')], { captureStderr: true });
    context = await launchChromium(join(tmp, 'profile'), {
      viewport: { width: 1280, height: 800 },
    });
    page = context.pages()[0] ?? (await context.newPage());
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await serve?.stop();
    await new Promise((resolve) => site?.close(resolve));
  });

  const call = async <T>(name: string, data: unknown[] = []): Promise<T> => {
    const r = await httpCall(serve.origin, serve.token, name, data);
    if ((r.body as { kind: string }).kind !== 'result') throw new Error(`${name}: ${JSON.stringify(r.body)}`);
    return (r.body as { data: T }).data;
  };
  const crawl = async (id: string) => (await call<CrawlInfo[]>('listCrawls')).find((c) => c.id === id);

  it('is imported and counted, makes a crawl with every seed queued, which starts; the server and a running crawl carry on', async () => {
    // A crawl running on the side, as the new user's was (a page a second: it runs throughout).
    const running = Array.from({ length: 300 }, (_, i) => `http://127.0.0.1:${sitePort}/running/${i}`).join('\n');
    await call('createCrawl', [{ name: 'already-running', seedText: running, w: 1000, maxPagesPerSite: 1_000_000 }]);
    await call('start', ['already-running']);

    await page.goto(serve.url);
    await page.getByRole('heading', { name: 'New crawl' }).waitFor();
    await page.getByText('breadth-first').first().waitFor();
    await page.getByTestId('real-seeds').check();
    await page.getByTestId('seed-file-input').setInputFiles(file);
    await expect.poll(() => page.getByTestId('seed-file').innerText(), { timeout: 30_000 }).toMatch(/^Seed file national-seeds\.txt \(1\d\.\d MiB\): too long to show here/);
    await expect.poll(() => page.getByTestId('seed-summary').innerText().catch(() => ''), { timeout: 60_000 }).toBe('230,000 URLs, 0 hosts, 0 suffixes');
    expect(await page.getByTestId('seed-problems').count()).toBe(0);
    expect(await page.getByTestId('connection-note').count()).toBe(0);

    await page.getByTestId('name').fill('ten-mb');
    await page.getByTestId('w').fill('0.05');
    await page.getByLabel('Max pages per site').fill('1000000');
    await page.getByLabel('Start at once').uncheck();
    await page.getByTestId('create').click();
    await page.waitForURL(/#\/crawls\/ten-mb\/live/, { timeout: 90_000 });
    const created = await crawl('ten-mb');
    expect(created).toMatchObject({ status: 'created', pagesKnown: SEEDS, queued: SEEDS, pagesFetched: 0 });
    expect((await call<{ seeds: string[] }>('crawlSettings', ['ten-mb'])).seeds).toHaveLength(SEEDS);

    await page.getByTestId('resume').click();
    await expect.poll(async () => (await crawl('ten-mb'))?.status, { timeout: 30_000 }).toBe('running');
    await expect.poll(async () => (await call<StatsEvent | null>('currentStats', ['ten-mb']))?.pages ?? 0, { timeout: 60_000 }).toBeGreaterThan(0);

    // The server is the one that started, attached to both crawls (the other one fetching on), and said nothing went wrong.
    const health = await call<HealthDto>('health');
    expect(health).toMatchObject({ ok: true, pid: serve.child.pid });
    expect(health.crawls.sort()).toEqual(['already-running', 'ten-mb']);
    expect(serve.child.exitCode).toBeNull();
    expect(serve.stderr.filter((l) => /error/i.test(l))).toEqual([]);
    expect(await page.getByTestId('connection-note').count()).toBe(0);
    await call('pause', ['ten-mb']);
    await call('pause', ['already-running']);
  }, 240_000);
});
