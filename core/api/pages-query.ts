/**
 * The checks of the Pages view's requests (searchPages, getPage's links), shared by the engine
 * (page-queries.ts) and the renderer's fake API: the schemas of page-request-schema.ts, which
 * the view checks with too, so all refuse a bad field alike.
 */
import { badField } from '../errors.js';
import type { PageLinksQuery, PageSearchQuery } from './contract.js';
import { PageLinksSchema, PageSearchSchema } from './page-request-schema.js';
import { checkRequest } from './request-check.js';

/** A search request checked by the one schema (page-request-schema.ts: the Pages view checks with it too). */
export function parsePageSearch(query: unknown): Required<Pick<PageSearchQuery, 'sort' | 'descending' | 'offset' | 'limit'>> & PageSearchQuery {
  if (query !== undefined && query !== null && (typeof query !== 'object' || Array.isArray(query))) throw badField('query', 'must be an object of search fields');
  return checkRequest(PageSearchSchema, query ?? {}, 'a page search');
}

export function parsePageLinks(links: unknown): Required<PageLinksQuery> {
  if (links === undefined || links === null) return { linkLimit: 100, inOffset: 0, outOffset: 0 };
  if (typeof links === 'number') {
    if (!Number.isFinite(links)) throw badField('linkLimit', 'must be a number');
    return { linkLimit: Math.min(Math.max(1, Math.floor(links)), 1000), inOffset: 0, outOffset: 0 };
  }
  if (typeof links !== 'object' || Array.isArray(links)) throw badField('links', 'must be a number or an object of link fields');
  return checkRequest(PageLinksSchema, links, 'the links of a page');
}
