/**
 * The New crawl request, checked at the API's edge: every field of the right type and, for
 * numbers, inside the same sane range the crawl settings enforce (config/limits.ts), an
 * unknown field refused. A form that sends "" or NaN for w gets an error naming w, never a
 * crawl with w = 0. Errors carry the field, so the form can show them where they belong.
 */
import { z } from 'zod';
import { limited } from '../config/settings.js';
import { badField } from '../errors.js';
import type { CreateCrawlRequest } from './contract.js';

const DemoSpecSchema = z
  .object({
    sites: z.number().int().min(1).max(10_000).optional(),
    pages: z.number().int().min(1).max(1_000_000).optional(),
    latencyMs: z.number().min(0).max(10_000).optional(),
    revision: z.number().int().min(1).max(2).optional(),
  })
  .strict();

const ParamValue = z.union([z.number({ error: 'must be a number' }).refine(Number.isFinite, 'must be a number'), z.string(), z.boolean()], {
  error: 'must be a number, a word or true/false',
});

export const CreateCrawlRequestSchema = z
  .object({
    name: z.string().max(100).optional(),
    seedText: z.string().max(64 * 1024 * 1024).optional(),
    demoWeb: z.union([z.boolean(), DemoSpecSchema]).optional(),
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
  })
  .strict();

export function parseCreateRequest(req: unknown): CreateCrawlRequest {
  const parsed = CreateCrawlRequestSchema.safeParse(req ?? {});
  if (parsed.success) return parsed.data as CreateCrawlRequest;
  const issue = parsed.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') return fail(issue.keys[0]!, 'is not a field of a new crawl');
  return fail(issue.path.join('.') || '(request)', issue.message);
}

function fail(field: string, problem: string): never {
  throw badField(field, problem);
}
