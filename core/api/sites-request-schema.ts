/**
 * The Sites view's question (listSites) as a schema (issue 24): the engine checks a query with
 * it (sites-query.ts, as scripts reach the API too) and the Sites view's store checks its filter
 * form's query with it before it asks, so both refuse a bad field with the same words, never
 * clamped or ignored. Browser-safe: zod and the sites contract's constants only (the renderer
 * imports it).
 */
import { z } from 'zod';
import { SITE_SORT_KEYS, SITE_STATES, type SiteSortKey, type SiteStateDto } from './contracts/sites.js';

export const MAX_SITES_LIMIT = 500;
const MAX_HOST_TEXT = 500;

/** A whole number within a range; null or absent: the default. */
function whole(min: number, max: number) {
  const words = `must be a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}`;
  return z.number({ error: words }).int(words).min(min, words).max(max, words).nullish();
}
const flag = z.boolean({ error: 'must be true or false' }).nullish();

export interface CheckedSitesQuery {
  offset: number;
  limit: number;
  sort: SiteSortKey;
  descending: boolean;
  host: string | null;
  state: SiteStateDto | null;
  errorsOnly: boolean;
}

export const SitesQuerySchema = z
  .object(
    {
      offset: whole(0, 1_000_000_000),
      limit: whole(1, MAX_SITES_LIMIT),
      sort: z.enum(SITE_SORT_KEYS, { error: `must be one of ${SITE_SORT_KEYS.join(', ')}` }).nullish(),
      descending: flag,
      /** Sites whose host holds this text (any case); empty: all. */
      host: z.string({ error: 'must be text' }).max(MAX_HOST_TEXT).nullish(),
      state: z.enum(SITE_STATES, { error: `must be one of ${SITE_STATES.join(', ')}` }).nullish(),
      errorsOnly: flag,
    },
    { error: 'must be an object of filters, sort and paging' },
  )
  // An unknown field is refused by name (a misspelt filter was ignored, and every site listed).
  .strict()
  .transform((q): CheckedSitesQuery => {
    const sort = q.sort ?? 'pages_fetched';
    const host = (q.host ?? '').trim().toLowerCase();
    return {
      offset: q.offset ?? 0,
      limit: q.limit ?? 50,
      sort,
      // Largest first, except host and state (A to Z).
      descending: q.descending ?? (sort !== 'host' && sort !== 'state'),
      host: host === '' ? null : host,
      state: q.state ?? null,
      errorsOnly: q.errorsOnly ?? false,
    };
  });
