/**
 * Each request is a schema, checked once (issue 24): for each request schema, one bad value is
 * refused by the real CLI (one line, exit 2, naming the field's flag), by the API over a real
 * WebSocket server (CRAWL_BAD_OPTION naming the field) and by the form's own check (the function
 * the view calls before it sends anything), with the same field and the same words.
 * Needs the built CLI (dist/, as npm test builds it).
 */
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBrowserServer } from '../../core/api/browser-server.js';
import type { CrawlbenchApi } from '../../core/api/contract.js';
import { EngineApi } from '../../core/api/engine-api.js';
import { API_LIMITS } from '../../core/api/limits.js';
import { connectWebSocket } from '../../core/api/ws-client.js';
import { simulateFlagOf } from '../../core/cli/simulate-flags.js';
import { generateWeb } from '../../core/testweb/generator.js';
import { exportGraphDir } from '../../core/testweb/graph-files.js';
import { searchOfDraft } from '../../renderer/composables/page-search.js';
import { blankParallelForm, parallelFormErrors } from '../../renderer/composables/parallel-options.js';
import { compareFormErrors, evaluationFormErrors, exportFormErrors, graphExportRefusal, pageLinksRefusal, partitionFormErrors, seedFileProblem, sitesQueryRefusal } from '../../renderer/lib/request-errors.js';
import { blankMeasureForm, measureFieldsOf } from '../../renderer/lib/measure-form.js';
import { defaultForm, formProblems } from '../../renderer/lib/simulation-view.js';
import { blankForm, fieldName, requestOfForm } from '../../renderer/lib/crawl-request.js';
import { userError } from '../../renderer/lib/user-error.js';
import { crawlbench } from '../helpers/run.js';

const WS = WebSocket as unknown as Parameters<typeof connectWebSocket>[1];
const dir = mkdtempSync(join(tmpdir(), 'cb-schemas-'));
const workspace = join(dir, 'workspace');
const datasets = join(dir, 'datasets');

/** What one entry point said: the field it named (a flag for the CLI) and the problem's words. */
interface Said {
  field: string;
  words: string;
}

/** The CLI's one line `crawlbench CMD: --flag: words [CRAWL_BAD_OPTION]`, exit 2. */
async function cli(args: string[]): Promise<Said> {
  const res = await crawlbench(args);
  expect(res.code, res.stderr).toBe(2);
  const lines = res.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  const m = /^crawlbench \S+: (--[\w-]+): (.*) \[CRAWL_BAD_OPTION\]$/.exec(lines[0]!);
  expect(m, lines[0]).not.toBeNull();
  return { field: m![1]!, words: m![2]! };
}

/** The API's refusal over the socket: CRAWL_BAD_OPTION, its field, and its words as the view shows them. */
async function refused(call: Promise<unknown>): Promise<Said & { shown: string }> {
  const err = (await call.then(
    () => null,
    (e: unknown) => e,
  )) as { code?: string; field?: string; message?: string } | null;
  expect(err, 'the API accepted the request').not.toBeNull();
  expect(err!.code).toBe('CRAWL_BAD_OPTION');
  expect(err!.message!.startsWith(`${err!.field}: `), err!.message).toBe(true);
  return { field: err!.field!, words: err!.message!.slice(err!.field!.length + 2), shown: userError(err).text };
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

describe('each request schema refuses the same bad value with the same field from the CLI, the API and the form', () => {
  let engine: EngineApi;
  let server: Awaited<ReturnType<typeof startBrowserServer>>;
  let api: CrawlbenchApi;
  let close: () => void;
  let graphDir: string;
  let crawlId: string;

  beforeAll(async () => {
    graphDir = join(datasets, 'small');
    await exportGraphDir(generateWeb({ seed: 3, sites: 8, pages: 120, latency: false }), graphDir);
    engine = new EngineApi(workspace, { datasetsDir: datasets });
    server = await startBrowserServer({ api: engine, staticDir: dir });
    const conn = await connectWebSocket(`ws://127.0.0.1:${server.port}/api?token=${server.token}`, WS);
    api = conn.api;
    close = conn.close;
    // A crawl of the workspace for the requests about one (partition): created, never run.
    crawlId = (await api.createCrawl({ name: 'small', seedText: 'http://a.test/' })).id;
  }, 120_000);

  afterAll(async () => {
    close?.();
    await engine?.close();
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('new crawl: c = 0', async () => {
    const fromCli = await cli(['crawl', '--db', join(dir, 'refused.db'), '--seed', 'http://a.test/', '--c', '0']);
    const fromApi = await refused(api.createCrawl({ name: 'refused', seedText: 'http://a.test/', c: 0 }));
    const errors: Record<string, string> = {};
    const fromForm = requestOfForm({ ...blankForm(), c: '0' }, {}, { policyParams: [], takesHistory: false }, errors);
    expect(fromApi.field).toBe('c');
    expect(fromCli.field).toBe('--c');
    expect(fromCli.words).toBe(fromApi.words);
    // The form says it after the field's label, with what was typed (as the Pages view's depth).
    expect(fromForm).toBeNull();
    expect(errors).toEqual({ c: `${fieldName('c', null)} ${fromApi.words} (not “0”).` });
  }, 60_000);

  it('new crawl: w of 2 hours (the politeness in the same words, though the form takes seconds and the API milliseconds)', async () => {
    const fromCli = await cli(['crawl', '--db', join(dir, 'refused.db'), '--seed', 'http://a.test/', '--w', '2h']);
    const fromApi = await refused(api.createCrawl({ name: 'refused', seedText: 'http://a.test/', w: 7_200_000 }));
    const errors: Record<string, string> = {};
    const fromForm = requestOfForm({ ...blankForm(), w: '7200' }, {}, { policyParams: [], takesHistory: false }, errors);
    expect(fromApi.field).toBe('w');
    expect(fromApi.words).toBe('must be a duration from 0 ms to 1 hour');
    expect(fromCli.field).toBe('--w');
    expect(fromCli.words).toBe(fromApi.words);
    expect(fromForm).toBeNull();
    expect(errors).toEqual({ w: `${fieldName('w', null)} ${fromApi.words} (not “7200”).` });
    // Nothing typed: refused in the same words, never sent as w = 0 nor left to the default.
    requestOfForm({ ...blankForm(), w: ' ' }, {}, { policyParams: [], takesHistory: false }, errors);
    expect(errors).toEqual({ w: `${fieldName('w', null)} ${fromApi.words}.` });
  }, 60_000);

  it('resume: a page limit of 0 (Resume in the workbench is a button that sets nothing: the CLI on a crawl that exists, and the API)', async () => {
    const fromCli = await cli(['crawl', '--db', join(workspace, 'small.db'), '--max-pages', '0']);
    const fromApi = await refused(api.start(crawlId, { maxPages: 0 }));
    expect(fromApi.field).toBe('maxPages');
    expect(fromCli.field).toBe('--max-pages');
    expect(fromCli.words).toBe(fromApi.words);
    // The same words as New crawl's page limit, whose form checks it with the same field.
    const errors: Record<string, string> = {};
    requestOfForm({ ...blankForm(), maxPages: '0' }, {}, { policyParams: [], takesHistory: false }, errors);
    expect(errors).toEqual({ maxPages: `${fieldName('maxPages', null)} ${fromApi.words} (not “0”).` });
    // A field a run cannot change is refused by name, not ignored.
    expect(await refused(api.start(crawlId, { maxDepth: 3 } as never))).toMatchObject({ field: 'maxDepth', words: 'is not a field of a resume' });
  }, 60_000);

  it('a seed file one byte over 64 MiB: crawlbench crawl --seeds, uploadSeeds and the file chosen in New crawl', async () => {
    const big = join(dir, 'big-seeds.txt');
    // Sparse: the size is what is checked, before anything is read.
    writeFileSync(big, '');
    truncateSync(big, API_LIMITS.seedUploadChars + 1);
    const fromCli = await cli(['crawl', '--db', join(dir, 'refused.db'), '--seeds', big]);
    const chunk = 'x'.repeat(API_LIMITS.seedChunkChars);
    const parts = API_LIMITS.seedUploadChars / API_LIMITS.seedChunkChars;
    for (let part = 0; part < parts; part++) await api.uploadSeeds('big', chunk, part);
    const fromApi = await refused(api.uploadSeeds('big', 'x', parts));
    const fromForm = seedFileProblem('big-seeds.txt', API_LIMITS.seedUploadChars + 1);
    expect(fromApi.field).toBe('seedText');
    expect(fromCli.field).toBe('--seeds');
    expect(fromCli.words).toBe(fromApi.words);
    expect(fromApi.words).toMatch(/^a seed file can be at most 64 MiB; /);
    // The form says it at the seed file's input, with the file's name and size first.
    expect(fromForm).toBe(`big-seeds.txt is 64 MiB: ${fromApi.words}.`);
    expect(fieldName('seedText', null)).toBe('Seeds');
  }, 120_000);

  it('simulation: r = 0', async () => {
    const fromCli = await cli(['simulate', '--graph', graphDir, '--policy', 'opic', '--r', '0']);
    const fromApi = await refused(api.startSimulation({ source: { kind: 'dataset', id: 'small' }, policies: ['opic'], r: 0 }));
    const policies = (await api.listSimulationSources()).policies.map((p) => p.name);
    const fromForm = formProblems({ ...defaultForm(), source: 'dataset:small', policies: ['opic'], r: '0' }, policies);
    expect(fromApi.field).toBe('r');
    expect(fromCli.field).toBe(simulateFlagOf(fromApi.field));
    expect(fromCli.words).toBe(fromApi.words);
    expect(Object.keys(fromForm)).toEqual(['r']);
    expect(fromForm.r).toBe(fromApi.shown);
    expect(fromForm.r).toBe(capitalised(fromCli.words));
  }, 60_000);

  it('simulation: an unknown policy', async () => {
    const fromCli = await cli(['simulate', '--graph', graphDir, '--policy', 'fastest']);
    const fromApi = await refused(api.startSimulation({ source: { kind: 'dataset', id: 'small' }, policies: ['fastest'] }));
    const policies = (await api.listSimulationSources()).policies.map((p) => p.name);
    const fromForm = formProblems({ ...defaultForm(), source: 'dataset:small', policies: ['fastest'] }, policies);
    expect(fromApi.field).toBe('policies');
    expect(fromCli.field).toBe('--policy');
    expect(fromCli.words).toBe(fromApi.words);
    expect(fromForm.policies).toBe(fromApi.shown);
  }, 60_000);

  it('simulation: a negative hot threshold for IB (the measure of the Crawl & Stop curves)', async () => {
    const fromCli = await cli(['simulate', '--graph', graphDir, '--policy', 'opic', '--measure', 'backlinks', '--hot-threshold=-5']);
    const fromApi = await refused(api.startSimulation({ source: { kind: 'dataset', id: 'small' }, policies: ['opic'], measure: 'backlinks', hotThreshold: -5 }));
    const policies = (await api.listSimulationSources()).policies.map((p) => p.name);
    const importance = { ...blankMeasureForm(), measure: 'backlinks' as const, hotThreshold: '-5' };
    const fromForm = formProblems({ ...defaultForm(), source: 'dataset:small', policies: ['opic'], importance }, policies);
    expect(fromApi.field).toBe('hotThreshold');
    expect(fromCli.field).toBe('--hot-threshold');
    expect(fromCli.field).toBe(simulateFlagOf(fromApi.field));
    expect(fromCli.words).toBe(fromApi.words);
    expect(fromApi.words).toBe('must be 0 or more (only the location metric has values below 0)');
    expect(fromForm).toEqual({ hotThreshold: fromApi.shown });
  }, 60_000);

  it('evaluation: a similarity without a query (crawlbench eval, runEvaluation and the Results form)', async () => {
    const fromCli = await cli(['eval', join(workspace, 'small.db'), '--measure', 'similarity']);
    const fromApi = await refused(api.runEvaluation(crawlId, { measure: 'similarity' }));
    const fromForm = evaluationFormErrors(measureFieldsOf({ ...blankMeasureForm(), measure: 'similarity' }));
    expect(fromApi.field).toBe('query');
    expect(fromCli.field).toBe('--query');
    expect(fromCli.words).toBe(fromApi.words);
    expect(fromForm).toEqual({ query: fromApi.shown });
    expect(fromForm.query).toBe(capitalised(fromCli.words));
  }, 60_000);

  it('evaluation: a negative hot threshold, and its older name threshold refused by its own name', async () => {
    const fromCli = await cli(['eval', join(workspace, 'small.db'), '--measure', 'ir', '--hot-threshold=-1']);
    const fromApi = await refused(api.runEvaluation(crawlId, { measure: 'ir', hotThreshold: -1 }));
    const fromForm = evaluationFormErrors(measureFieldsOf({ ...blankMeasureForm(), measure: 'ir', hotThreshold: '-1' }));
    expect(fromApi.field).toBe('hotThreshold');
    expect(fromCli.field).toBe('--hot-threshold');
    expect(fromCli.words).toBe(fromApi.words);
    expect(fromForm).toEqual({ hotThreshold: fromApi.shown });
    const older = await cli(['eval', join(workspace, 'small.db'), '--threshold=-1']);
    expect(await refused(api.runEvaluation(crawlId, { threshold: -1 }))).toMatchObject({ field: 'threshold', words: older.words });
    expect(older.field).toBe('--threshold');
  }, 60_000);

  it('partition: 30 runs', async () => {
    const fromCli = await cli(['partition', '--graph', graphDir, '--model', 'page', '--parts', '2,4', '--runs', '30']);
    const fromApi = await refused(api.partitionCrawl(crawlId, { models: ['page'], parts: [2, 4], runs: 30 }));
    const fromForm = partitionFormErrors({ models: ['page'], parts: [2, 4], runs: 30 });
    expect(fromApi.field).toBe('runs');
    expect(fromCli.field).toBe('--runs');
    expect(fromCli.words).toBe(fromApi.words);
    expect(fromForm).toEqual({ runs: fromApi.shown });
  }, 60_000);

  it('partition: K = 1', async () => {
    const fromCli = await cli(['partition', '--graph', graphDir, '--model', 'page', '--parts', '1,4']);
    const fromApi = await refused(api.partitionCrawl(crawlId, { models: ['page'], parts: [1, 4] }));
    const fromForm = partitionFormErrors({ models: ['page'], parts: [1, 4], runs: 2 });
    expect(fromApi.field).toBe('parts');
    expect(fromCli.field).toBe('--parts');
    expect(fromCli.words).toBe(fromApi.words);
    expect(fromForm).toEqual({ parts: fromApi.shown });
  }, 60_000);

  it('graph export: an unknown format', async () => {
    const fromCli = await cli(['export-graph', '--graph', graphDir, '--model', 'page', '--format', 'gml', '--out', join(dir, 'g.gml')]);
    const fromApi = await refused(api.exportGraph(crawlId, { model: 'page', format: 'gml' as never }));
    const fromForm = graphExportRefusal({ model: 'page', format: 'gml' });
    expect(fromApi.field).toBe('format');
    expect(fromCli.field).toBe('--format');
    expect(fromCli.words).toBe(fromApi.words);
    expect(fromForm).toMatchObject({ code: 'CRAWL_BAD_OPTION', field: 'format' });
    expect(userError(fromForm).text).toBe(fromApi.shown);
  }, 60_000);

  it('compare: top = 0', async () => {
    const fromCli = await cli(['compare', join(workspace, 'small.db'), join(workspace, 'small.db'), '--top', '0']);
    const fromApi = await refused(api.compareCrawls(crawlId, crawlId, { top: 0 }));
    const fromForm = compareFormErrors({ top: 0 });
    expect(fromApi.field).toBe('top');
    expect(fromCli.field).toBe('--top');
    expect(fromCli.words).toBe(fromApi.words);
    expect(fromForm).toEqual({ top: fromApi.shown });
  }, 60_000);

  it('export: a status that is none (filters.statuses "2x5")', async () => {
    const fromCli = await cli(['export', join(workspace, 'small.db'), '--format', 'jsonl', '--out', join(dir, 'pages.jsonl'), '--status', '2x5']);
    const fromApi = await refused(api.startExport(crawlId, { format: 'jsonl', what: 'pages', statuses: ['2x5'] }));
    const fromForm = exportFormErrors({ format: 'jsonl', what: 'pages', statuses: ['2x5'] });
    expect(fromApi.field).toBe('filters.statuses');
    expect(fromCli.field).toBe('--status');
    expect(fromCli.words).toBe(fromApi.words);
    expect(fromForm).toEqual({ 'filters.statuses': fromApi.shown });
  }, 60_000);

  it('page search: depth 1001 (no CLI command searches pages: the API and the Pages view)', async () => {
    const fromApi = await refused(api.searchPages(crawlId, { depth: 1001 }));
    const draft = { url: '', site: '', status: '', type: '', depth: '1001', exactDepth: false, sort: 'fetch' as const, descending: false, open: '' };
    const fromForm = searchOfDraft(draft as Parameters<typeof searchOfDraft>[0]);
    expect(fromApi.field).toBe('depth');
    expect(fromForm).toEqual({ depthError: `Depth ${fromApi.words} (not “1001”).` });
  }, 60_000);

  it("a page's links: an in-link offset past 1,000,000,000 (no CLI command lists a page's links: the API and the Pages view's inspector)", async () => {
    const links = { linkLimit: 100, inOffset: 2_000_000_000, outOffset: 0 };
    const fromApi = await refused(api.getPage(crawlId, 'http://a.test/', links));
    const fromForm = pageLinksRefusal(links);
    expect(fromApi.field).toBe('inOffset');
    expect(fromForm).toMatchObject({ code: 'CRAWL_BAD_OPTION', field: 'inOffset' });
    expect(userError(fromForm).text).toBe(fromApi.shown);
  }, 60_000);

  it('sites query: a host filter of 501 characters (no CLI command lists sites: the API and the Sites view)', async () => {
    const query = { host: 'a'.repeat(501) };
    const fromApi = await refused(api.listSites(crawlId, query));
    const fromForm = sitesQueryRefusal(query);
    expect(fromApi.field).toBe('host');
    expect(fromForm).toMatchObject({ code: 'CRAWL_BAD_OPTION', field: 'host' });
    expect(userError(fromForm).text).toBe(fromApi.shown);
  }, 60_000);
  it('parallel crawl: K = 1 worker', async () => {
    const fromCli = await cli(['crawl', '--db', join(dir, 'refused-parallel.db'), '--seed', 'http://a.test/', '--parts', '1', '--model', 'site', '--assign', 'hash']);
    const fromApi = await refused(api.createParallelCrawl({ name: 'refused-parallel', seedText: 'http://a.test/', parallel: { parts: 1, model: 'site', assign: 'hash' } }));
    const fromForm = parallelFormErrors({ ...blankParallelForm(), on: true, workers: '1' });
    expect(fromApi.field).toBe('parts');
    expect(fromCli.field).toBe('--parts');
    expect(fromCli.words).toBe(fromApi.words);
    expect(fromForm).toEqual({ parts: fromApi.shown });
    expect(fromForm.parts).toBe(capitalised(fromCli.words));
    // Refused before anything exists: no plan of the crawl was written.
    expect((await api.listCrawls()).map((c) => c.id)).not.toContain('refused-parallel');
  }, 60_000);
});
