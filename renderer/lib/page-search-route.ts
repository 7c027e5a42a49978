/**
 * The Pages view's place in its address (#/crawls/:id/pages?q=…&site=…&sort=…&from=…&url=…),
 * so that a reload or Back shows the same search, result page and inspected page. `url` is
 * the page open in the inspector (other views link with it), `site` the site filter (the
 * Sites view links with it); `in` and `out` are the inspector's link list offsets.
 */
import type { LocationQuery, LocationQueryRaw } from 'vue-router';
import { PAGE_SORT_KEYS, PAGE_STATUS_FILTERS, type PageSearchQuery, type PageSortKey, type PageStatusFilter } from '../../core/api/contract.js';

export const PAGE_LIMIT = 50;
export const LINK_LIMIT = 100;

const one = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const whole = (v: unknown): number | undefined => {
  const s = one(v);
  if (s === undefined || !/^\d{1,9}$/.test(s)) return undefined;
  return Number(s);
};

/** The search in the address (unknown values left out: the engine's defaults apply). */
export function searchFromRoute(q: LocationQuery): PageSearchQuery {
  const sort = one(q.sort);
  const status = one(q.status);
  const order = one(q.order);
  const out: PageSearchQuery = { limit: PAGE_LIMIT, offset: whole(q.from) ?? 0 };
  if (one(q.q)) out.url = one(q.q);
  if (one(q.site)) out.site = one(q.site);
  if (status && (PAGE_STATUS_FILTERS as readonly string[]).includes(status)) out.status = status as PageStatusFilter;
  if (one(q.type)) out.type = one(q.type);
  const depth = whole(q.depth);
  if (depth !== undefined && depth <= 1000) {
    out.depth = depth;
    out.exactDepth = one(q.exact) === '1';
  }
  if (sort && (PAGE_SORT_KEYS as readonly string[]).includes(sort)) out.sort = sort as PageSortKey;
  if (order === 'asc' || order === 'desc') out.descending = order === 'desc';
  return out;
}

/** The address's query for a search (and the page open in the inspector, if any). */
export function routeOfSearch(s: PageSearchQuery, open?: { url?: string; in?: number; out?: number }): LocationQueryRaw {
  const q: LocationQueryRaw = {};
  if (s.url) q.q = s.url;
  if (s.site) q.site = s.site;
  if (s.status) q.status = s.status;
  if (s.type) q.type = s.type;
  if (s.depth !== undefined) {
    q.depth = String(s.depth);
    if (s.exactDepth) q.exact = '1';
  }
  if (s.sort) q.sort = s.sort;
  if (s.descending !== undefined) q.order = s.descending ? 'desc' : 'asc';
  if (s.offset) q.from = String(s.offset);
  if (open?.url) {
    q.url = open.url;
    if (open.in) q.in = String(open.in);
    if (open.out) q.out = String(open.out);
  }
  return q;
}

/** The inspector's link offsets in the address. */
export function linkOffsets(q: LocationQuery): { inOffset: number; outOffset: number } {
  return { inOffset: whole(q.in) ?? 0, outOffset: whole(q.out) ?? 0 };
}

/** A date and time as the researcher's clock shows it: 2026-11-24 14:03:07. */
export function formatDateTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** A PageRank value (they sum to 1 over the crawl, so most are tiny): three significant digits. */
export function formatPageRank(v: number | null): string {
  if (v === null || !Number.isFinite(v)) return '–';
  return v === 0 ? '0' : v >= 1e-3 ? v.toPrecision(3) : v.toExponential(2);
}

export const STATUS_LABELS: Readonly<Record<PageStatusFilter, string>> = {
  fetched: 'Fetched',
  queued: 'Not fetched yet (queued)',
  duplicate: 'Duplicate of another page',
  failed: 'Failed',
  skipped: 'Skipped',
  disallowed: 'Disallowed by robots.txt',
  '2xx': 'HTTP 2xx (success)',
  '3xx': 'HTTP 3xx (redirect)',
  '4xx': 'HTTP 4xx (client error)',
  '5xx': 'HTTP 5xx (server error)',
};

export const SORT_LABELS: Readonly<Record<PageSortKey, string>> = {
  fetch: 'Fetch order',
  pagerank: 'PageRank',
  indegree: 'In-links (in-degree)',
};
