import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { checkFolder } from '../store/output-guard.js';
import type { CrawlSettingsInput } from '../config/settings.js';
import { Crawler, type CrawlSummary } from '../engine/crawler.js';
import { checkShortW } from '../engine/short-w-guard.js';
import { CrawlError, DISK_FULL_EXIT, ErrorCodes, badField, badOption } from '../errors.js';
import { SeedFileSizeSchema } from '../api/limit-schemas.js';
import { PARAMS } from '../policies/params.js';
import { listPolicies } from '../policies/registry.js';
import { choiceFlag, durationFlag, intFlag, listFlag, numberFlag, sizeFlag, type FlagsOf } from './args.js';
import { defineCommand } from './command.js';
import { limitedFlag } from './limited-flags.js';
import { SMALL_SITE_OPTIONS, SMALL_SITE_USAGE, smallSiteFlags } from './small-site-flags.js';
import { PARALLEL_OPTIONS, PARALLEL_USAGE } from './parallel-flags.js';
import { readCaFile } from '../fetch/trust.js';
import { ProgressPrinter, summaryText } from './output.js';

const USAGE = `crawlbench crawl --db FILE (--seed URL ... | --seeds FILE) [options]

  --db FILE              the crawl database (created, or resumed if it exists)
  --seed URL             a seed URL (repeatable)
  --seeds FILE           a file of seed URLs, one per line (# comments)
  --scope SUFFIX         crawl hosts under this domain suffix (.cl, uchile.cl; repeatable)
  --host HOST            crawl this exact host (repeatable); default scope: the seeds' hosts
  --exclude REGEX        skip URLs matching this regular expression (repeatable)
  --site-key host|domain what a site is: the host (default) or its registrable domain
  --policy NAME          ordering policy (default breadth-first; listed below)
  --history FILE         an earlier crawl's database: its PageRank guides historical-* and quality
  --topic WORD           the topic word of --policy topic
  --topic-order O        topic: order of both queues, breadth-first | backlink-count | batch-pagerank
  --topic-radius N       topic: pages N links or fewer from a matching page are hot too (default 3)
  --alpha A              EWMA weight of old estimates, 0..1 (performance, quality, crawl-ability; default 0.8)
  --pipelining P         pipelining saving p in T = 2*ConnectionTime + P*ResponseTime/p (default 1.2)
  --requests-per-connection N  assumed until a server is measured (default 50)
  --new-pages RULE       quality/crawl-ability with --history: zero | random | parent (default parent)
  --policy-seed N        seed of historical-pagerank-random (default 1)
  --w DURATION           wait between connections to one site (default 15s; up to 1h)
${SMALL_SITE_USAGE}
  --allow-short-w        confirm a w below 1s for a crawl that reaches hosts outside this
                         machine (refused otherwise: that is how a careless crawl of real servers starts)
  --c N                  pages per keep-alive connection (default 1)
  --r N                  simultaneous connections (default 256)
  --keepalive-gap DUR    pause between requests inside a connection (default 0)
  --pipelining-depth N   HTTP/1.1 pipelining: up to N requests out over a connection before
                         their responses (default 1: none)
  --batch K              crawl in batches of K pages
  --max-pages N          stop after N pages (may be raised on resume)
  --max-depth N          depth limit for static URLs (default 15)
  --max-dynamic-depth N  depth limit for URLs with a query (default 5)
  --max-site-pages N     pages per site (default 25000)
  --user-agent S         User-Agent header; robots.txt groups match its product token
  --resolve PAT=IP       map host names to an address (*.demo=127.0.0.1; repeatable)
  --per-ip               politeness per IP address as well as per site
  --sitemaps             read each site's sitemaps (robots.txt Sitemap: lines, /sitemap.xml) and
                         crawl what they list as links of kind 'sitemap' (default off: links only)
  --tls verify|record    a site whose certificate fails (expired, untrusted, another name):
                         record (default) fetches it and records the problem with the site;
                         verify refuses it, its pages failing with the problem's code
  --ca FILE              also trust the certificates in this PEM file (repeatable; kept with
                         the crawl). Node's roots and the system's bundle are always trusted
  --bandwidth SIZE       total bandwidth cap per second (e.g. 2MB)
  --connect-timeout, --headers-timeout, --body-timeout, --request-timeout DURATION
  --max-body SIZE        largest body accepted (default 10MB)
  --max-attempts N       attempts per page for retryable failures (default 3)
  --retry-base DURATION  first retry backoff, doubled each time (default 30s)
  --site-error-budget N  consecutive failures after which a site is parked (default 10)
  --robots-retry DUR     wait before asking an unreachable robots.txt again (default 60s)
  --max-crawl-delay DUR  honour robots.txt Crawl-delay up to this (default 300s)
  --store-content        keep raw requests, responses and bodies beside the database
  --unconditional        with --history: download every page in full (by default a page the
                         history crawl holds is asked for only if it changed: If-None-Match,
                         If-Modified-Since; a 304 takes its content and links from the history)
  --content-budget SIZE  size budget of that content store (default 10GiB)
  --max-db-size SIZE     pause cleanly when the database reaches this size
  --json                 print the summary as one JSON object on stdout
  --quiet                no live progress line

${PARALLEL_USAGE}

policies (--policy NAME):
${policyList()}`;

function policyList(): string {
  const flagOf = (p: string) => PARAMS[p]?.flag ?? p;
  const width = Math.max(...listPolicies().map((p) => p.name.length)) + 1;
  return listPolicies()
    .map((p) => `  ${p.name.padEnd(width)}${p.summary}${p.params.length > 0 ? ` [${p.params.map(flagOf).join(' ')}]` : ''}`)
    .join('\n');
}

const OPTIONS = {
  db: { type: 'string' },
  seed: { type: 'string', multiple: true },
  seeds: { type: 'string' },
  scope: { type: 'string', multiple: true },
  host: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
  'site-key': { type: 'string' },
  policy: { type: 'string' },
  history: { type: 'string' },
  topic: { type: 'string' },
  'topic-order': { type: 'string' },
  'topic-radius': { type: 'string' },
  alpha: { type: 'string' },
  pipelining: { type: 'string' },
  'requests-per-connection': { type: 'string' },
  'new-pages': { type: 'string' },
  'policy-seed': { type: 'string' },
  w: { type: 'string' },
  ...SMALL_SITE_OPTIONS,
  c: { type: 'string' },
  r: { type: 'string' },
  'keepalive-gap': { type: 'string' },
  'pipelining-depth': { type: 'string' },
  batch: { type: 'string' },
  'max-pages': { type: 'string' },
  'max-depth': { type: 'string' },
  'max-dynamic-depth': { type: 'string' },
  'max-site-pages': { type: 'string' },
  'user-agent': { type: 'string' },
  resolve: { type: 'string', multiple: true },
  'per-ip': { type: 'boolean' },
  sitemaps: { type: 'boolean' },
  tls: { type: 'string' },
  ca: { type: 'string', multiple: true },
  'allow-short-w': { type: 'boolean' },
  bandwidth: { type: 'string' },
  'connect-timeout': { type: 'string' },
  'headers-timeout': { type: 'string' },
  'body-timeout': { type: 'string' },
  'request-timeout': { type: 'string' },
  'max-body': { type: 'string' },
  'max-attempts': { type: 'string' },
  'retry-base': { type: 'string' },
  'site-error-budget': { type: 'string' },
  'robots-retry': { type: 'string' },
  'max-crawl-delay': { type: 'string' },
  'store-content': { type: 'boolean' },
  unconditional: { type: 'boolean' },
  'content-budget': { type: 'string' },
  'max-db-size': { type: 'string' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean' },
  ...PARALLEL_OPTIONS,
} as const;

type CrawlFlags = FlagsOf<typeof OPTIONS>;

export const crawlCommand = defineCommand({
  name: 'crawl',
  summary: 'crawl (or resume) into a SQLite crawl database',
  usage: USAGE,
  options: OPTIONS,
  async run(flags) {
    const db = flags.db;
    if (!db) throw badOption('--db', 'required (the crawl database file)');
    // Before: a folder that does not exist (a typing slip) ended in a stack trace (exit 1) at the file's lock.
    checkFolder('--db', db);
    const input = settingsFromFlags(flags);
    if (flags.parts !== undefined) return (await import('./parallel-crawl.js')).runParallelCrawl(flags, input, seedsFromFlags(flags));
    let crawler: Crawler;
    if (existsSync(db)) {
      crawler = Crawler.open(db, input);
      try {
        await checkShortW(crawler.settings, CONFIRM_SHORT_W);
      } catch (err) {
        crawler.close();
        throw err;
      }
    } else {
      const full = { ...input, seeds: seedsFromFlags(flags) };
      // Checked before the file exists: a refused crawl leaves nothing behind.
      await checkShortW(Crawler.plan(full), CONFIRM_SHORT_W);
      crawler = Crawler.create(db, full);
    }
    const summary = await runWithSignals(crawler, !!flags.quiet || !!flags.json);
    crawler.close();
    if (flags.json) process.stdout.write(JSON.stringify(summary) + '\n');
    else process.stdout.write(summaryText(summary) + '\n');
    return summary.stopReason === 'disk-full' ? DISK_FULL_EXIT : 0;
  },
});

const CONFIRM_SHORT_W = 'pass --allow-short-w';

/** Runs a crawl with the live line; Ctrl-C or SIGTERM pauses it cleanly (resume by running again). */
export async function runWithSignals(crawler: Crawler, quiet: boolean): Promise<CrawlSummary> {
  const progress = new ProgressPrinter(quiet);
  crawler.on('stats', (s) => progress.update(s));
  crawler.on('indexing', () => progress.note('finished; building the read indexes (pages by URL, links by target)...'));
  const onSignal = () => crawler.pause();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await crawler.run();
  } finally {
    progress.end();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

function seedsFromFlags(flags: CrawlFlags): string[] {
  // Each --seed is one URL, whole: a URL may hold commas (?ids=1,2), so seeds are not split at them as the list flags are.
  const seeds = [...(flags.seed ?? [])];
  const file = flags.seeds;
  if (file) {
    let text: string;
    try {
      // A seed file over the limit is refused unread, in the words of the form and uploadSeeds (field seedText: --seeds).
      const size = SeedFileSizeSchema.safeParse(statSync(file).size);
      if (!size.success) throw badField('seedText', size.error.issues[0]!.message);
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if (err instanceof CrawlError) throw err;
      throw new CrawlError(ErrorCodes.SEED_FILE_UNREADABLE, `--seeds: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    for (const line of text.split(/\r?\n/)) {
      const t = line.replace(/#.*$/, '').trim();
      if (t) seeds.push(t);
    }
    if (seeds.length === 0) throw new CrawlError(ErrorCodes.BAD_SEED, `--seeds: ${file} holds no URL`);
  }
  return seeds;
}

/** Only the flags actually given, so that a resume can tell them apart from stored settings. */
export function settingsFromFlags(flags: CrawlFlags): Partial<CrawlSettingsInput> {
  const scopeGiven = flags.scope !== undefined || flags.host !== undefined || flags.exclude !== undefined;
  const siteKey = choiceFlag(flags, 'site-key', ['host', 'domain']);
  const resolve = listFlag(flags, 'resolve').map((rule) => {
    const eq = rule.indexOf('=');
    if (eq <= 0) throw badOption('--resolve', `"${rule}" is not PATTERN=IP`);
    return { pattern: rule.slice(0, eq), address: rule.slice(eq + 1) };
  });
  const input: Partial<CrawlSettingsInput> = {
    scope: scopeGiven ? { suffixes: listFlag(flags, 'scope'), hosts: listFlag(flags, 'host'), excludes: flags.exclude ?? [] } : undefined,
    siteKey,
    policy: flags.policy,
    policyParams: policyParamsFromFlags(flags),
    w: durationFlag(flags, 'w'),
    ...smallSiteFlags(flags),
    c: limitedFlag(flags, 'c'),
    r: limitedFlag(flags, 'r'),
    keepaliveGap: durationFlag(flags, 'keepalive-gap'),
    pipeliningDepth: intFlag(flags, 'pipelining-depth', 1),
    batch: intFlag(flags, 'batch', 1),
    maxPages: limitedFlag(flags, 'max-pages'),
    maxDepth: limitedFlag(flags, 'max-depth'),
    maxDynamicDepth: intFlag(flags, 'max-dynamic-depth', 0),
    maxPagesPerSite: limitedFlag(flags, 'max-site-pages'),
    userAgent: flags['user-agent'],
    resolve: resolve.length > 0 ? resolve : undefined,
    perIp: flags['per-ip'] ? true : undefined,
    sitemaps: flags.sitemaps ? true : undefined,
    tls: choiceFlag(flags, 'tls', ['verify', 'record']),
    ca: flags.ca?.map((file) => readCaFile(file)),
    allowShortW: flags['allow-short-w'] ? true : undefined,
    bandwidth: sizeFlag(flags, 'bandwidth'),
    connectTimeout: durationFlag(flags, 'connect-timeout'),
    headersTimeout: durationFlag(flags, 'headers-timeout'),
    bodyTimeout: durationFlag(flags, 'body-timeout'),
    requestTimeout: durationFlag(flags, 'request-timeout'),
    maxBodyBytes: sizeFlag(flags, 'max-body'),
    maxAttempts: intFlag(flags, 'max-attempts', 1),
    retryBase: durationFlag(flags, 'retry-base'),
    siteErrorBudget: intFlag(flags, 'site-error-budget', 1),
    robotsRetry: durationFlag(flags, 'robots-retry'),
    maxCrawlDelay: durationFlag(flags, 'max-crawl-delay'),
    storeContent: flags['store-content'] ? true : undefined,
    conditional: flags.unconditional ? false : undefined,
    contentBudget: sizeFlag(flags, 'content-budget'),
    maxDbSize: sizeFlag(flags, 'max-db-size'),
  };
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<CrawlSettingsInput>;
}

/** Policy flags -> settings.policyParams (only those given; the policy checks their values). */
function policyParamsFromFlags(flags: CrawlFlags): Record<string, unknown> | undefined {
  const params: Record<string, unknown> = {
    history: flags.history === undefined ? undefined : resolvePath(flags.history),
    topic: flags.topic,
    topicOrder: flags['topic-order'],
    topicRadius: intFlag(flags, 'topic-radius', 0),
    alpha: numberFlag(flags, 'alpha', 0),
    p: numberFlag(flags, 'pipelining', 0),
    requestsPerConnection: numberFlag(flags, 'requests-per-connection', 1),
    newPages: flags['new-pages'],
    seed: intFlag(flags, 'policy-seed', 0),
  };
  const given = Object.entries(params).filter(([, v]) => v !== undefined);
  return given.length > 0 ? Object.fromEntries(given) : undefined;
}
