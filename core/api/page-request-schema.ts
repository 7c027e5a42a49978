/**
 * The Pages view's requests as schemas (issue 24): a search (searchPages) and which links of a
 * page to list (getPage). The engine checks with them (pages-query.ts), and so does the view
 * before it asks, so both refuse a bad field with the same words. Browser-safe: zod and the
 * sites contract's constants only (the renderer imports it).
 */
import { z } from 'zod';
import { PAGE_SORT_KEYS, PAGE_STATUS_FILTERS } from './contracts/sites.js';

export const MAX_DEPTH = 1000;
const MAX_OFFSET = 1_000_000_000;

/** A whole number within a range; null or absent: not given. */
function whole(min: number, max: number) {
  const words = `must be a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}`;
  return z.number({ error: words }).int(words).min(min, words).max(max, words).nullable().optional();
}

/** Text of at most `max` characters, trimmed; empty, null or absent: not given. */
const text = (max: number) =>
  z
    .string()
    .max(max)
    .nullable()
    .optional()
    .transform((v) => (v === null || v === undefined || v.trim() === '' ? undefined : v.trim()));
const flag = z.boolean().nullable().optional();

export const PageSearchSchema = z
  .object({
    url: text(500),
    site: text(300),
    status: z.enum(PAGE_STATUS_FILTERS).nullable().optional(),
    type: text(200),
    depth: whole(0, MAX_DEPTH),
    exactDepth: flag,
    sort: z.enum(PAGE_SORT_KEYS).nullable().optional(),
    descending: flag,
    offset: whole(0, MAX_OFFSET),
    limit: whole(1, 500),
  }, { error: 'must be a set of search fields' })
  .strict()
  .transform((q) => {
    const sort = q.sort ?? 'fetch';
    return {
      url: q.url,
      site: q.site,
      status: q.status ?? undefined,
      type: q.type,
      depth: q.depth ?? undefined,
      exactDepth: q.exactDepth ?? undefined,
      sort,
      descending: q.descending ?? sort !== 'fetch',
      offset: q.offset ?? 0,
      limit: q.limit ?? 50,
    };
  });

export const PageLinksSchema = z
  .object({ linkLimit: whole(1, 1000), inOffset: whole(0, MAX_OFFSET), outOffset: whole(0, MAX_OFFSET) }, { error: 'must be a set of link fields' })
  .strict()
  .transform((l) => ({ linkLimit: l.linkLimit ?? 100, inOffset: l.inOffset ?? 0, outOffset: l.outOffset ?? 0 }));
