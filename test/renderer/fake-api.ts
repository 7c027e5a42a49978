/**
 * An in-memory CrawlbenchApi for store tests: records calls, lets a test push events. It
 * passes the same shape suite as the engine (test/renderer/fake-api.test.ts), and checks
 * requests and seeds with the engine's own parsers, so the UI's tests cannot drift from it.
 */
import type { CrawlbenchApi, CrawlInfo, CrawlSettingsDto, CrawlStateEvent, CreateCrawlRequest, ExportJobDto, StatsEvent } from '../../core/api/contract.js';
import type { AnalysisProgressEvent, StoredPageRankDto } from '../../core/api/contract.js';
import { parseCreateRequest } from '../../core/api/create-request.js';
import { parsePartitionRequest } from '../../core/api/graph-jobs.js';
import { checkRequest } from '../../core/api/request-check.js';
import { GraphExportRequestSchema } from '../../core/graph/request-schema.js';
import { EvaluationRequestSchema } from '../../core/ranking/request-schema.js';
import type { GraphModel, PartitionProgressEvent, PartitionReport, PartitionRow } from '../../core/api/contract.js';
import { COLUMNS, FORMATS, MODELS, type Partitioner } from '../../core/graph/report.js';
import { DEMO_DEFAULTS } from '../../core/api/demo-webs.js';
import { parseSeeds, seedSettings } from '../../core/api/seeds.js';
import { validateSettings } from '../../core/config/settings.js';
import { badField } from '../../core/errors.js';
import { API_LIMITS } from '../../core/api/limits.js';
import { parseExportOptions } from '../../core/export/options.js';
import { metrics } from '../../core/ranking/evaluate.js';
import type { SiteRowDto } from '../../core/api/contract.js';
import { fakeSiteRow, fakeSitesPage } from './fake-sites.js';
import { parsePageLinks } from '../../core/api/pages-query.js';
import { fakePageDetail, fakePages, fakeSearchPages, type FakePage } from './fake-pages.js';
import { fakeSimulations } from './fake-simulations.js';
import { SeedUploads } from '../../core/api/seed-uploads.js';
import { ParallelOptionsSchema } from '../../core/api/parallel-request-schema.js';
import type { ParallelCrawlDto, ParallelOptions, ParallelProgressEvent } from '../../core/api/contract.js';

/** The fake's page PageRank, highest first. */
const FAKE_PAGES = [{ name: 'http://a.test/b', value: 0.4 }, { name: 'http://a.test/d', value: 0.3 }, { name: 'http://a.test/', value: 0.2 }, { name: 'http://b.test/', value: 0.1 }];

export function crawlInfo(id: string, extra: Partial<CrawlInfo> = {}): CrawlInfo {
  return { id, status: 'created', policy: 'breadth-first', pagesFetched: 0, pagesKnown: 1, queued: 1, sites: 1, sizeBytes: 4096, createdAt: '2026-01-01', demoWeb: false, endReason: null, historyMatched: null, ...extra };
}

export function stats(crawlId: string, i: number, extra: Partial<StatsEvent> = {}): StatsEvent {
  return {
    crawlId, at: 1_000_000 + i * 1000, elapsedSeconds: i, pages: i * 10, pagesPerSecond: 10, bytes: i * 1000, bytesPerSecond: 1000,
    openConnections: 3, r: 8, sitesWithPending: 5, queued: 100 - i, errors: {}, errorTotal: 0, pagerankEstimate: i / 1000, rssBytes: 1, crawlSeconds: i, historyMatched: null, ...extra,
  };
}

/** The settings the engine would store for a request (its own defaults), as crawlSettings answers them. */
export function settingsOf(id: string, req: CreateCrawlRequest): CrawlSettingsDto {
  const demo = req.demoWeb ? { ...DEMO_DEFAULTS, ...(typeof req.demoWeb === 'object' ? req.demoWeb : {}) } : null;
  const seeds = demo ? { seeds: ['http://www1.site0.demo:1/'], scope: { suffixes: ['.demo'], hosts: [] } } : seedSettings(parseSeeds(req.seedText ?? ''));
  const demoPoliteness = demo ? { w: req.w ?? 50, c: req.c ?? 10, r: req.r ?? 64 } : {};
  const { name: _n, seedText: _s, seedUploadId: _u, demoWeb: _d, historyCrawl, allowShortW: _a, caPem, ...rest } = req;
  const s = validateSettings({ ...rest, ...demoPoliteness, ...seeds, ...(caPem ? { ca: [caPem] } : {}) });
  return {
    id, seeds: s.seeds, scope: { suffixes: s.scope.suffixes, hosts: s.scope.hosts, excludes: s.scope.excludes }, seedText: demo ? '' : [...s.seeds, ...s.scope.suffixes].join('\n'),
    siteKey: s.siteKey, policy: s.policy, policyParams: s.policyParams, historyCrawl: historyCrawl ?? null, w: s.w, c: s.c, r: s.r, batch: s.batch, maxPages: s.maxPages,
    maxDepth: s.maxDepth, maxPagesPerSite: s.maxPagesPerSite, userAgent: s.userAgent, storeContent: s.storeContent, contentBudget: s.contentBudget,
    sitemaps: s.sitemaps,
    tls: s.tls,
    caPem: s.ca.length > 0 ? s.ca.join('\n') : null,
    // Revision 1 has the spec's pages; the fake does not build revision 2, whose size it leaves unknown.
    demoWeb: demo ? { sites: demo.sites, pages: demo.pages, latencyMs: demo.latencyMs, revision: demo.revision ?? 1, webPages: (demo.revision ?? 1) === 1 ? demo.pages : null } : null,
  };
}

export function fakeApi() {
  const crawls = new Map<string, CrawlInfo>();
  const exports = new Map<string, ExportJobDto>();
  const exportCbs = new Set<(e: ExportJobDto) => void>();
  const settings = new Map<string, CrawlSettingsDto>();
  const storedRanks = new Map<string, StoredPageRankDto>();
  const sites = new Map<string, SiteRowDto[]>();
  const pages = new Map<string, FakePage[]>();
  const analysisCbs = new Set<(e: AnalysisProgressEvent) => void>();
  const calls: string[] = [];
  const partitionCbs = new Set<(e: PartitionProgressEvent) => void>();
  const statsCbs = new Set<(s: StatsEvent) => void>();
  const stateCbs = new Set<(s: CrawlStateEvent) => void>();
  // parallel: the options of the crawls created parallel, and their figures as a test sends them.
  const parallel = new Map<string, ParallelCrawlDto>();
  const parallelCbs = new Set<(e: ParallelProgressEvent) => void>();
  // simulate: runs that stay running until a test calls simulations.finish(id).
  const simulations = fakeSimulations(() => [...crawls.values()]);
  const fail = (code: string, message: string, field?: string) => Promise.reject(Object.assign(new Error(message), { name: 'CrawlError', code, ...(field ? { field } : {}) }));
  /** The crawl, or the engine's CRAWL_DB_MISSING. */
  const known = <T>(id: string, then: (c: CrawlInfo) => T): Promise<T> => {
    const c = crawls.get(id);
    return c ? Promise.resolve(then(c)) : fail('CRAWL_DB_MISSING', `no crawl named "${id}"`);
  };
  // Seed files sent in chunks, held as the engine holds them (its own class, its limits).
  const uploads = new SeedUploads();
  /** The seed text a request names: its own, or an upload's (the engine's checks). */
  const seedTextOf = (source: unknown): string => {
    if (source && typeof source === 'object' && 'uploadId' in source) return uploads.text(source.uploadId);
    if (typeof source === 'string' && source.length > API_LIMITS.seedTextChars) throw badField('text', 'send longer text with uploadSeeds');
    return typeof source === 'string' ? source : '';
  };
  const api: CrawlbenchApi = {
    listPolicies: async () => [{ name: 'breadth-first', summary: 'FIFO', params: [] }],
    parseSeeds: async (source) => {
      if (typeof source !== 'string') calls.push('parseSeeds upload');
      return parseSeeds(seedTextOf(source));
    },
    uploadSeeds: async (uploadId, chunk, part) => (calls.push(`uploadSeeds ${uploadId} ${part}`), uploads.append(uploadId, chunk, part)),
    health: async () => ({ ok: true, pid: 1, uptimeSeconds: 1, crawls: [...crawls.values()].filter((c) => c.status === 'running').map((c) => c.id) }),
    listCrawls: async () => (calls.push('listCrawls'), [...crawls.values()]),
    createCrawl: async (raw) => {
      calls.push('createCrawl');
      let req: ReturnType<typeof parseCreateRequest>;
      try {
        req = parseCreateRequest(raw);
      } catch (err) {
        return Promise.reject(err);
      }
      let seedText: string;
      try {
        seedText = req.demoWeb ? '' : req.seedUploadId !== undefined ? uploads.text(req.seedUploadId, 'seedUploadId') : (req.seedText ?? '');
      } catch (err) {
        return Promise.reject(err);
      }
      const bad = req.demoWeb ? undefined : parseSeeds(seedText).problems[0];
      if (!req.demoWeb && (!seedText || bad)) return fail('CRAWL_BAD_SEED', bad ? `seeds: line ${bad.line}: “${bad.text}”: ${bad.problem}` : 'no seed', 'seedText');
      if (req.seedUploadId !== undefined) uploads.drop(req.seedUploadId);
      const id = req.name ?? 'c1';
      if (crawls.has(id)) return fail('CRAWL_SETTINGS_CONFLICT', `a crawl named "${id}" already exists`, 'name');
      const info = crawlInfo(id, { demoWeb: !!req.demoWeb, policy: req.policy ?? 'breadth-first' });
      crawls.set(info.id, info);
      settings.set(id, settingsOf(id, { ...req, seedText }));
      return info;
    },
    // The engine's checks of the options (its schema; the crawls they name must exist), then the crawl as createCrawl makes it.
    createParallelCrawl: async (raw) => {
      const { parallel: p, ...req } = raw ?? ({} as typeof raw);
      let options: ParallelOptions;
      try {
        options = checkRequest(ParallelOptionsSchema, p ?? {}, 'a parallel crawl') as ParallelOptions;
      } catch (err) {
        return Promise.reject(err);
      }
      for (const [field, id] of [['partition', options.partition?.crawl], ['predictFrom', options.predictFrom]] as const) {
        if (id !== undefined && !crawls.has(id)) return fail('CRAWL_DB_MISSING', `no crawl named "${id}"`, field);
      }
      const info = await api.createCrawl(req);
      calls.push(`createParallelCrawl ${info.id} ${options.parts}`);
      parallel.set(info.id, { crawlId: info.id, options, progress: null });
      return info;
    },
    parallelCrawl: (id) => known(id, () => parallel.get(id) ?? null),
    onParallelProgress: (cb) => (parallelCbs.add(cb), () => void parallelCbs.delete(cb)),
    crawlSettings: (id) => known(id, () => settings.get(id) ?? settingsOf(id, { seedText: 'http://a.test/' })),
    start: (id) => (calls.push(`start ${id}`), known(id, (c) => Object.assign(c, { status: 'running' as const }))),
    pause: async (id) => (calls.push(`pause ${id}`), Object.assign(crawls.get(id)!, { status: 'paused' as const })),
    resume: async (id) => (calls.push(`resume ${id}`), Object.assign(crawls.get(id)!, { status: 'running' as const })),
    stop: async (id) => (calls.push(`stop ${id}`), Object.assign(crawls.get(id)!, { status: 'stopped' as const, endReason: { kind: 'stopped' as const, at: '2026-01-01T00:00:00Z' } })),
    deleteCrawl: async (id) => {
      calls.push(`delete ${id}`);
      if (!crawls.has(id)) return fail('CRAWL_DB_MISSING', `no crawl named "${id}"`);
      if (crawls.get(id)?.status === 'running') return fail('CRAWL_DB_LOCKED', 'running');
      crawls.delete(id);
    },
    currentStats: async () => null,
    // sites: a test's rows for a crawl (`sites`), else one site; filtered, sorted and paged as the engine does.
    listSites: async (id, q) => fakeSitesPage(sites.get(id) ?? [fakeSiteRow('a.test')], q),
    // pages: a test's pages for a crawl (`pages`), searched and looked up as the engine does; else any URL but "missing" is a page with a hostile title.
    getPage: async (id, url, links) =>
      known(id, () => {
        const held = pages.get(id);
        if (held) return fakePageDetail(held, url, links);
        const { linkLimit, inOffset, outOffset } = parsePageLinks(links);
        return url.includes('missing') ? null : { url, status: 'fetched', httpStatus: 200, title: '<img src=x onerror=alert(1)>', contentType: 'text/html', bytes: 10, depth: 0, errorCode: null, fetchedAt: 1, fetchSeq: 1, inLinks: [], outLinks: [], truncated: false, pagerank: null, pagerankRun: null, discoveryPath: [], inLinkCount: 0, outLinkCount: 0, inOffset, outOffset, linkLimit };
      }),
    searchPages: async (id, q) => known(id, () => fakeSearchPages(pages.get(id) ?? fakePages(3), q)),
    recentErrors: async () => [{ url: 'http://a.test/x', code: 'CRAWL_HTTP_4XX', httpStatus: 404 }],
    timeline: (id) => known(id, () => ({ stored: true, points: [] })),
    parkedSites: async () => [{ host: 'b.test', code: 'CRAWL_ROBOTS_UNAVAILABLE', pagesSkipped: 2, skipped: ['http://b.test/', 'http://b.test/x'] }],
    // results: PageRank and the evaluation of a tiny graph, the evaluation by the engine's own metrics().
    runPageRank: async (id) =>
      known(id, (c) => {
        if (c.status === 'running') throw Object.assign(new Error(`crawl "${id}" is running; pause it before computing PageRank`), { name: 'CrawlError', code: 'CRAWL_DB_LOCKED' });
        calls.push(`runPageRank ${id}`);
        analysisCbs.forEach((cb) => cb({ crawlId: id, what: 'pagerank', fraction: 0.5, step: 'computing the PageRank of 4 pages' }));
        const run = (kind: 'page' | 'site', runId: number, top: Array<{ name: string; value: number }>) => ({ kind, runId, damping: 0.85, tolerance: 1e-9, iterations: 12, delta: 1e-10, nodes: top.length, edges: 3, loadSeconds: 0.01, computeSeconds: 0.02, storeSeconds: 0.01, top });
        const result = { page: run('page', 1, FAKE_PAGES), site: run('site', 2, [{ name: 'a.test', value: 0.7 }, { name: 'b.test', value: 0.3 }]) };
        const stored = (r: typeof result.page) => ({ kind: r.kind, runId: r.runId, damping: r.damping, tolerance: r.tolerance, iterations: r.iterations, nodes: r.nodes, edges: r.edges, createdAt: '2026-01-01T00:00:00.000Z', current: true, top: r.top });
        storedRanks.set(id, { page: stored(result.page), site: stored(result.site) });
        return result;
      }),
    // The request checked by the engine's own schema (ranking/request-schema.ts); the measure named as the engine names it.
    runEvaluation: async (id, opts) =>
      known(id, () => {
        const req = checkRequest(EvaluationRequestSchema, opts ?? {}, 'an evaluation');
        calls.push(`runEvaluation ${id}${req.measure ? ` ${req.measure}` : ''}`);
        analysisCbs.forEach((cb) => cb({ crawlId: id, what: 'evaluation', fraction: 0.8, step: "Kendall's tau, Crawl & Stop and the curves" }));
        // Fetched in this order: the second page holds the most PageRank.
        const values = Float64Array.from([0.2, 0.4, 0.1, 0.3]);
        const times = Float64Array.from([0, 1000, 2000, 3000]);
        const name = req.measure ?? 'pagerank';
        const measure = { name, scale: name === 'pagerank' ? 'PageRank normalised over the fetched pages' : `the fake's ${name}`, damping: name === 'ir' ? (req.damping ?? 0.9) : null, text: name === 'similarity' ? ('titles' as const) : null, query: req.query ?? null, location: req.location ?? null, hot: 'threshold' as const };
        const pagerank = name === 'pagerank' && req.damping === undefined;
        return { db: `${id}.db`, oracle: null, truth: !pagerank ? 'computed' : storedRanks.has(id) ? 'stored' : 'computed', damping: measure.damping ?? 0.85, truthCovered: 1, measure, ...metrics({ values, times }, { threshold: req.hotThreshold, points: req.points }) };
      }),
    // results: a crawl's stored PageRank as the engine reads it back (null until a test stores one).
    pageRankResult: (id) => known(id, () => storedRanks.get(id) ?? null),
    onAnalysisProgress: (cb) => (analysisCbs.add(cb), () => void analysisCbs.delete(cb)),
    cancelAnalysis: async (id) => void calls.push(`cancelAnalysis ${id}`),
    startExport: async (id, req) =>
      known(id, () => {
        // The engine's own checks of a request (the out path is the engine's to choose).
        // A request may carry what its type has not (it comes as JSON): an out path is refused by name.
        if ((req as { out?: unknown } | undefined)?.out !== undefined) throw badField('out', 'the workbench writes exports into its workspace; a path cannot be chosen here');
        parseExportOptions({ ...req, out: '/fake/out', filters: { sites: req?.sites, statuses: req?.statuses, contentTypes: req?.contentTypes, seq: req?.seq } });
        const exportId = `${id}-export-${exports.size + 1}`;
        const dto: ExportJobDto = {
          exportId, crawlId: id, format: req.format, what: req.what ?? 'pages', state: 'running', done: 0, total: 100, unit: req.format === 'warc' ? 'pages' : req.what ?? 'pages',
          bytesWritten: 0, etaSeconds: null, startedAt: new Date(Date.now() + exports.size).toISOString(), endedAt: null, files: [], warnings: [], error: null,
        };
        exports.set(exportId, dto);
        calls.push(`startExport ${id} ${req.format}`);
        return { exportId };
      }),
    cancelExport: async (exportId) => {
      const dto = exports.get(exportId);
      if (!dto) return fail('CRAWL_BAD_OPTION', `no export "${exportId}" under way`, 'exportId');
      calls.push(`cancelExport ${exportId}`);
      if (dto.state === 'running') emitExport({ ...dto, state: 'cancelled', endedAt: new Date().toISOString(), error: { name: 'CrawlError', code: 'CRAWL_CANCELLED', message: 'the export was cancelled' } });
      return exports.get(exportId)!;
    },
    listExports: async (crawlId) => [...exports.values()].filter((e) => crawlId === undefined || e.crawlId === crawlId).reverse(),
    onExportProgress: (cb) => (exportCbs.add(cb), () => void exportCbs.delete(cb)),
    compareCrawls: async (a, b) => {
      const missing = [a, b].find((id) => !crawls.has(id));
      return missing ? fail('CRAWL_DB_MISSING', `no crawl named "${missing}"`) : fail('CRAWL_INTERNAL', 'the fake API compares nothing');
    },
    cancelCompare: async () => {},
    partitionCrawl: async (id, raw) =>
      known(id, (c) => {
        const req = parsePartitionRequest(raw);
        // A crawl never run has no pages, so no links: the engine's refusal.
        if (c.status === 'created') throw Object.assign(new Error(`${id}.db has no pages and no links: there is nothing to partition`), { name: 'CrawlError', code: 'CRAWL_GRAPH_NO_LINKS' });
        calls.push(`partitionCrawl ${id} ${req.models.join(',')} ${req.parts.join(',')}`);
        const report = fakePartitionReport(id, req);
        report.rows.forEach((_r, i) => partitionCbs.forEach((cb) => cb({ jobId: req.jobId ?? 'p1', crawlId: id, done: i + 1, total: report.rows.length, step: `step ${i + 1}` })));
        return report;
      }),
    cancelPartition: async (jobId) => void calls.push(`cancelPartition ${jobId}`),
    exportGraph: async (id, req) =>
      known(id, () => {
        const { model, format } = checkRequest(GraphExportRequestSchema, req ?? {}, 'a graph export request');
        calls.push(`exportGraph ${id} ${model} ${format}`);
        const file = (name: string) => ({ name, bytes: 10, path: `/fake/exports/graph-${id}/${name}`, href: `/exports/graph-${id}/${name}` });
        return { model, format, vertices: 4, edges: 3, sizeUnit: 1024, files: [file(`${model}.${format}`), file(`${model}.${format}.ids.tsv`)] };
      }),
    onPartitionProgress: (cb) => (partitionCbs.add(cb), () => void partitionCbs.delete(cb)),
    // No fake comparison reports progress; the Compare view's test sets its own.
    onCompareProgress: () => () => undefined,
    onStats: (cb) => (statsCbs.add(cb), () => void statsCbs.delete(cb)),
    onCrawlState: (cb) => (stateCbs.add(cb), () => void stateCbs.delete(cb)),
    ...simulations.methods,
  };
  /** An export's progress as the engine would send it (kept as its state, then sent to subscribers). */
  function emitExport(e: ExportJobDto): void {
    exports.set(e.exportId, e);
    exportCbs.forEach((cb) => cb(e));
  }
  /** A parallel crawl's figures as the engine would send them (kept as its latest). */
  function emitParallel(e: ParallelProgressEvent): void {
    const dto = parallel.get(e.crawlId);
    if (dto) dto.progress = e;
    parallelCbs.forEach((cb) => cb(e));
  }
  return { api, calls, crawls, exports, storedRanks, sites, pages, simulations, parallel, emitExport, emitParallel, emitStats: (s: StatsEvent) => statsCbs.forEach((cb) => cb(s)), emitState: (e: CrawlStateEvent) => stateCbs.forEach((cb) => cb(e)) };
}

/** A partition report of the right shape: volume falls with a partitioner, grows with K; Zoltan PHG and KaHyPar both on the hypergraphs. */
function fakePartitionReport(id: string, req: ReturnType<typeof parsePartitionRequest>): PartitionReport {
  const rows: PartitionRow[] = [];
  for (const k of req.parts) {
    for (const level of ['page', 'site'] as const) {
      if (!req.models.some((m) => m.startsWith(level))) continue;
      const made: Array<[Partitioner, GraphModel]> = [['hash', level]];
      for (const m of req.models.filter((x) => x.startsWith(level))) {
        if (m.endsWith('hypergraph')) made.push(['Zoltan PHG', m], ['KaHyPar', m]);
        else made.push(['gpmetis', m]);
      }
      for (const [partitioner, model] of made) {
        const f = partitioner === 'hash' ? 100 : partitioner === 'KaHyPar' ? 0.9 : 1;
        const m = { parts: k, storageImbalance: 4, requestImbalance: 3, volume: 1000 * f * k, messages: 10 * f * k, linksInside: 1 / Math.max(1, f), sitesSplit: 0 };
        rows.push({ level, model, method: COLUMNS[partitioner].method, partitioner, parts: k, runs: partitioner === 'hash' ? 1 : req.runs, mean: m, best: m, seconds: 0.01 });
      }
    }
  }
  const tools = [
    { name: 'gpmetis' as const, path: '/usr/bin/gpmetis' },
    { name: 'Zoltan PHG' as const, path: '/home/u/.cache/crawlbench/zoltan/crawlbench-phg' },
    { name: 'KaHyPar' as const, path: '/opt/KaHyPar' },
  ];
  return { source: `${id}.db`, pages: 100, links: 400, sites: 4, sizesKnown: 100, defaultSize: 10127, models: req.models, parts: req.parts, runs: req.runs, hash: 'FNV-1a', tools, rows, seconds: 0.1 };
}
