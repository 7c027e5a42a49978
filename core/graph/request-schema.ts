/**
 * The partition and graph export requests as schemas (issue 24): the workbench's Partition form,
 * the API (partitionCrawl, exportGraph) and `crawlbench partition`'s flags are checked by them,
 * so the three refuse a bad value with the same field and words. Browser-safe: zod and the
 * graph module's browser-safe report only (the renderer's form imports it).
 */
import { z } from 'zod';
import { FORMATS, MODELS } from './report.js';

/** The most processors K asked for, and the most runs per partitioner and K. */
export const MAX_PARTS = 4096;
export const MAX_RUNS = 20;

const K = `must be numbers of processors from 2 to ${MAX_PARTS.toLocaleString('en-US')}`;
const RUNS = `must be a whole number of runs from 1 to ${MAX_RUNS}`;

export const PartitionRequestSchema = z
  .object({
    /** Chosen by the caller, to follow its progress events and to cancel it. */
    jobId: z.string().regex(/^[\w.-]{1,100}$/, 'must be letters, digits, . _ - (at most 100)').optional(),
    models: z
      .array(z.enum(MODELS, { error: `must be models among ${MODELS.join(', ')}` }), { error: `choose at least one model (${MODELS.join(', ')})` })
      .min(1, `choose at least one model (${MODELS.join(', ')})`)
      .transform((m) => [...new Set(m)]),
    parts: z
      .array(z.number({ error: K }).int(K).min(2, K).max(MAX_PARTS, K), { error: 'choose at least one number of processors K' })
      .min(1, 'choose at least one number of processors K')
      .transform((p) => [...new Set(p)].sort((a, b) => a - b)),
    runs: z.number({ error: RUNS }).int(RUNS).min(1, RUNS).max(MAX_RUNS, RUNS).default(4),
  })
  .strict();

export const GraphExportRequestSchema = z
  .object({
    model: z.enum(MODELS, { error: `must be one of ${MODELS.join(', ')}` }),
    format: z.enum(FORMATS, { error: `must be one of ${FORMATS.join(', ')}` }),
  })
  .strict();
