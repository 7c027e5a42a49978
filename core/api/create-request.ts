/**
 * The New crawl request, checked at the API's edge: every field of the right type and, for
 * numbers, inside the same sane range the crawl settings enforce (config/limits.ts), an
 * unknown field refused. A form that sends "" or NaN for w gets an error naming w, never a
 * crawl with w = 0. Errors carry the field, so the form can show them where they belong.
 */
import { z } from 'zod';
import { limited } from '../config/settings.js';
import { pemCertificates } from '../config/pem.js';
import type { CreateCrawlRequest } from './contract.js';
import { SeedTextSchema, SeedUploadIdSchema } from './limit-schemas.js';
import { checkRequest } from './request-check.js';

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

export const CreateCrawlRequestSchema = z
  .object({
    name: z.string().max(100).optional(),
    // Seed text in one message (limits.ts); a larger seed file goes up with uploadSeeds.
    seedText: SeedTextSchema.optional(),
    seedUploadId: SeedUploadIdSchema.optional(),
    demoWeb: z.union([z.boolean(), DemoSpecSchema], { error: 'must be true or false, or the demo web’s sites, pages, latencyMs, revision and tls' }).optional(),
    policy: z.string().max(100).optional(),
    policyParams: z.record(z.string(), ParamValue).optional(),
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
    // A CA file's text (the form reads the file): checked as PEM certificates before the crawl exists.
    caPem: z
      .string()
      .max(1_000_000, 'must be at most 1 MB of PEM text')
      .refine((pem) => pemCertificates(pem).length > 0, 'is not a PEM certificate file (expected -----BEGIN CERTIFICATE----- blocks)')
      .optional(),
  })
  .strict();

/** The request checked (api/request-check.ts): a refusal names its field, in the form's words. */
export function parseCreateRequest(req: unknown): CreateCrawlRequest {
  return checkRequest(CreateCrawlRequestSchema, req ?? {}, 'a new crawl') as CreateCrawlRequest;
}
