/**
 * What the workbench's end-to-end files share: Debian's chromium (one browser per file),
 * `crawlbench serve` on a workspace of the file's own, and one finished crawl of the demo web
 * made once per test run and copied into each workspace that asks for it, so that the e2e
 * files do not each crawl the demo web again (npm test stays well under 15 minutes).
 *
 * The fixture is built lazily by the first file that asks (test/ui/global-setup.ts only
 * hands every worker the same empty folder): a folder made with mkdir is the lock, the
 * others wait for its `ready` file.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import type { CrawlStateEvent } from '../../core/api/contract.js';
import { EngineApi } from '../../core/api/engine-api.js';
import { httpCall, startServe, type ServeProcess } from './serve-process.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** An empty folder for the shared demo crawl (made by test/ui/global-setup.ts). */
    e2eFixtureDir: string;
  }
}

export { CHROMIUM } from '../references.js';
import { CHROMIUM } from '../references.js';
export const ARTIFACTS = new URL('../artifacts/', import.meta.url).pathname;
export const DOCS = new URL('../../docs/', import.meta.url).pathname;

/** The shared crawl's id in every workspace it is copied into. */
export const FIXTURE_ID = 'demo-fixture';
/** The demo web it crawls: the demo's default size (60 sites, 3,000 pages), no latency. */
export const FIXTURE_WEB = { sites: 60, pages: 3000, latencyMs: 0 } as const;

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

function fixtureBase(): string {
  let dir: string | undefined;
  try {
    dir = inject('e2eFixtureDir');
  } catch {
    dir = undefined;
  }
  // Run without the global setup (a single file by hand): a folder of this process.
  if (!dir) {
    dir = join(tmpdir(), `cb-e2e-fixture-${process.pid}`);
    mkdirSync(dir, { recursive: true });
  }
  return dir;
}

/** Crawls the demo web to the end and stores its PageRank, in a workspace of its own. */
async function buildFixture(workspace: string): Promise<void> {
  const api = new EngineApi(workspace, { demoPort: await freePort() });
  try {
    await api.createCrawl({ name: FIXTURE_ID, demoWeb: { ...FIXTURE_WEB }, w: 0 });
    const ended = new Promise<CrawlStateEvent>((resolve) => {
      const off = api.onCrawlState((e) => {
        if (e.crawlId === FIXTURE_ID && ['finished', 'paused', 'stopped'].includes(e.status)) {
          off();
          resolve(e);
        }
      });
    });
    await api.start(FIXTURE_ID);
    const e = await ended;
    if (e.status !== 'finished') throw new Error(`the fixture crawl ended ${e.status}: ${e.reason ?? ''}`);
    await api.runPageRank(FIXTURE_ID);
  } finally {
    await api.close();
  }
}

/**
 * The folder holding the finished demo crawl (`demo-fixture.db` and its `.demo.json`),
 * built once per test run whichever file asks first.
 */
export async function demoFixture(): Promise<string> {
  const base = fixtureBase();
  const workspace = join(base, 'workspace');
  const ready = join(base, 'ready');
  const failed = join(base, 'failed');
  let builder = false;
  try {
    mkdirSync(join(base, 'lock'));
    builder = true;
  } catch {
    builder = false;
  }
  if (builder) {
    try {
      await buildFixture(workspace);
      writeFileSync(ready, new Date().toISOString());
    } catch (err) {
      writeFileSync(failed, String((err as Error).stack ?? err));
      throw err;
    }
    return workspace;
  }
  const deadline = Date.now() + 240_000;
  while (!existsSync(ready)) {
    if (existsSync(failed)) throw new Error(`the shared demo crawl could not be made: ${readFileSync(failed, 'utf8')}`);
    if (Date.now() > deadline) throw new Error('timed out waiting for the shared demo crawl');
    await new Promise((r) => setTimeout(r, 250));
  }
  return workspace;
}

/**
 * The second shared crawl: the demo web's revision 2 ("months later"), crawled with the first
 * as its history (historical-pagerank-parent), on the first's demo port so that their URLs
 * match (history and comparison need it). Built once per test run, on first use only, in a
 * folder of its own: the kit's demo set is the two crawls (REVISION2_ID beside FIXTURE_ID).
 */
export const REVISION2_ID = 'demo-fixture-r2';

async function buildRevision2(workspace: string): Promise<void> {
  await copyFixtureInto(workspace);
  const port = (JSON.parse(readFileSync(join(workspace, `${FIXTURE_ID}.demo.json`), 'utf8')) as { port: number }).port;
  const api = new EngineApi(workspace, { demoPort: port });
  try {
    await api.createCrawl({ name: REVISION2_ID, demoWeb: { ...FIXTURE_WEB, revision: 2 }, policy: 'historical-pagerank-parent', historyCrawl: FIXTURE_ID, w: 0 });
    const ended = new Promise<CrawlStateEvent>((resolve) => {
      const off = api.onCrawlState((e) => {
        if (e.crawlId === REVISION2_ID && ['finished', 'paused', 'stopped'].includes(e.status)) {
          off();
          resolve(e);
        }
      });
    });
    await api.start(REVISION2_ID);
    const e = await ended;
    if (e.status !== 'finished') throw new Error(`the revision-2 fixture crawl ended ${e.status}: ${e.reason ?? ''}`);
    await api.runPageRank(REVISION2_ID);
  } finally {
    await api.close();
  }
}

/** A shared build of the fixture folder `name` (made once, by whichever file asks first; the others wait). */
async function sharedBuild(name: string, build: (workspace: string) => Promise<void>): Promise<string> {
  const base = join(fixtureBase(), name);
  mkdirSync(base, { recursive: true });
  const workspace = join(base, 'workspace');
  const ready = join(base, 'ready');
  const failed = join(base, 'failed');
  let builder = false;
  try {
    mkdirSync(join(base, 'lock'));
    builder = true;
  } catch {
    builder = false;
  }
  if (builder) {
    try {
      await build(workspace);
      writeFileSync(ready, new Date().toISOString());
    } catch (err) {
      writeFileSync(failed, String((err as Error).stack ?? err));
      throw err;
    }
    return workspace;
  }
  const deadline = Date.now() + 300_000;
  while (!existsSync(ready)) {
    if (existsSync(failed)) throw new Error(`the shared ${name} crawl could not be made: ${readFileSync(failed, 'utf8')}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for the shared ${name} crawl`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return workspace;
}

/**
 * Copies the kit's two demo crawls into a workspace: FIXTURE_ID (revision 1) and REVISION2_ID
 * (revision 2, guided by it), or under the names given (the second's history is then a file
 * the workspace does not name).
 */
export async function copyDemoPairInto(workspace: string, ids: [string, string] = [FIXTURE_ID, REVISION2_ID]): Promise<void> {
  const from = await sharedBuild('revision-2', buildRevision2);
  mkdirSync(workspace, { recursive: true });
  [FIXTURE_ID, REVISION2_ID].forEach((id, i) => {
    copyFileSync(join(from, `${id}.db`), join(workspace, `${ids[i]}.db`));
    copyFileSync(join(from, `${id}.demo.json`), join(workspace, `${ids[i]}.demo.json`));
  });
}

/** Copies the shared demo crawl into a workspace as `id` (a demo crawl, finished, with PageRank). */
export async function copyFixtureInto(workspace: string, id = FIXTURE_ID): Promise<void> {
  const from = await demoFixture();
  mkdirSync(workspace, { recursive: true });
  copyFileSync(join(from, `${FIXTURE_ID}.db`), join(workspace, `${id}.db`));
  const sidecar = join(from, `${FIXTURE_ID}.demo.json`);
  if (existsSync(sidecar)) copyFileSync(sidecar, join(workspace, `${id}.demo.json`));
}

export interface WorkbenchOptions {
  /** Names the temporary folder (cb-e2e-NAME-). */
  name: string;
  /** Copy the shared demo crawl into the workspace first (as `demo-fixture`). */
  fixture?: boolean;
  /** More `crawlbench serve` arguments (the workspace and a free demo port are given). */
  serveArgs?: string[];
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
  /** Draw scrollbars as a desktop browser does (headless chromium hides them, so a page has the whole viewport's width). */
  scrollbars?: boolean;
}

export interface Workbench {
  tmp: string;
  workspace: string;
  serve: ServeProcess;
  context: BrowserContext;
  page: Page;
  /** console.error lines of the page (a favicon 404 included: the workbench serves one). */
  consoleErrors: string[];
  /** One API call over HTTP with the token, as a script would make it; fails the test on a non-200. */
  call<T>(name: string, data: unknown[]): Promise<T>;
  /** The series of a chart registered on window.__charts. */
  series(chart: string): Promise<Array<{ name: string; data: Array<[number, number]> }>>;
  close(): Promise<void>;
}

/** The browser flags every e2e file runs chromium with: headless, no sandbox, no GPU, nothing fetched. */
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];

/** Debian's chromium on a fresh profile folder, with the flags above and the caller's options. */
export function launchChromium(profile: string, options: Parameters<typeof chromium.launchPersistentContext>[1] = {}): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, ...options });
}

/** A workspace (with the fixture if asked), `crawlbench serve` on it, and chromium on its URL's origin. */
export async function openWorkbench(opts: WorkbenchOptions): Promise<Workbench> {
  const tmp = mkdtempSync(join(tmpdir(), `cb-e2e-${opts.name}-`));
  const workspace = join(tmp, 'workspace');
  mkdirSync(ARTIFACTS, { recursive: true });
  if (opts.fixture) await copyFixtureInto(workspace);
  const serve = await startServe(['--dir', workspace, '--demo-port', String(await freePort()), ...(opts.serveArgs ?? [])]);
  let context: BrowserContext;
  try {
    context = await launchChromium(join(tmp, 'profile'), {
      viewport: opts.viewport ?? { width: 1280, height: 800 },
      colorScheme: opts.colorScheme ?? 'light',
      acceptDownloads: true,
      ...(opts.scrollbars ? { ignoreDefaultArgs: ['--hide-scrollbars'] } : {}),
    });
  } catch (err) {
    // A browser that does not start must not leave `crawlbench serve` running after the run.
    await serve.stop();
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(`${m.text()} ${m.location().url}`);
  });
  return {
    tmp,
    workspace,
    serve,
    context,
    page,
    consoleErrors,
    async call<T>(name: string, data: unknown[]): Promise<T> {
      const r = await httpCall(serve.origin, serve.token, name, data);
      if (r.status !== 200) throw new Error(`${name}: HTTP ${r.status} ${JSON.stringify(r.body)}`);
      return (r.body as { data: T }).data;
    },
    series: (chart: string) =>
      page.evaluate(
        (n) => ((window.__charts?.[n]?.getOption() as { series?: Array<{ name: string; data: Array<[number, number]> }> } | undefined)?.series ?? []).map((s) => ({ name: s.name, data: s.data })),
        chart,
      ),
    async close() {
      await context.close().catch(() => undefined);
      await serve.stop();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

// ---- the accessibility check (axe-core), shared by the files that run it on a view ----------
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/**
 * axe-core's serious and critical violations on what the page shows now (axe-core is the engine
 * behind Lighthouse's and Playwright's checks; @axe-core/playwright wants Node 22, so axe-core
 * itself is put into the page).
 */
export async function axeViolations(page: Page): Promise<Violation[]> {
  // Through the DevTools protocol, which the page's Content-Security-Policy does not govern.
  await page.evaluate(`${AXE}\n;0`);
  const found = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)`)) as Violation[];
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

export const describeViolation = (v: Violation) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join('; ')}`;
