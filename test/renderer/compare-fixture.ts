/** A small CompareReport, as the engine's compareCrawls answers it over JSON (NaN as null). */
import type { CompareReport } from '../../core/api/contract.js';
import type { SideSummary } from '../../core/compare/report.js';

function side(path: string, policy: string): SideSummary {
  return {
    path, state: 'finished', seeds: ['http://a.test/'], scope: { suffixes: ['.test'], hosts: [], excludes: [], maxUrlLength: 2048 }, siteKey: 'host', policy, policyParams: {},
    w: 50, c: 10, r: 64, maxPages: null, maxDepth: 15, maxPagesPerSite: 25000, userAgent: 'ua', startedAt: '2026-01-01T00:00:00Z', durationSeconds: 12, pagesKnown: 120, sites: 3,
  };
}

export function compareReport(extra: Partial<CompareReport> = {}): CompareReport {
  const curve = [0, 50, 100].map((pages, i) => ({ pages, fraction: i / 2, cumulative: [0, 0.7, 1][i]!, best: [0, 0.9, 1][i]!, random: i / 2 }));
  return {
    a: side('/w/a.db', 'breadth-first'),
    b: side('/w/b.db', 'historical-pagerank-parent'),
    warnings: ['the crawls have different scopes'],
    notes: ['PageRank computed in memory for the crawl(s) without a stored run (nothing was written)'],
    host: null,
    pages: { inA: 100, inB: 110, onlyA: 45, onlyB: 55, both: 55, jaccard: 55 / 155 },
    sites: { inA: 3, inB: 3, onlyA: 1, onlyB: 1, both: 2, jaccard: 0.5 },
    statusClasses: [{ status: 'in', a: 100, b: 110 }, { status: 'client-error', a: 0, b: 2 }],
    statusChanges: [{ from: 'in', to: 'in', pages: 55 }, { from: 'in', to: 'client-error', pages: 2 }],
    common: { pages: 55, contentChanged: 20, sizeChanged: 18, bytesA: 1000, bytesB: 1100, acrossSchemes: 0, notModifiedA: 0, notModifiedB: 12 },
    links: { linksA: 400, linksB: 420, kept: 300, added: 120, vanished: 100, newShare: 120 / 420 },
    pageLists: {
      added: [{ url: 'http://a.test/new', pageRankA: null, pageRankB: 0.02 }],
      removed: [{ url: 'http://c.test/', pageRankA: 0.03, pageRankB: null }],
      changed: [{ url: 'http://a.test/', pageRankA: 0.1, pageRankB: 0.09 }],
    },
    pagerank: {
      sourceA: 'computed', sourceB: 'stored', common: 55, kendallTauB: 0.61234, spearmanRho: 0.75, topK: [{ k: 100, overlap: 0.55 }, { k: 1000, overlap: null as unknown as number }],
      risers: [{ url: 'http://a.test/up', pageRankA: 0.001, pageRankB: 0.004, change: 2 }],
      fallers: [{ url: 'http://a.test/down', pageRankA: 0.004, pageRankB: 0.001, change: -2 }],
      pagesShareInA: 0.5, pageRankShareInA: 0.7212, scatter: [[1, 1.2], [0.5, 0.4], [0, 3]], curveA: curve, curveB: curve, averageCumulativeA: 0.6, averageCumulativeB: 0.7,
    },
    perSite: Array.from({ length: 30 }, (_, i) => ({
      site: `s${String(i).padStart(2, '0')}.test`, pagesA: 30 - i, pagesB: i, growth: i / (30 - i) - 1, added: i, removed: 1, changed: 0, bytesA: 10, bytesB: 20, errorsA: 0, errorsB: 0,
      connectMsA: null, connectMsB: 3, pagesPerConnectionA: null, pagesPerConnectionB: 2,
    })),
    timelines: { a: null, b: [{ t: 1, at: 1, pages: 10, bytes: 1, pagesPerSecond: 10, bytesPerSecond: 1, openConnections: 1, r: 1, sitesWithPending: 1, queued: 1, errors: 0, pagerankEstimate: null }] },
    ...extra,
  };
}
