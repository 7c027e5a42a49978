/**
 * A parallel crawl's options as a schema (issues 24, 25): `crawlbench crawl --parts K --model`
 * turns its flags into this schema's input (cli/parallel-flags.ts), the engine checks
 * createParallelCrawl's `parallel` with it, and New crawl's parallel options check with it
 * before they send, so the three refuse a bad K or model with the same field and words.
 * Browser-safe: zod and the parallel contract's types only (the renderer imports it).
 */
import { z } from 'zod';
import type { ParallelModel, ParallelOptions, ParallelPartitioner } from './contracts/parallel.js';

/** The most workers of one crawl. */
export const MAX_WORKERS = 256;
export const PARALLEL_MODELS = ['page', 'site'] as const satisfies readonly ParallelModel[];
export const PARALLEL_PARTITIONERS = ['gpmetis', 'Zoltan PHG'] as const satisfies readonly ParallelPartitioner[];

const K = `must be a whole number of workers from 2 to ${MAX_WORKERS}`;
const crawlId = z.string({ error: 'must be the name of a crawl of the workspace' }).min(1, 'must be the name of a crawl of the workspace').max(100, 'must be the name of a crawl of the workspace');

/** What every entry point shares: K and the model (the CLI's --parts and --model). */
export const ParallelShapeSchema = z.object({
  parts: z.number({ error: K }).int(K).min(2, K).max(MAX_WORKERS, K),
  model: z.enum(PARALLEL_MODELS, { error: 'must be page or site (what the assignment gives out: pages, or whole sites)' }),
});

/** The workbench's parallel options: the shape, the assignment, and the crawl that predicts the exchange. */
export const ParallelOptionsSchema = ParallelShapeSchema.extend({
  assign: z.enum(['hash', 'partition'], { error: "must be 'hash' or 'partition'" }),
  partition: z
    .object({
      crawl: crawlId,
      partitioner: z.enum(PARALLEL_PARTITIONERS, { error: `must be ${PARALLEL_PARTITIONERS.join(' or ')}` }),
    })
    .strict()
    .optional(),
  predictFrom: crawlId.optional(),
})
  .strict()
  .superRefine((o, ctx) => {
    if (o.assign === 'partition' && !o.partition) ctx.addIssue({ code: 'custom', path: ['partition'], message: 'choose the earlier crawl whose partition assigns the pages' });
    if (o.assign === 'hash' && o.partition) ctx.addIssue({ code: 'custom', path: ['partition'], message: "is for assign 'partition' only" });
  }) satisfies z.ZodType<ParallelOptions>;
