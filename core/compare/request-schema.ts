/**
 * A comparison's options as a schema (issue 24): `crawlbench compare`'s flags, the API's
 * compareCrawls and the Compare view are checked by it, so they refuse a bad value with the
 * same field and words. Browser-safe: zod only (the renderer imports it).
 */
import { z } from 'zod';

const TOP = 'must be a whole number from 1 to 10,000';

export const CompareRequestSchema = z
  .object({
    /** Chosen by the caller, to follow its progress events and to cancel it. */
    jobId: z.string().regex(/^[\w.-]{1,100}$/, 'must be letters, digits, . _ - (at most 100)').optional(),
    /** Risers, fallers, sites and added, removed, changed pages listed. */
    top: z.number({ error: TOP }).int(TOP).min(1, TOP).max(10_000, TOP).default(20),
    /** Per-page figures for this host only (empty: every host). */
    host: z
      .string()
      .max(253)
      .nullable()
      .optional()
      .transform((h) => (h && h.trim() ? h.trim() : null)),
  })
  .strict();
