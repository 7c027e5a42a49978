/** An in-memory CrawlbenchApi for store tests: records calls, lets a test push events. */
import type { CrawlbenchApi, CrawlInfo, CrawlStateEvent, StatsEvent } from '../../core/api/contract.js';

export function crawlInfo(id: string, extra: Partial<CrawlInfo> = {}): CrawlInfo {
  return { id, status: 'created', policy: 'breadth-first', pagesFetched: 0, pagesKnown: 1, queued: 1, sites: 1, sizeBytes: 4096, createdAt: '2026-01-01', demoWeb: false, endReason: null, historyMatched: null, ...extra };
}

export function stats(crawlId: string, i: number, extra: Partial<StatsEvent> = {}): StatsEvent {
  return {
    crawlId, at: 1_000_000 + i * 1000, elapsedSeconds: i, pages: i * 10, pagesPerSecond: 10, bytes: i * 1000, bytesPerSecond: 1000,
    openConnections: 3, r: 8, sitesWithPending: 5, queued: 100 - i, errors: {}, errorTotal: 0, pagerankEstimate: i / 1000, rssBytes: 1, crawlSeconds: i, ...extra,
  };
}

export function fakeApi() {
  const crawls = new Map<string, CrawlInfo>();
  const calls: string[] = [];
  const statsCbs = new Set<(s: StatsEvent) => void>();
  const stateCbs = new Set<(s: CrawlStateEvent) => void>();
  const fail = (code: string, message: string) => Promise.reject(Object.assign(new Error(message), { name: 'CrawlError', code }));
  const api: CrawlbenchApi = {
    listPolicies: async () => [{ name: 'breadth-first', summary: 'FIFO', params: [] }],
    parseSeeds: async (text) => ({ urls: text.startsWith('http') ? [text] : [], hosts: [], suffixes: [], problems: text.startsWith('http') ? [] : [{ line: 1, text, problem: 'bad' }] }),
    listCrawls: async () => (calls.push('listCrawls'), [...crawls.values()]),
    createCrawl: async (req) => {
      calls.push('createCrawl');
      if (!req.demoWeb && !req.seedText) return fail('CRAWL_BAD_SEED', 'no seed');
      if (typeof req.w === 'number' && req.w > 3_600_000) return Promise.reject(Object.assign(new Error('w: must be a duration from 0 ms to 1 hour'), { name: 'CrawlError', code: 'CRAWL_BAD_OPTION', field: 'w' }));
      const info = crawlInfo(req.name ?? 'c1', { demoWeb: !!req.demoWeb });
      crawls.set(info.id, info);
      return info;
    },
    start: async (id) => (calls.push(`start ${id}`), Object.assign(crawls.get(id)!, { status: 'running' as const })),
    pause: async (id) => (calls.push(`pause ${id}`), Object.assign(crawls.get(id)!, { status: 'paused' as const })),
    resume: async (id) => (calls.push(`resume ${id}`), Object.assign(crawls.get(id)!, { status: 'running' as const })),
    stop: async (id) => (calls.push(`stop ${id}`), Object.assign(crawls.get(id)!, { status: 'stopped' as const, endReason: { kind: 'stopped' as const, at: '2026-01-01T00:00:00Z' } })),
    deleteCrawl: async (id) => {
      calls.push(`delete ${id}`);
      if (crawls.get(id)?.status === 'running') return fail('CRAWL_DB_LOCKED', 'running');
      crawls.delete(id);
    },
    currentStats: async () => null,
    listSites: async () => ({ total: 1, rows: [{ host: 'a.test', pagesFetched: 3, pagesKnown: 4, bytes: 10, errors: 0, connectMs: 1, responseMs: 2, requestsPerConn: 1, parked: null }] }),
    getPage: async (_id, url) => (url.includes('missing') ? null : { url, status: 'fetched', httpStatus: 200, title: '<img src=x onerror=alert(1)>', contentType: 'text/html', bytes: 10, depth: 0, errorCode: null, fetchedAt: 1, inLinks: [], outLinks: [], truncated: false }),
    recentErrors: async () => [{ url: 'http://a.test/x', code: 'CRAWL_HTTP_4XX', httpStatus: 404 }],
    timeline: async () => ({ stored: true, points: [] }),
    parkedSites: async () => [{ host: 'b.test', code: 'CRAWL_ROBOTS_UNAVAILABLE', pagesSkipped: 2, skipped: ['http://b.test/', 'http://b.test/x'] }],
    runPageRank: () => fail('CRAWL_INTERNAL', 'not yet'),
    runEvaluation: () => fail('CRAWL_INTERNAL', 'not yet'),
    startExport: () => fail('CRAWL_INTERNAL', 'not yet'),
    onStats: (cb) => (statsCbs.add(cb), () => void statsCbs.delete(cb)),
    onCrawlState: (cb) => (stateCbs.add(cb), () => void stateCbs.delete(cb)),
  };
  return { api, calls, crawls, emitStats: (s: StatsEvent) => statsCbs.forEach((cb) => cb(s)), emitState: (e: CrawlStateEvent) => stateCbs.forEach((cb) => cb(e)) };
}
