/**
 * The New crawl request, checked at the API's edge: every field of the right type and, for
 * numbers, inside the same sane range the crawl settings enforce (config/limits.ts), an
 * unknown field refused. A form that sends "" or NaN for w gets an error naming w, never a
 * crawl with w = 0. Errors carry the field, so the form can show them where they belong.
 */
import { z } from 'zod';
import { limited } from '../config/settings.js';
import { badField } from '../errors.js';
import { pemCertificates } from '../config/pem.js';
import type { CreateCrawlRequest } from './contract.js';
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

export function parseCreateRequest(req: unknown): CreateCrawlRequest {
  // Every problem without words of its own (the numbers' limits have theirs) gets them here.
  const parsed = CreateCrawlRequestSchema.safeParse(req ?? {}, { error: inWords });
  if (parsed.success) return parsed.data as CreateCrawlRequest;
  const issue = parsed.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') return fail(issue.keys[0]!, 'is not a field of a new crawl');
  return fail(issue.path.join('.') || '(request)', issue.message);
}

function fail(field: string, problem: string): never {
  throw badField(field, problem);
}

const count = (n: unknown) => (typeof n === 'number' || typeof n === 'bigint' ? n.toLocaleString('en-US') : String(n));

/**
 * A validator's issue as a form says it ("must be at most 100 characters (this one has 300)"),
 * never in the validator's own words ("Too big: expected string to have <=100 characters").
 */
function inWords(issue: z.core.$ZodRawIssue): string {
  const i = issue as z.core.$ZodRawIssue & { origin?: string; maximum?: unknown; minimum?: unknown; inclusive?: boolean; expected?: string };
  const input = i.input;
  switch (i.code) {
    case 'too_big':
      if (i.origin === 'string') return `must be at most ${count(i.maximum)} characters${typeof input === 'string' ? ` (this one has ${count(input.length)})` : ''}`;
      if (i.origin === 'array') return `must hold at most ${count(i.maximum)}`;
      return i.inclusive === false ? `must be less than ${count(i.maximum)}` : `must be at most ${count(i.maximum)}`;
    case 'too_small':
      if (i.origin === 'string') return Number(i.minimum) <= 1 ? 'must not be empty' : `must be at least ${count(i.minimum)} characters`;
      if (i.origin === 'array') return `must hold at least ${count(i.minimum)}`;
      return i.inclusive === false ? `must be more than ${count(i.minimum)}` : `must be at least ${count(i.minimum)}`;
    case 'invalid_type':
      switch (i.expected) {
        case 'string':
          return 'must be text';
        case 'number':
          return 'must be a number';
        case 'int':
          return 'must be a whole number';
        case 'boolean':
          return 'must be true or false';
        case 'array':
          return 'must be a list';
        case 'object':
        case 'record':
          return 'must be a set of named values';
        default:
          return 'is not a value this field takes';
      }
    default:
      return 'is not a value this field takes';
  }
}
