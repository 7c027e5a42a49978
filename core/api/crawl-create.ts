/**
 * createCrawl: a New crawl request checked (create-request.ts), its demo web started if it has
 * one, and the crawl's file written in a worker thread with its seeds read (text or an upload)
 * and checked (crawl-file.ts), everything checked before the file has its name, so that a
 * refused crawl leaves nothing behind.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CrawlSettingsInput } from '../config/settings.js';
import { CrawlError, ErrorCodes, badField } from '../errors.js';
import type * as C from './contract.js';
import { parseCreateRequest } from './create-request.js';
import { DEMO_DEFAULTS, DEMO_INLINE_PAGES, probeDemoWeb, type DemoCa, type DemoSpec, type DemoWebs } from './demo-webs.js';
import { CONFIRM_IN_FORM } from './live-crawls.js';
import { describePolicies } from './policies.js';
import type { SeedUploads } from './seed-uploads.js';
import { fewSeeds, writeCrawlFile, type CrawlFileJob } from './crawl-file.js';
import type { HeavyJob, JobResults } from './heavy-jobs.js';
import { CRAWL_ID, withoutUndefined, type Workspace } from './workspace.js';

type Demo = { spec: DemoSpec; port: number; pages: number; ca: DemoCa | null };

/** What creating a crawl uses: the workspace, its demo webs and seed uploads, and a worker thread to write the file in. */
export interface CreateContext {
  ws: Workspace;
  demos: DemoWebs;
  uploads: SeedUploads;
  /** Runs a job of creation in a worker thread, one at a time: a file of many seeds (its seeds read and checked, crawl-file.ts), a large demo web (demo-webs.ts). */
  offThread: <W extends 'create-crawl' | 'demo-web'>(job: Extract<HeavyJob, { what: W }>) => Promise<JobResults[W]>;
  /** The ids of crawls being created now: a second request for one is refused, not raced. */
  creating: Set<string>;
}

/** Writes a new crawl's file from a New crawl request; returns its id. */
export async function createCrawlFile(cx: CreateContext, raw: C.CreateCrawlRequest): Promise<string> {
  const { ws, demos, uploads } = cx;
  const req = parseCreateRequest(raw);
  const id = req.name?.trim() || `crawl-${new Date().toISOString().replace(/[:.]/g, '-').replace('Z', '')}`;
  if (!CRAWL_ID.test(id) || id.includes('..')) throw badField('name', 'may hold only letters, digits, dots, dashes and underscores, starting with a letter or digit (it names the crawl’s file)');
  const path = ws.path(id);
  if (existsSync(path)) throw new CrawlError(ErrorCodes.SETTINGS_CONFLICT, `a crawl named "${id}" already exists`, { field: 'name' });
  if (cx.creating.has(id)) throw new CrawlError(ErrorCodes.SETTINGS_CONFLICT, `a crawl named "${id}" is being created`, { field: 'name' });
  const input: CrawlSettingsInput = { seeds: [], ...settingsFrom(req) };
  if (req.historyCrawl) input.policyParams = { ...input.policyParams, history: historyPath(ws, req, id) };
  let demo: Demo | null = null;
  cx.creating.add(id);
  try {
    if (req.demoWeb) demo = await demoInput(cx, req, input);
    if (!demo && req.seedUploadId !== undefined && req.seedText !== undefined) throw badField('seedUploadId', 'give the seeds as seedText or as an upload (seedUploadId), not both');
    const seedText = demo ? null : req.seedUploadId !== undefined ? uploads.text(req.seedUploadId, 'seedUploadId') : (req.seedText ?? '');
    // Everything is checked before the file has its name: a refused crawl leaves nothing behind.
    const job: CrawlFileJob = { what: 'create-crawl', path, input, seedText, confirm: CONFIRM_IN_FORM };
    // A few seeds at once: a worker takes a second or more to start under load.
    await (fewSeeds(job) ? writeCrawlFile(job, () => undefined) : cx.offThread(job));
  } finally {
    cx.creating.delete(id);
  }
  if (req.seedUploadId !== undefined) uploads.drop(req.seedUploadId);
  // The web is started again (on its port) when the crawl runs; until then it holds nothing.
  if (demo) demos.save(join(ws.dir, `${id}.demo.json`), demo.spec, demo.port, demo.pages, demo.ca);
  return id;
}

/** Makes the crawl's demo web (started and stopped: its port found) and fills seeds, scope, resolve and demo politeness in. */
async function demoInput(cx: CreateContext, req: C.CreateCrawlRequest, input: CrawlSettingsInput): Promise<Demo> {
  const spec: DemoSpec = { ...DEMO_DEFAULTS, ...(typeof req.demoWeb === 'object' ? withoutUndefined(req.demoWeb) : {}) };
  // A crawl that reads sitemaps gets a demo web whose sites serve some (and the broken kinds).
  if (req.sitemaps) spec.sitemaps = true;
  const web = spec.pages <= DEMO_INLINE_PAGES ? await probeDemoWeb(spec, cx.demos.port) : await cx.offThread({ what: 'demo-web', spec, port: cx.demos.port });
  // A demo web with sites on TLS: the crawl trusts its test CA (kept with the crawl's settings).
  if (web.ca) input.ca = [...(input.ca ?? []), web.ca.cert];
  Object.assign(input, { seeds: web.seeds, scope: { suffixes: ['.demo'] }, resolve: [{ pattern: '*.demo', address: '127.0.0.1' }] });
  // Demo politeness: short waits so that a few thousand pages take seconds, not hours.
  input.w ??= 50;
  input.c ??= 10;
  input.r ??= 64;
  Object.assign(input, { connectTimeout: 5000, headersTimeout: 10_000, bodyTimeout: 10_000, retryBase: 1000, robotsRetry: 2000, robotsMaxAttempts: 2 });
  return { spec, port: web.port, pages: web.pages, ca: web.ca };
}

/** The history crawl's file, for a policy that takes one. */
function historyPath(ws: Workspace, req: C.CreateCrawlRequest, id: string): string {
  const policy = req.policy || 'breadth-first';
  const takes = describePolicies().find((p) => p.name === policy)?.params.some((p) => p.name === 'history') ?? false;
  if (!takes) throw badField('historyCrawl', `policy ${policy} does not use a history crawl (historical-pagerank-*, quality and crawl-ability do)`);
  if (req.historyCrawl === id) throw badField('historyCrawl', 'a crawl cannot be its own history');
  try {
    return ws.existing(req.historyCrawl!);
  } catch (err) {
    throw new CrawlError((err as CrawlError).code ?? ErrorCodes.BAD_OPTION, (err as Error).message, { field: 'historyCrawl' });
  }
}

function settingsFrom(req: C.CreateCrawlRequest): Partial<CrawlSettingsInput> {
  return withoutUndefined({
    policy: req.policy || undefined,
    policyParams: req.policyParams,
    w: req.w,
    c: req.c,
    r: req.r,
    batch: req.batch,
    maxPages: req.maxPages,
    maxDepth: req.maxDepth,
    maxPagesPerSite: req.maxPagesPerSite,
    userAgent: req.userAgent || undefined,
    resolve: req.resolve,
    allowShortW: req.allowShortW,
    storeContent: req.storeContent,
    contentBudget: req.contentBudget,
    sitemaps: req.sitemaps,
    tls: req.tls,
    ca: req.caPem ? [req.caPem] : undefined,
  });
}
