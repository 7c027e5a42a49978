/**
 * A simulation request as one schema (issue 24): the workbench's Simulate form, the API's
 * startSimulation, `crawlbench simulate`'s flags and the simulator itself are all checked by it, with the simulator's
 * defaults filled in, so that the three refuse a bad value with the same field and words. The
 * source is named by id only (a crawl of the workspace or a dataset folder's name), never by a
 * path; the CLI, which takes a path, checks the rest (simulationOptionsSchema).
 * Browser-safe: zod and the limits table only (the renderer's Simulate form imports it).
 */
import { z } from 'zod';
import { limited } from '../config/limit-schema.js';
import { checkMeasureFields, MEASURE_FIELDS, withoutUndefined } from '../ranking/request-schema.js';
import { TOPIC_ORDERS } from '../policies/topic-orders.js';

/** A crawl id or a dataset folder name: no path separators, no leading dot. */
export const SOURCE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const MAX_SEEDS = 100_000;

const name = (what: string) => z.string({ error: `must be the name of ${what}` }).regex(SOURCE_ID, `is not the name of ${what} (letters, digits, . _ -)`).refine((s) => !s.includes('..'), `is not the name of ${what}`);
const SEED_RANGE = 'must be a whole number from 0 to 2,147,483,647';
const SHARE = 'must be a share in (0, 1]';
const TOPIC_RADIUS = 'must be a whole number of links from 0 to 100';
const orNull = (s: z.ZodNumber) => s.nullable().optional().transform((v) => v ?? null);

/** The fields of a simulation but its source, with the simulator's defaults; the measure of Cho et al.'s curves as eval's. */
const OPTION_FIELDS = {
  ...MEASURE_FIELDS,
  policies: z.array(z.string({ error: 'must be policy names' }), { error: 'choose at least one policy' }).min(1, 'choose at least one policy'),
  r: limited('r').default(256),
  w: limited('w').default(15_000),
  c: limited('c').default(1),
  bandwidth: orNull(limited('bandwidth')),
  latency: z.boolean().default(true),
  networkSeed: z.number().int(SEED_RANGE).min(0, SEED_RANGE).max(2 ** 31 - 1, SEED_RANGE).default(1),
  batch: orNull(limited('batch')),
  maxPages: orNull(limited('maxPages')),
  maxPagesPerSite: orNull(limited('maxPagesPerSite')),
  siteKey: z.enum(['host', 'domain'], { error: 'must be host or domain' }).default('host'),
  perIp: z.boolean().default(false),
  topic: z.string().max(200).optional().transform((t) => (t === undefined || t.trim() === '' ? undefined : t.trim())),
  topicOrder: z.enum(TOPIC_ORDERS, { error: `must be one of ${TOPIC_ORDERS.join(', ')}` }).optional(),
  topicRadius: z.number({ error: TOPIC_RADIUS }).int(TOPIC_RADIUS).min(0, TOPIC_RADIUS).max(100, TOPIC_RADIUS).optional(),
  historyShare: z.number({ error: SHARE }).gt(0, SHARE).max(1, SHARE).optional(),
  historyCrawl: name('a crawl').optional(),
  seeds: z
    .array(z.string().trim().regex(/^https?:\/\/[^\s/?#]+/i, 'must be http(s) URLs'))
    .max(MAX_SEEDS)
    .optional()
    .transform((s) => (s && s.length > 0 ? s : undefined)),
};

type Options = z.output<z.ZodObject<typeof OPTION_FIELDS>>;

/** 'all' expanded, every name known, topic and history crawl where the policies need them. */
function expand<T extends Options>(o: T, ctx: z.core.$RefinementCtx, policies: readonly string[]): T {
  const expanded: string[] = [];
  for (const p of o.policies) {
    if (p === 'all') expanded.push(...policies.filter((k) => k !== 'topic' || o.topic !== undefined));
    else if (!policies.includes(p)) ctx.addIssue({ code: 'custom', path: ['policies'], message: `"${p}" is not a policy of the simulator (${policies.join(', ')}, or all)` });
    else if (p === 'topic' && o.topic === undefined) ctx.addIssue({ code: 'custom', path: ['topic'], message: 'the topic policy needs a topic word' });
    else expanded.push(p);
  }
  const chosen = [...new Set(expanded)];
  checkMeasureFields(o, ctx);
  for (const field of ['topicOrder', 'topicRadius'] as const) {
    if (o[field] !== undefined && !chosen.includes('topic')) ctx.addIssue({ code: 'custom', path: [field], message: 'only the topic policy uses it' });
  }
  if (o.historyCrawl !== undefined && !chosen.some((p) => p.startsWith('historical-'))) {
    ctx.addIssue({ code: 'custom', path: ['historyCrawl'], message: 'only the historical policies use an earlier crawl' });
  }
  return withoutUndefined({ ...o, policies: chosen });
}

/** Everything of a simulation but its source: what `crawlbench simulate`'s flags give (policies: the simulator's). */
export function simulationOptionsSchema(policies: readonly string[]) {
  return z.object(OPTION_FIELDS).strict().transform((o, ctx) => expand(o, ctx, policies));
}

/** The workbench's and the API's request: the options and a source named by id. */
export function simulationRequestSchema(policies: readonly string[]) {
  const source = z
    .object({ kind: z.enum(['crawl', 'dataset'], { error: 'choose a crawl or a dataset' }), id: name('a crawl or dataset') }, { error: 'choose a crawl or a dataset' })
    .strict();
  return z
    .object({ source, ...OPTION_FIELDS }, { error: 'a simulation request is a set of named values' })
    .strict()
    .transform((o, ctx) => {
      // A dataset folder holds links and URLs, no text to score (the CLI, given a path, finds out when it reads it).
      if (o.measure === 'similarity' && o.source.kind === 'dataset') {
        ctx.addIssue({ code: 'custom', path: ['measure'], message: "similarity needs the pages' text: choose a crawl as the web graph (a dataset folder holds none)" });
      }
      return expand(o, ctx, policies);
    });
}
