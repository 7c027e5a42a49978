import { z } from 'zod';
import { CrawlError, ErrorCodes } from '../errors.js';

/**
 * The settings of one crawl. They are validated once here, frozen, stored in the crawl
 * database when the crawl is created, and read back on resume: a crawl always continues
 * with the settings it started with (design.md section 2 defines w, c and r).
 * All durations are milliseconds, all sizes bytes.
 */
export const DEFAULT_USER_AGENT = 'crawlbench/0.1 (+https://github.com/crawlbench/crawlbench; research crawler)';

export const ResolveRule = z.object({ pattern: z.string().min(1), address: z.string().min(1) }).strict();

export const CrawlSettingsSchema = z
  .object({
    seeds: z.array(z.string()).min(1),
    scope: z
      .object({
        suffixes: z.array(z.string()).default([]),
        hosts: z.array(z.string()).default([]),
        excludes: z.array(z.string()).default([]),
        maxUrlLength: z.number().int().min(64).default(2048),
      })
      .strict()
      .prefault({}),
    siteKey: z.enum(['host', 'domain']).default('host'),
    policy: z.string().default('breadth-first'),
    policyParams: z.record(z.string(), z.unknown()).default({}),
    /** Wait between the end of one connection to a site and the start of the next. */
    w: z.number().min(0).default(15_000),
    /** Requests over one keep-alive connection (1 = a fresh connection per page). */
    c: z.number().int().min(1).default(1),
    /** Maximum simultaneous connections (to different sites). */
    r: z.number().int().min(1).default(256),
    keepaliveGap: z.number().min(0).default(0),
    batch: z.number().int().min(1).nullable().default(null),
    maxPages: z.number().int().min(1).nullable().default(null),
    maxDepth: z.number().int().min(0).default(15),
    maxDynamicDepth: z.number().int().min(0).default(5),
    maxPagesPerSite: z.number().int().min(1).default(25_000),
    maxRedirects: z.number().int().min(0).default(5),
    userAgent: z.string().min(1).default(DEFAULT_USER_AGENT),
    resolve: z.array(ResolveRule).default([]),
    connectTimeout: z.number().min(1).default(10_000),
    headersTimeout: z.number().min(1).default(30_000),
    bodyTimeout: z.number().min(1).default(30_000),
    /** Whole-request cap, against servers that drip a byte at a time. */
    requestTimeout: z.number().min(1).default(120_000),
    maxBodyBytes: z.number().int().min(1024).default(10 * 1024 * 1024),
    maxDecodedBytes: z.number().int().min(1024).default(20 * 1024 * 1024),
    maxAttempts: z.number().int().min(1).default(3),
    retryBase: z.number().min(0).default(30_000),
    /** Consecutive failed requests after which a site is parked. */
    siteErrorBudget: z.number().int().min(1).default(10),
    robotsRetry: z.number().min(0).default(60_000),
    /** Crawl-delay is honoured up to this much (as Heritrix's respectCrawlDelayUpToSeconds). */
    maxCrawlDelay: z.number().min(0).default(300_000),
    robotsMaxAttempts: z.number().int().min(1).default(5),
    perIp: z.boolean().default(false),
    bandwidth: z.number().min(1).nullable().default(null),
    storeContent: z.boolean().default(false),
    contentBudget: z.number().int().min(0).default(10 * 1024 ** 3),
    maxDbSize: z.number().int().min(0).nullable().default(null),
  })
  .strict();

export type CrawlSettings = Readonly<z.infer<typeof CrawlSettingsSchema>>;
export type CrawlSettingsInput = z.input<typeof CrawlSettingsSchema>;

/**
 * Settings that may differ on resume without being a conflict: they describe this run,
 * not the crawl (how far to go now, how to reach the hosts from this machine, how fast).
 */
export const RUN_SETTINGS: ReadonlySet<string> = new Set(['maxPages', 'resolve', 'bandwidth', 'maxDbSize']);

export function validateSettings(input: CrawlSettingsInput): CrawlSettings {
  const parsed = CrawlSettingsSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.join('.') || '(settings)';
    throw new CrawlError(ErrorCodes.BAD_OPTION, `${path}: ${issue.message}`);
  }
  return Object.freeze(parsed.data);
}

/** Names of crawl settings that the new input sets to a different value than the stored crawl. */
export function conflictingSettings(stored: CrawlSettings, given: Partial<CrawlSettingsInput>): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined || RUN_SETTINGS.has(key)) continue;
    const before = (stored as Record<string, unknown>)[key];
    const field = (CrawlSettingsSchema.shape as Record<string, z.ZodType>)[key];
    const after = field ? field.safeParse(value) : { success: false as const };
    const comparable = after.success ? after.data : value;
    if (JSON.stringify(normalise(before)) !== JSON.stringify(normalise(comparable))) out.push(key);
  }
  return out;
}

function normalise(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalise);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .filter(([, x]) => x !== undefined && !(Array.isArray(x) && x.length === 0))
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, x]) => [k, normalise(x)]),
    );
  }
  return v;
}
