/**
 * The checks of the Pages view's requests (searchPages, getPage's links), shared by the engine
 * (page-queries.ts) and the renderer's fake API, so both refuse a bad field alike. Imports
 * nothing but the contract and the errors.
 */
import { badField } from '../errors.js';
import { PAGE_SORT_KEYS, PAGE_STATUS_FILTERS, type PageLinksQuery, type PageSearchQuery, type PageSortKey, type PageStatusFilter } from './contract.js';

const MAX_DEPTH = 1000;
const MAX_OFFSET = 1_000_000_000;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function text(q: Record<string, unknown>, field: string, max: number): string | undefined {
  const v = q[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw badField(field, 'must be text');
  if (v.length > max) throw badField(field, `at most ${max} characters`);
  return v.trim() === '' ? undefined : v.trim();
}

function integer(q: Record<string, unknown>, field: string, min: number, max: number): number | undefined {
  const v = q[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) throw badField(field, 'must be a whole number');
  if (v < min || v > max) throw badField(field, `must be between ${min} and ${max}`);
  return v;
}

function flag(q: Record<string, unknown>, field: string): boolean | undefined {
  const v = q[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw badField(field, 'must be true or false');
  return v;
}

/** A search request checked field by field; throws badField on the first bad one. */
export function parsePageSearch(query: unknown): Required<Pick<PageSearchQuery, 'sort' | 'descending' | 'offset' | 'limit'>> & PageSearchQuery {
  if (query === undefined || query === null) query = {};
  if (!isObject(query)) throw badField('query', 'must be an object of search fields');
  const known = new Set(['url', 'site', 'status', 'type', 'depth', 'exactDepth', 'sort', 'descending', 'offset', 'limit']);
  for (const k of Object.keys(query)) if (!known.has(k)) throw badField(k, 'is not a search field');
  const status = query.status;
  if (status !== undefined && status !== null && !(PAGE_STATUS_FILTERS as readonly unknown[]).includes(status)) {
    throw badField('status', `must be one of ${PAGE_STATUS_FILTERS.join(', ')}`);
  }
  const sort = query.sort ?? 'fetch';
  if (!(PAGE_SORT_KEYS as readonly unknown[]).includes(sort)) throw badField('sort', `must be one of ${PAGE_SORT_KEYS.join(', ')}`);
  return {
    url: text(query, 'url', 500),
    site: text(query, 'site', 300),
    status: (status ?? undefined) as PageStatusFilter | undefined,
    type: text(query, 'type', 200),
    depth: integer(query, 'depth', 0, MAX_DEPTH),
    exactDepth: flag(query, 'exactDepth'),
    sort: sort as PageSortKey,
    descending: flag(query, 'descending') ?? sort !== 'fetch',
    offset: integer(query, 'offset', 0, MAX_OFFSET) ?? 0,
    limit: integer(query, 'limit', 1, 500) ?? 50,
  };
}

export function parsePageLinks(links: unknown): Required<PageLinksQuery> {
  if (links === undefined || links === null) return { linkLimit: 100, inOffset: 0, outOffset: 0 };
  if (typeof links === 'number') {
    if (!Number.isFinite(links)) throw badField('linkLimit', 'must be a number');
    return { linkLimit: Math.min(Math.max(1, Math.floor(links)), 1000), inOffset: 0, outOffset: 0 };
  }
  if (!isObject(links)) throw badField('links', 'must be a number or an object of link fields');
  for (const k of Object.keys(links)) if (!['linkLimit', 'inOffset', 'outOffset'].includes(k)) throw badField(k, 'is not a link field');
  return {
    linkLimit: integer(links, 'linkLimit', 1, 1000) ?? 100,
    inOffset: integer(links, 'inOffset', 0, MAX_OFFSET) ?? 0,
    outOffset: integer(links, 'outOffset', 0, MAX_OFFSET) ?? 0,
  };
}

