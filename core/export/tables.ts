/**
 * The three tables an export can hold, as columns with a type each (Parquet writes the types,
 * CSV and JSON Lines the same names and values), and the rows of each read from the crawl's
 * reader as of its snapshot, filtered, in chunks: pages in discovery (id) order, sites in id
 * order, links in (source, target) order.
 */
import { ErrorCodes } from '../errors.js';
import { ExportReader } from '../store/export-reader.js';
import { schemeNames } from '../store/record-fields.js';
import { TICK_ROWS, type ExportContext } from './context.js';
import { contentTypeMatches, seqMatches, statusMatches, type ExportSubject } from './options.js';
import { siteFilter } from './site-filter.js';

export type ColumnType = 'string' | 'int' | 'double' | 'timestamp' | 'boolean';
export interface Column {
  name: string;
  type: ColumnType;
}
export type Value = string | number | boolean | null;
export type Row = Value[];

export const COLUMNS: Record<ExportSubject, readonly Column[]> = {
  pages: [
    { name: 'url', type: 'string' },
    { name: 'site', type: 'string' },
    { name: 'status', type: 'string' },
    { name: 'http_status', type: 'int' },
    { name: 'content_type', type: 'string' },
    { name: 'bytes', type: 'int' },
    { name: 'content_hash', type: 'string' },
    { name: 'depth', type: 'int' },
    { name: 'fetch_seq', type: 'int' },
    { name: 'fetched_at', type: 'timestamp' },
    { name: 'pagerank', type: 'double' },
    { name: 'error_code', type: 'string' },
  ],
  sites: [
    { name: 'site', type: 'string' },
    { name: 'pages_fetched', type: 'int' },
    { name: 'pages_known', type: 'int' },
    { name: 'bytes', type: 'int' },
    { name: 'errors', type: 'int' },
    { name: 'parked', type: 'string' },
    { name: 'parked_why', type: 'string' },
    { name: 'robots_txt', type: 'string' },
    { name: 'schemes', type: 'string' },
    { name: 'certificate', type: 'string' },
    { name: 'connect_ms', type: 'double' },
    { name: 'pages_per_connection', type: 'double' },
    { name: 'pagerank', type: 'double' },
  ],
  links: [
    { name: 'source_url', type: 'string' },
    { name: 'target_url', type: 'string' },
    { name: 'anchor', type: 'string' },
    { name: 'kind', type: 'string' },
    { name: 'nofollow', type: 'boolean' },
  ],
};

const PARKED_WHY: Record<string, string> = {
  [ErrorCodes.ROBOTS_UNAVAILABLE]: 'robots.txt could not be read (RFC 9309: fetch nothing)',
  [ErrorCodes.SITE_PARKED]: 'too many consecutive failures (the site error budget was spent)',
};

/** The rows of the table the options ask for, in chunks of TICK_ROWS; ticks progress between chunks. */
export async function* tableRows(ctx: ExportContext): AsyncGenerator<Row[]> {
  const rows = ctx.options.what === 'pages' ? pageRows(ctx) : ctx.options.what === 'sites' ? siteRows(ctx) : linkRows(ctx);
  yield* rows;
}

function siteHosts(ctx: ExportContext): Map<number, string> {
  const hosts = new Map<number, string>();
  for (const s of ctx.reader.sites(['host'])) hosts.set(s.id, s.host);
  return hosts;
}

async function* pageRows(ctx: ExportContext): AsyncGenerator<Row[]> {
  const { reader, options } = ctx;
  const f = options.filters;
  const hosts = siteHosts(ctx);
  const sites = siteFilter(ctx, f);
  const run = reader.latestRun('page');
  if (!run) ctx.warnings.push('no PageRank was computed for this crawl: the pagerank column is empty (run `crawlbench rank` first)');
  const ranks = run ? reader.pageRunValues(run.id)[Symbol.iterator]() : null;
  let rank = ranks?.next();
  const total = reader.snapshot.pageId;
  let chunk: Row[] = [];
  let seen = 0;
  const fields = ['url', 'siteId', 'status', 'httpStatus', 'contentType', 'bytes', 'contentHash', 'depth', 'fetchSeq', 'fetchedAt', 'errorCode'] as const;
  for (const p of reader.pages(fields)) {
    // PageRank values come in page id order too: a merge join.
    while (ranks && rank && !rank.done && rank.value[0] < p.id) rank = ranks.next();
    if ((!sites || sites.has(p.siteId)) && statusMatches(f, p.httpStatus) && contentTypeMatches(f, p.contentType) && seqMatches(f, p.fetchSeq)) {
      const pr = rank && !rank.done && rank.value[0] === p.id ? rank.value[1] : null;
      chunk.push([p.url, hosts.get(p.siteId) ?? null, p.status, p.httpStatus, p.contentType, p.bytes, p.contentHash, p.depth, p.fetchSeq, p.fetchedAt === null ? null : Math.floor(p.fetchedAt), pr, p.errorCode]);
    }
    if (++seen % TICK_ROWS === 0) {
      await ctx.tick(p.id, total);
      if (chunk.length) yield chunk;
      chunk = [];
    }
  }
  if (chunk.length) yield chunk;
  await ctx.tick(total, total);
}

async function* siteRows(ctx: ExportContext): AsyncGenerator<Row[]> {
  const { reader, options } = ctx;
  const extra = new ExportReader(reader);
  const robots = extra.robotsStateBySite();
  const run = reader.latestRun('site');
  const ranks = run ? extra.siteRunValues(run.id) : new Map<number, number>();
  if (!run) ctx.warnings.push('no site PageRank was computed for this crawl: the pagerank column is empty (run `crawlbench rank --site` first)');
  const wanted = options.filters.sites.length ? new Set(options.filters.sites) : null;
  const total = reader.snapshot.siteId;
  let chunk: Row[] = [];
  let seen = 0;
  const found = new Set<string>();
  for (const s of reader.sites(['host', 'pagesFetched', 'pagesKnown', 'bytes', 'errors', 'parked', 'connectMs', 'requestsPerConn', 'schemes', 'tls'])) {
    if (!wanted || wanted.has(s.host)) {
      found.add(s.host);
      chunk.push([
        s.host, s.pagesFetched, s.pagesKnown, s.bytes, s.errors, s.parked, s.parked ? (PARKED_WHY[s.parked] ?? s.parked) : null,
        robots.get(s.id) ?? null, schemeNames(s.schemes).join(',') || null, s.tls, s.connectMs, s.requestsPerConn, ranks.get(s.id) ?? null,
      ]);
    }
    if (++seen % TICK_ROWS === 0) {
      await ctx.tick(s.id, total);
      if (chunk.length) yield chunk;
      chunk = [];
    }
  }
  if (wanted) {
    const unknown = [...wanted].filter((h) => !found.has(h));
    if (unknown.length) ctx.warnings.push(`no site named ${unknown.join(', ')} in this crawl`);
  }
  if (chunk.length) yield chunk;
  await ctx.tick(total, total);
}

async function* linkRows(ctx: ExportContext): AsyncGenerator<Row[]> {
  const { reader, options } = ctx;
  const f = options.filters;
  const extra = new ExportReader(reader);
  const sites = siteFilter(ctx, f);
  // A source page's site and fetch sequence, asked once per source (links come grouped by source).
  let lastSrc = -1;
  let srcMatches = true;
  // Links come in fetch order (schema 12): progress is the fetches read of the snapshot's.
  const total = reader.snapshot.fetchSeq;
  let chunk: Row[] = [];
  let seen = 0;
  for (const l of extra.links()) {
    if (l.src !== lastSrc) {
      lastSrc = l.src;
      if (sites || f.seq.length) {
        const src = reader.page(l.src, ['siteId', 'fetchSeq'])!;
        srcMatches = (!sites || sites.has(src.siteId)) && seqMatches(f, src.fetchSeq);
      }
    }
    if (srcMatches) chunk.push([l.srcUrl, l.dstUrl, l.anchor, l.kind, l.nofollow === 1]);
    if (++seen % TICK_ROWS === 0) {
      await ctx.tick(Math.max(0, l.seq), total);
      if (chunk.length) yield chunk;
      chunk = [];
    }
  }
  if (chunk.length) yield chunk;
  await ctx.tick(total, total);
}
