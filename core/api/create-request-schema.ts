/**
 * The New crawl request and the resume's settings as zod schemas: every field of the right type
 * and, for numbers, inside the same sane range the crawl settings enforce (config/limits.ts,
 * through config/limit-schema.ts), an unknown field refused. One schema for every entry point
 * (issue 24): the API checks a request with it (create-request.ts), `crawlbench crawl` refuses
 * the same values through the settings schema built from the same `limited` fields, and the New
 * crawl form checks what it is about to send with it (renderer/lib/crawl-request.ts), so a "" or
 * NaN for w is an error naming w in the same words everywhere, never a crawl with w = 0.
 * Browser-safe: imports zod and browser-safe modules only (test/renderer/layers.test.ts).
 */
import { z } from 'zod';
import { limited } from '../config/limit-schema.js';
import { pemBlocks } from '../config/pem-blocks.js';
import { SeedTextSchema, SeedUploadIdSchema } from './limit-schemas.js';

const DemoSpecSchema = z
  .object({
    sites: z.number().int().min(1).max(10_000).optional(),
    pages: z.number().int().min(1).max(1_000_000).optional(),
    latencyMs: z.number().min(0).max(10_000).optional(),
    revision: z.number().int().min(1).max(2).optional(),
    tls: z.number().min(0).max(1).optional(),
  })
  .strict();

const ParamValue = z.union([z.number({ error: 'must be a number' }).refine(Number.isFinite, 'must be a number'), z.string(), z.boolean()], {
  error: 'must be a number, a word or true/false',
});

/**
 * A policy's parameters. Its history is an earlier crawl of the workspace, named by
 * historyCrawl (which checks it is one, and not the crawl itself); a path here would have the
 * server read any file of its machine, on its own thread. `crawlbench crawl --history FILE`
 * sets the file through the crawl's settings, not through this request.
 */
const PolicyParamsSchema = z.record(z.string(), ParamValue).refine((params) => !('history' in params), {
  path: ['history'],
  message: 'is not taken as a file: name the history as historyCrawl (an earlier crawl of the workspace)',
});

/** Why a CA file's text is refused (the engine's X.509 check, create-request.ts, says the same). */
export const CA_PEM_PROBLEM = 'is not a PEM certificate file (expected -----BEGIN CERTIFICATE----- blocks)';

/** A CA file's text (the form reads the file), at most 1 MB, holding certificate blocks. */
export const CaPemSchema = z
  .string()
  .max(1_000_000, 'must be at most 1 MB of PEM text')
  .refine((pem) => pemBlocks(pem).length > 0, CA_PEM_PROBLEM);

export const CreateCrawlRequestSchema = z
  .object({
    name: z.string().max(100).optional(),
    // Seed text in one message (api/limits.ts); a larger seed file goes up with uploadSeeds.
    seedText: SeedTextSchema.optional(),
    seedUploadId: SeedUploadIdSchema.optional(),
    demoWeb: z.union([z.boolean(), DemoSpecSchema], { error: 'must be true or false, or the demo web’s sites, pages, latencyMs, revision and tls' }).optional(),
    policy: z.string().max(100).optional(),
    policyParams: PolicyParamsSchema.optional(),
    w: limited('w').optional(),
    c: limited('c').optional(),
    r: limited('r').optional(),
    batch: limited('batch').nullable().optional(),
    maxPages: limited('maxPages').nullable().optional(),
    maxDepth: limited('maxDepth').optional(),
    maxPagesPerSite: limited('maxPagesPerSite').optional(),
    userAgent: z.string().max(1000).optional(),
    resolve: z.array(z.object({ pattern: z.string().min(1), address: z.string().min(1) }).strict()).optional(),
    historyCrawl: z.string().max(100).optional(),
    allowShortW: z.boolean().optional(),
    storeContent: z.boolean().optional(),
    contentBudget: limited('contentBudget').optional(),
    sitemaps: z.boolean().optional(),
    tls: z.enum(['verify', 'record'], { error: "must be 'verify' or 'record'" }).optional(),
    caPem: CaPemSchema.optional(),
  })
  .strict();

/**
 * What a run of an existing crawl may change (start and resume: `crawlbench crawl --db FILE
 * --max-pages N` on a crawl that exists, the API's start(id, overrides)): its page limit.
 */
export const ResumeRequestSchema = z.object({ maxPages: limited('maxPages').nullable().optional() }).strict();
