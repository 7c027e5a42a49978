/**
 * The importance a fetch order is scored by (Cho, Garcia-Molina and Page, "Efficient crawling
 * through URL ordering", §2; docs/design.md section 4.11) and the evaluation request, as
 * schemas (issue 24): `crawlbench eval`'s and `simulate`'s measure flags, the API's
 * runEvaluation and startSimulation, and the Results and Simulate forms are checked by them,
 * so the three refuse a bad value with the same field and the same words. The measure's names
 * in words live here too, for the CLI's reports and the views alike.
 * Browser-safe: zod and ranking's report types only (the renderer's forms import it).
 */
import { z } from 'zod';
import type { IrScale, LocationKind, MeasureName, MeasureRequest } from './report.js';

export const MEASURE_NAMES = ['pagerank', 'backlinks', 'ir', 'similarity', 'location'] as const satisfies readonly MeasureName[];
export const IR_SCALES = ['n', '1'] as const satisfies readonly IrScale[];
export const LOCATION_KINDS = ['slashes', 'com', 'home'] as const satisfies readonly LocationKind[];
export const MAX_QUERY_CHARS = 200;
/** The most points an evaluation's cumulative curve keeps. */
export const MAX_POINTS = 100_000;

/** A measure as a report names it. */
export const MEASURE_SHORT: Record<MeasureName, string> = {
  pagerank: 'PageRank',
  backlinks: 'IB (backlinks)',
  ir: 'IR',
  similarity: 'IS (similarity)',
  location: 'IL (location)',
};

const DAMPING = 'must be a number from 0 to 1';
const SAMPLE = 'must be a whole number of pages from 2 to 2,147,483,647';
const BACKLINKS = 'must be a whole number of backlinks, 0 or more';
const POINTS = `must be a whole number from 2 to ${MAX_POINTS.toLocaleString('en-US')}`;
const hot = () => z.number({ error: 'must be a number' }).optional();

/** The fields that choose a measure (an evaluation's and a simulation's). */
export const MEASURE_FIELDS = {
  measure: z.enum(MEASURE_NAMES, { error: `must be one of ${MEASURE_NAMES.join(', ')}` }).optional(),
  /** Hot pages for Crawl & Stop with Threshold: value >= G on the measure's own scale. */
  hotThreshold: hot(),
  query: z
    .string({ error: 'must be text' })
    .max(MAX_QUERY_CHARS)
    .optional()
    .transform((q) => (q === undefined || q.trim() === '' ? undefined : q.trim())),
  hotBacklinks: z.number({ error: BACKLINKS }).int(BACKLINKS).min(0, BACKLINKS).max(2 ** 31 - 1, BACKLINKS).optional(),
  damping: z.number({ error: DAMPING }).min(0, DAMPING).max(1, DAMPING).optional(),
  scale: z.enum(IR_SCALES, { error: 'must be n (the values sum to N, as Cho et al.) or 1' }).optional(),
  location: z.enum(LOCATION_KINDS, { error: `must be one of ${LOCATION_KINDS.join(', ')}` }).optional(),
  tauSample: z.number({ error: SAMPLE }).int(SAMPLE).min(2, SAMPLE).max(2 ** 31 - 1, SAMPLE).optional(),
};

/** The measure fields once checked. */
export type CheckedMeasure = MeasureRequest;

/**
 * What one field means only with one measure: a query without similarity, a damping with a
 * measure that has none, a hot threshold below 0 where no value is. Each refused at its field.
 */
export function checkMeasureFields(o: CheckedMeasure, ctx: z.core.$RefinementCtx, hotField = 'hotThreshold'): void {
  const m = o.measure ?? 'pagerank';
  const refuse = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
  if (m === 'similarity' && o.query === undefined) refuse('query', 'the similarity measure needs a query: the words pages are scored against');
  else if (m === 'similarity' && !/[\p{L}\p{N}]/u.test(o.query!)) refuse('query', 'holds no word to score pages against (letters or digits)');
  if (m !== 'similarity' && o.query !== undefined) refuse('query', 'only the similarity measure takes a query');
  if (m !== 'similarity' && o.hotBacklinks !== undefined) refuse('hotBacklinks', "only the similarity measure's topic rule takes it");
  if (m !== 'location' && o.hotThreshold !== undefined && o.hotThreshold < 0) refuse(hotField, 'must be 0 or more (only the location metric has values below 0)');
  if (m !== 'pagerank' && m !== 'ir' && o.damping !== undefined) refuse('damping', 'only PageRank and IR take a damping');
  if (m !== 'ir' && o.scale !== undefined) refuse('scale', 'only IR takes a scale');
  if (m !== 'location' && o.location !== undefined) refuse('location', 'only the location metric takes a kind of location');
}

/** The engine's measure options (ranking/measure.ts, with the threshold and the tau sample) from checked fields. */
export function measureOptionsOf(o: CheckedMeasure): { measure?: MeasureName; threshold?: number; query?: string; hotBacklinks?: number; damping?: number; scale?: IrScale; location?: LocationKind; tauSample?: number } {
  return withoutUndefined({ measure: o.measure, threshold: o.hotThreshold, query: o.query, hotBacklinks: o.hotBacklinks, damping: o.damping, scale: o.scale, location: o.location, tauSample: o.tauSample });
}

/** A request without its measure fields (what the simulator's other options are). */
export function withoutMeasure<T extends CheckedMeasure>(o: T): Omit<T, keyof CheckedMeasure> {
  const { measure: _m, hotThreshold: _h, query: _q, hotBacklinks: _b, damping: _d, scale: _s, location: _l, tauSample: _t, ...rest } = o;
  return rest;
}

/** An evaluation's fields but its oracle: the measure, `threshold` (hotThreshold's older name, as `eval --threshold`) and the curve's points. */
const EVALUATION_FIELDS = {
  ...MEASURE_FIELDS,
  threshold: hot(),
  points: z.number({ error: POINTS }).int(POINTS).min(2, POINTS).max(MAX_POINTS, POINTS).optional(),
};

type EvaluationFields = z.output<z.ZodObject<typeof EVALUATION_FIELDS>>;

/** threshold folded into hotThreshold (refused when both are given), then the measure's checks. */
function evaluationOf<T extends EvaluationFields>(o: T, ctx: z.core.$RefinementCtx): Omit<T, 'threshold'> {
  const { threshold, ...rest } = o;
  if (threshold !== undefined && rest.hotThreshold !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['threshold'], message: "is the hot threshold's older name: give one or the other, not both" });
  }
  const out = { ...rest, hotThreshold: rest.hotThreshold ?? threshold };
  // A refusal of the older name's value names the field given.
  checkMeasureFields(out, ctx, threshold !== undefined && rest.hotThreshold === undefined ? 'threshold' : 'hotThreshold');
  return withoutUndefined(out);
}

/** `crawlbench eval`'s flags (its --oracle is a path, checked as a crawl file). */
export const EvaluationOptionsSchema = z
  .object(EVALUATION_FIELDS)
  .strict()
  .transform((o, ctx) => evaluationOf(o, ctx));

/** The API's runEvaluation and the Results form: the options and an oracle named by its crawl id. */
export const EvaluationRequestSchema = z
  .object({ oracle: z.string({ error: 'must be the name of a crawl' }).min(1).max(100).optional(), ...EVALUATION_FIELDS }, { error: 'an evaluation request is a set of named values' })
  .strict()
  .transform((o, ctx) => evaluationOf(o, ctx));

export type CheckedEvaluation = z.output<typeof EvaluationRequestSchema>;

/** The object without its undefined fields (a checked request as the engine takes it). */
export function withoutUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
