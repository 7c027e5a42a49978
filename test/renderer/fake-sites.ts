/**
 * listSites for the in-memory API: rows held by the test, filtered, sorted and paged as the
 * engine does (its own query check, so a bad field is refused the same way; ties by the order
 * given, as the engine falls back to the site id).
 */
import type { SiteRowDto, SiteSortKey, SitesPage } from '../../core/api/contract.js';
import { checkSitesQuery } from '../../core/api/sites-query.js';

export function fakeSiteRow(host: string, extra: Partial<SiteRowDto> = {}): SiteRowDto {
  return {
    host, pagesFetched: 3, pagesKnown: 4, bytes: 10, errors: 0, connectMs: 1, responseMs: 2, requestsPerConn: 1, parked: null,
    state: 'done', errorsByKind: {}, robots: { state: 'fetched', status: 200, origins: 1 }, crawlDelayMs: null, pagerank: null,
    schemes: ['http'], certificate: null, ...extra,
  };
}

/** `n` sites, www.site0.test ... with counts that differ, every seventh parked, every fifth with errors. */
export function fakeSiteRows(n: number, withPagerank = true): SiteRowDto[] {
  return Array.from({ length: n }, (_, i) =>
    fakeSiteRow(`www.site${i}.test`, {
      pagesFetched: (i * 37) % 101,
      pagesKnown: 101 + i,
      bytes: ((i * 7919) % 1000) * 1024,
      errors: i % 5 === 0 ? i + 1 : 0,
      errorsByKind: i % 5 === 0 ? { CRAWL_HTTP_5XX: i + 1 } : {},
      parked: i % 7 === 3 ? 'CRAWL_ROBOTS_UNAVAILABLE' : null,
      state: i % 7 === 3 ? 'parked' : i % 3 === 0 ? 'pending' : 'done',
      robots: i % 7 === 3 ? { state: 'unavailable', status: 503, origins: 1 } : { state: 'fetched', status: 200, origins: 1 },
      crawlDelayMs: i % 4 === 0 ? 1000 : null,
      pagerank: withPagerank ? 1 / (i + 2) : null,
      // Every third on https too; every eleventh's certificate expired.
      schemes: i % 3 === 0 ? ['http', 'https'] : ['http'],
      certificate: i % 3 !== 0 ? null : i % 11 === 0 ? 'CRAWL_TLS_EXPIRED' : 'ok',
    }),
  );
}

const VALUE: Readonly<Record<SiteSortKey, (r: SiteRowDto) => string | number | null>> = {
  host: (r) => r.host,
  pages_fetched: (r) => r.pagesFetched,
  pages_known: (r) => r.pagesKnown,
  bytes: (r) => r.bytes,
  errors: (r) => r.errors,
  connect_ms: (r) => r.connectMs,
  response_ms: (r) => r.responseMs,
  requests_per_conn: (r) => r.requestsPerConn,
  crawl_delay: (r) => r.crawlDelayMs,
  site_pagerank: (r) => r.pagerank,
  state: (r) => r.state,
};

export function fakeSitesPage(all: readonly SiteRowDto[], query: unknown): SitesPage {
  const q = checkSitesQuery(query);
  const value = VALUE[q.sort];
  const rows = all
    .filter((r) => (q.host === null || r.host.includes(q.host)) && (q.state === null || r.state === q.state) && (!q.errorsOnly || r.errors > 0))
    .map((r, i) => ({ r, i }))
    .sort((a, b) => {
      const [x, y] = [value(a.r), value(b.r)];
      if (x === null || y === null) return x === y ? a.i - b.i : x === null ? 1 : -1;
      const c = x < y ? -1 : x > y ? 1 : 0;
      return (q.descending ? -c : c) || a.i - b.i;
    })
    .map((e) => e.r);
  const hasRank = all.some((r) => r.pagerank !== null);
  return {
    total: rows.length,
    allSites: all.length,
    pagerankRun: hasRank ? { id: 2, createdAt: '2026-01-01T00:00:00.000Z' } : null,
    rows: rows.slice(q.offset, q.offset + q.limit),
  };
}
