/**
 * An in-memory CrawlbenchApi for store tests: records calls, lets a test push events. It
 * passes the same shape suite as the engine (test/renderer/fake-api.test.ts), and checks
 * requests and seeds with the engine's own parsers, so the UI's tests cannot drift from it.
 */
import type { CrawlbenchApi, CrawlInfo, CrawlSettingsDto, CrawlStateEvent, CreateCrawlRequest, StatsEvent } from '../../core/api/contract.js';
import { parseCreateRequest } from '../../core/api/create-request.js';
import { DEMO_DEFAULTS } from '../../core/api/demo-webs.js';
import { parseSeeds, seedSettings } from '../../core/api/seeds.js';
import { validateSettings } from '../../core/config/settings.js';

export function crawlInfo(id: string, extra: Partial<CrawlInfo> = {}): CrawlInfo {
  return { id, status: 'created', policy: 'breadth-first', pagesFetched: 0, pagesKnown: 1, queued: 1, sites: 1, sizeBytes: 4096, createdAt: '2026-01-01', demoWeb: false, endReason: null, historyMatched: null, ...extra };
}

export function stats(crawlId: string, i: number, extra: Partial<StatsEvent> = {}): StatsEvent {
  return {
    crawlId, at: 1_000_000 + i * 1000, elapsedSeconds: i, pages: i * 10, pagesPerSecond: 10, bytes: i * 1000, bytesPerSecond: 1000,
    openConnections: 3, r: 8, sitesWithPending: 5, queued: 100 - i, errors: {}, errorTotal: 0, pagerankEstimate: i / 1000, rssBytes: 1, crawlSeconds: i, ...extra,
  };
}

/** The settings the engine would store for a request (its own defaults), as crawlSettings answers them. */
export function settingsOf(id: string, req: CreateCrawlRequest): CrawlSettingsDto {
  const demo = req.demoWeb ? { ...DEMO_DEFAULTS, ...(typeof req.demoWeb === 'object' ? req.demoWeb : {}) } : null;
  const seeds = demo ? { seeds: ['http://www1.site0.demo:1/'], scope: { suffixes: ['.demo'], hosts: [] } } : seedSettings(parseSeeds(req.seedText ?? ''));
  const demoPoliteness = demo ? { w: req.w ?? 50, c: req.c ?? 10, r: req.r ?? 64 } : {};
  const { name: _n, seedText: _s, demoWeb: _d, historyCrawl, allowShortW: _a, ...rest } = req;
  const s = validateSettings({ ...rest, ...demoPoliteness, ...seeds });
  return {
    id, seeds: s.seeds, scope: { suffixes: s.scope.suffixes, hosts: s.scope.hosts, excludes: s.scope.excludes }, seedText: demo ? '' : [...s.seeds, ...s.scope.suffixes].join('\n'),
    siteKey: s.siteKey, policy: s.policy, policyParams: s.policyParams, historyCrawl: historyCrawl ?? null, w: s.w, c: s.c, r: s.r, batch: s.batch, maxPages: s.maxPages,
    maxDepth: s.maxDepth, maxPagesPerSite: s.maxPagesPerSite, userAgent: s.userAgent, storeContent: s.storeContent, contentBudget: s.contentBudget,
    demoWeb: demo ? { sites: demo.sites, pages: demo.pages, latencyMs: demo.latencyMs, revision: demo.revision ?? 1 } : null,
  };
}

export function fakeApi() {
  const crawls = new Map<string, CrawlInfo>();
  const settings = new Map<string, CrawlSettingsDto>();
  const calls: string[] = [];
  const statsCbs = new Set<(s: StatsEvent) => void>();
  const stateCbs = new Set<(s: CrawlStateEvent) => void>();
  const fail = (code: string, message: string, field?: string) => Promise.reject(Object.assign(new Error(message), { name: 'CrawlError', code, ...(field ? { field } : {}) }));
  /** The crawl, or the engine's CRAWL_DB_MISSING. */
  const known = <T>(id: string, then: (c: CrawlInfo) => T): Promise<T> => {
    const c = crawls.get(id);
    return c ? Promise.resolve(then(c)) : fail('CRAWL_DB_MISSING', `no crawl named "${id}"`);
  };
  const api: CrawlbenchApi = {
    listPolicies: async () => [{ name: 'breadth-first', summary: 'FIFO', params: [] }],
    parseSeeds: async (text) => parseSeeds(text),
    listCrawls: async () => (calls.push('listCrawls'), [...crawls.values()]),
    createCrawl: async (raw) => {
      calls.push('createCrawl');
      let req: ReturnType<typeof parseCreateRequest>;
      try {
        req = parseCreateRequest(raw);
      } catch (err) {
        return Promise.reject(err);
      }
      const bad = req.demoWeb ? undefined : parseSeeds(req.seedText ?? '').problems[0];
      if (!req.demoWeb && (!req.seedText || bad)) return fail('CRAWL_BAD_SEED', bad ? `seeds: line ${bad.line}: “${bad.text}”: ${bad.problem}` : 'no seed', 'seedText');
      const id = req.name ?? 'c1';
      if (crawls.has(id)) return fail('CRAWL_SETTINGS_CONFLICT', `a crawl named "${id}" already exists`, 'name');
      const info = crawlInfo(id, { demoWeb: !!req.demoWeb, policy: req.policy ?? 'breadth-first' });
      crawls.set(info.id, info);
      settings.set(id, settingsOf(id, req));
      return info;
    },
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
    listSites: async () => ({ total: 1, rows: [{ host: 'a.test', pagesFetched: 3, pagesKnown: 4, bytes: 10, errors: 0, connectMs: 1, responseMs: 2, requestsPerConn: 1, parked: null }] }),
    getPage: (id, url) => known(id, () => (url.includes('missing') ? null : { url, status: 'fetched', httpStatus: 200, title: '<img src=x onerror=alert(1)>', contentType: 'text/html', bytes: 10, depth: 0, errorCode: null, fetchedAt: 1, inLinks: [], outLinks: [], truncated: false })),
    recentErrors: async () => [{ url: 'http://a.test/x', code: 'CRAWL_HTTP_4XX', httpStatus: 404 }],
    timeline: (id) => known(id, () => ({ stored: true, points: [] })),
    parkedSites: async () => [{ host: 'b.test', code: 'CRAWL_ROBOTS_UNAVAILABLE', pagesSkipped: 2, skipped: ['http://b.test/', 'http://b.test/x'] }],
    runPageRank: () => fail('CRAWL_INTERNAL', 'not yet'),
    runEvaluation: () => fail('CRAWL_INTERNAL', 'not yet'),
    startExport: () => fail('CRAWL_INTERNAL', 'not yet'),
    compareCrawls: async (a, b) => {
      const missing = [a, b].find((id) => !crawls.has(id));
      return missing ? fail('CRAWL_DB_MISSING', `no crawl named "${missing}"`) : fail('CRAWL_INTERNAL', 'the fake API compares nothing');
    },
    cancelCompare: async () => {},
    onStats: (cb) => (statsCbs.add(cb), () => void statsCbs.delete(cb)),
    onCrawlState: (cb) => (stateCbs.add(cb), () => void stateCbs.delete(cb)),
  };
  return { api, calls, crawls, emitStats: (s: StatsEvent) => statsCbs.forEach((cb) => cb(s)), emitState: (e: CrawlStateEvent) => stateCbs.forEach((cb) => cb(e)) };
}
