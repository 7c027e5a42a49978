/**
 * createCrawl: a New crawl request checked (create-request.ts), its seeds read (text or an
 * upload) or its demo web started, and the crawl's file written, everything checked before the
 * file exists, so that a refused crawl leaves nothing behind.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CrawlSettingsInput } from '../config/settings.js';
import { Crawler } from '../engine/crawler.js';
import { checkShortW } from '../engine/short-w-guard.js';
import { CrawlError, ErrorCodes, badField } from '../errors.js';
import type * as C from './contract.js';
import { parseCreateRequest } from './create-request.js';
import { DEMO_DEFAULTS, type DemoCa, type DemoSpec, type DemoWebs } from './demo-webs.js';
import { CONFIRM_IN_FORM } from './live-crawls.js';
import { describePolicies } from './policies.js';
import type { SeedUploads } from './seed-uploads.js';
import { parseSeeds, seedSettings } from './seeds.js';
import { CRAWL_ID, withoutUndefined, type Workspace } from './workspace.js';

type Demo = { spec: DemoSpec; port: number; pages: number; ca: DemoCa | null };

/** Writes a new crawl's file from a New crawl request; returns its id. */
export async function createCrawlFile(ws: Workspace, demos: DemoWebs, uploads: SeedUploads, raw: C.CreateCrawlRequest): Promise<string> {
  const req = parseCreateRequest(raw);
  const id = req.name?.trim() || `crawl-${new Date().toISOString().replace(/[:.]/g, '-').replace('Z', '')}`;
  if (!CRAWL_ID.test(id) || id.includes('..')) throw badField('name', 'may hold only letters, digits, dots, dashes and underscores, starting with a letter or digit (it names the crawl’s file)');
  const path = ws.path(id);
  if (existsSync(path)) throw new CrawlError(ErrorCodes.SETTINGS_CONFLICT, `a crawl named "${id}" already exists`, { field: 'name' });
  const input: CrawlSettingsInput = { seeds: [], ...settingsFrom(req) };
  if (req.historyCrawl) input.policyParams = { ...input.policyParams, history: historyPath(ws, req, id) };
  let demo: Demo | null = null;
  try {
    if (req.demoWeb) demo = await demoInput(demos, id, req, input);
    else seedInput(uploads, req, input);
    // Everything is checked before the file exists: a refused crawl leaves nothing behind.
    await checkShortW(Crawler.plan(input), CONFIRM_IN_FORM);
    Crawler.create(path, input).close();
  } catch (err) {
    if (demo) await demos.stop(id);
    throw err;
  }
  if (req.seedUploadId !== undefined) uploads.drop(req.seedUploadId);
  if (demo) demos.save(join(ws.dir, `${id}.demo.json`), demo.spec, demo.port, demo.pages, demo.ca);
  // The web is started again (on its port) when the crawl runs; until then it holds nothing.
  if (demo) await demos.stop(id);
  return id;
}

/** Starts the crawl's demo web and fills seeds, scope, resolve and demo politeness in. */
async function demoInput(demos: DemoWebs, id: string, req: C.CreateCrawlRequest, input: CrawlSettingsInput): Promise<Demo> {
  const spec: DemoSpec = { ...DEMO_DEFAULTS, ...(typeof req.demoWeb === 'object' ? withoutUndefined(req.demoWeb) : {}) };
  // A crawl that reads sitemaps gets a demo web whose sites serve some (and the broken kinds).
  if (req.sitemaps) spec.sitemaps = true;
  const web = await demos.ensure(id, spec);
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

/** Reads the seeds (text or an upload) into seeds and scope; the first bad line refuses the crawl. */
function seedInput(uploads: SeedUploads, req: C.CreateCrawlRequest, input: CrawlSettingsInput): void {
  if (req.seedUploadId !== undefined && req.seedText !== undefined) throw badField('seedUploadId', 'give the seeds as seedText or as an upload (seedUploadId), not both');
  const parsed = parseSeeds(req.seedUploadId !== undefined ? uploads.text(req.seedUploadId, 'seedUploadId') : (req.seedText ?? ''));
  const bad = parsed.problems[0];
  if (bad) {
    const more = (parsed.problemCount ?? parsed.problems.length) - 1;
    throw new CrawlError(ErrorCodes.BAD_SEED, `seeds: line ${bad.line}: “${bad.text}”: ${bad.problem}${more > 0 ? ` (and ${more} more)` : ''}`, { field: 'seedText' });
  }
  Object.assign(input, seedSettings(parsed));
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
