import { z } from 'zod';
import { badField } from '../errors.js';
import { pemCertificates } from './pem.js';
import { limited } from './limit-schema.js';

/**
 * The settings of one crawl. They are validated once here, frozen, stored in the crawl
 * database when the crawl is created, and read back on resume: a crawl always continues
 * with the settings it started with (docs/design.md section 2 defines w, c and r).
 * All durations are milliseconds, all sizes bytes.
 */
export const DEFAULT_USER_AGENT = 'crawlbench/0.1 (+https://github.com/crawlbench/crawlbench; research crawler)';

export { limited } from './limit-schema.js';

export const ResolveRule = z.object({ pattern: z.string().min(1), address: z.string().min(1) }).strict();

export const CrawlSettingsSchema = z
  .object({
    seeds: z.array(z.string()).min(1),
    scope: z
      .object({
        suffixes: z.array(z.string()).default([]),
        hosts: z.array(z.string()).default([]),
        excludes: z.array(z.string()).default([]),
        maxUrlLength: limited('maxUrlLength').default(2048),
      })
      .strict()
      .prefault({}),
    siteKey: z.enum(['host', 'domain']).default('host'),
    policy: z.string().default('breadth-first'),
    policyParams: z.record(z.string(), z.unknown()).default({}),
    /** Wait between the end of one connection to a site and the start of the next. */
    w: limited('w').default(15_000),
    /** w for sites under smallSite pages (--w-small, --small-site; Castillo §4.5); null: w for every site. */
    wSmall: limited('w').nullable().default(null),
    smallSite: z.number().int().min(1).nullable().default(null),
    /** Requests over one keep-alive connection (1 = a fresh connection per page). */
    c: limited('c').default(1),
    /** Maximum simultaneous connections (to different sites). */
    r: limited('r').default(256),
    keepaliveGap: limited('keepaliveGap').default(0),
    /** Requests sent over a connection before their responses come (HTTP/1.1 pipelining); 1 = none. */
    pipeliningDepth: limited('pipeliningDepth').default(1),
    batch: limited('batch').nullable().default(null),
    maxPages: limited('maxPages').nullable().default(null),
    maxDepth: limited('maxDepth').default(15),
    maxDynamicDepth: limited('maxDynamicDepth').default(5),
    maxPagesPerSite: limited('maxPagesPerSite').default(25_000),
    maxRedirects: limited('maxRedirects').default(5),
    // What an HTTP header value may hold (RFC 9110: visible characters, spaces, tabs and bytes
    // 0x80-0xFF): a snowman, a line break or a control character was taken, and every request
    // then failed in the HTTP client (a crawl "finished" with no page).
    userAgent: z
      .string()
      .min(1)
      .max(1024)
      .regex(/^[\t\x20-\x7e\x80-\xff]+$/, 'must be what an HTTP header holds: visible characters and spaces (no line breaks, control characters or characters past U+00FF)')
      .default(DEFAULT_USER_AGENT),
    resolve: z.array(ResolveRule).default([]),
    /**
     * How certificates are treated over https (issue 26): 'record' (the default, as archival
     * crawlers do) fetches a site whose certificate fails and records the problem with the
     * site; 'verify' refuses it, its pages failing with the problem's code.
     */
    tls: z.enum(['verify', 'record'], { error: "must be 'verify' or 'record'" }).default('record'),
    /** Certificate authorities trusted besides Node's and the system's, as PEM (--ca FILE, or a file given in the form). */
    ca: z.array(z.string().refine((pem) => pemCertificates(pem).length > 0, 'must be PEM certificates (-----BEGIN CERTIFICATE----- blocks)')).default([]),
    connectTimeout: limited('connectTimeout').default(10_000),
    headersTimeout: limited('headersTimeout').default(30_000),
    bodyTimeout: limited('bodyTimeout').default(30_000),
    /** Whole-request cap, against servers that drip a byte at a time. */
    requestTimeout: limited('requestTimeout').default(120_000),
    maxBodyBytes: limited('maxBodyBytes').default(10 * 1024 * 1024),
    maxDecodedBytes: limited('maxDecodedBytes').default(20 * 1024 * 1024),
    maxAttempts: limited('maxAttempts').default(3),
    retryBase: limited('retryBase').default(30_000),
    /** Consecutive failed requests after which a site is parked. */
    siteErrorBudget: limited('siteErrorBudget').default(10),
    robotsRetry: limited('robotsRetry').default(60_000),
    /** Crawl-delay is honoured up to this much (as Heritrix's respectCrawlDelayUpToSeconds). */
    maxCrawlDelay: limited('maxCrawlDelay').default(300_000),
    robotsMaxAttempts: limited('robotsMaxAttempts').default(5),
    perIp: z.boolean().default(false),
    /**
     * Read each site's sitemaps (robots.txt Sitemap: lines and /sitemap.xml) and take their URLs
     * as links of kind 'sitemap' (engine/sitemaps.ts). Off: the papers' link-only discovery.
     */
    sitemaps: z.boolean().default(false),
    /**
     * The user confirmed a w below 1 s although the crawl reaches hosts outside this machine
     * (--allow-short-w, or the form's checkbox); see engine/short-w-guard.ts.
     */
    allowShortW: z.boolean().default(false),
    bandwidth: limited('crawlBandwidth').nullable().default(null),
    storeContent: z.boolean().default(false),
    /** With a history crawl: ask for each page only if it changed (If-None-Match, If-Modified-Since). */
    conditional: z.boolean().default(true),
    contentBudget: limited('contentBudget').default(10 * 1024 ** 3),
    maxDbSize: limited('maxDbSize').nullable().default(null),
  })
  .strict();

export type CrawlSettings = Readonly<z.infer<typeof CrawlSettingsSchema>>;
export type CrawlSettingsInput = z.input<typeof CrawlSettingsSchema>;

/**
 * Settings that may differ on resume without being a conflict: they describe this run,
 * not the crawl (how far to go now, how to reach the hosts from this machine, how fast).
 */
export const RUN_SETTINGS: ReadonlySet<string> = new Set(['maxPages', 'resolve', 'bandwidth', 'maxDbSize', 'allowShortW', 'ca']);

export function validateSettings(input: CrawlSettingsInput): CrawlSettings {
  const parsed = CrawlSettingsSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.join('.') || '(settings)';
    throw badField(path, issue.message);
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
