/**
 * The WARC export: every fetch of the crawl as of the reader's snapshot, in fetch order, with
 * the robots.txt answers where they were asked: a response record (or, for a payload already
 * written, a revisit) and its request, from the content the crawl stored.
 */
import { CrawlError, ErrorCodes } from '../errors.js';
import { formatBytes } from '../config/units.js';
import { ContentReader, type StoredContent } from '../store/content-reader.js';
import { ExportReader, type RobotsCapture } from '../store/export-reader.js';
import { writeCdxj } from './cdxj.js';
import type { ExportContext } from './context.js';
import { DigestTable } from './digest-table.js';
import { contentTypeMatches, seqMatches, statusMatches } from './options.js';
import { siteFilter } from './site-filter.js';
import { RecordIds, sha1, warcDigest } from './record-ids.js';
import { SOFTWARE, notModifiedRecord, parseHead, requestRecord, responseRecord, revisitRecord, type HttpHead } from './warc-records.js';

const NOT_MODIFIED = /^\S+ 304\b/;
import { WarcFiles, fileStamp } from './warc-files.js';

/** A fetch to write: a page or a robots.txt answer. */
interface Fetch {
  kind: 'page' | 'robots';
  rowId: number;
  url: string;
  fetchedAt: number;
  content: StoredContent;
}

/**
 * Fetches between two ticks: a WARC record costs ~0.5 ms, so a tick every 64 keeps the event
 * loop of a process that also runs crawls and serves the UI free within ~50 ms.
 */
const WARC_TICK_ROWS = 64;

export interface WarcResult {
  files: string[];
  responses: number;
  revisits: number;
  /** Fetches that matched but had no stored content. */
  missing: number;
}

export async function exportWarc(ctx: ExportContext): Promise<WarcResult> {
  const { reader, options } = ctx;
  const settings = JSON.parse(reader.meta('settings') ?? '{}') as Record<string, unknown>;
  const extra = new ExportReader(reader);
  const coverage = extra.coverage();
  if (coverage.captured === 0 && coverage.robotsCaptures === 0 && coverage.fetched > 0) {
    throw new CrawlError(
      ErrorCodes.EXPORT_NO_CONTENT,
      `crawl "${ctx.crawlName}" stored no content${settings.storeContent ? '' : ' (it was made without --store-content)'}: a WARC holds the responses' bodies. ` +
        'Crawl again with --store-content (in the workbench: "Keep the pages\' content" in New crawl); jsonl, csv and parquet exports work without it',
    );
  }
  olderCrawlWarnings(ctx, coverage);
  const prefix = options.prefix ?? ctx.crawlName;
  ctx.out.checkDir(options.out, prefix, options.force);
  const ids = new RecordIds(`${reader.meta('created_at') ?? ''}\n${reader.meta('settings') ?? ''}`);
  const files = new WarcFiles(ctx.out, options.out, prefix, fileStamp(reader.meta('created_at')), options.maxFileSize, ids, warcInfo(settings));
  const w = new FetchWriter(ctx, files, ids, extra);
  const sites = siteFilter(ctx, options.filters);
  const robots = extra.robotsCaptures()[Symbol.iterator]();
  let nextRobots = robots.next();
  const total = reader.snapshot.fetchSeq;
  let rows = 0;
  const pages = reader.pagesByFetch(['id', 'url', 'siteId', 'httpStatus', 'contentType', 'fetchedAt']);
  for (const page of pages) {
    const seq = page.fetchSeq ?? 0;
    while (!nextRobots.done && nextRobots.value.afterSeq < seq) {
      await w.robots(nextRobots.value, sites);
      nextRobots = robots.next();
    }
    const f = options.filters;
    if ((!sites || sites.has(page.siteId)) && statusMatches(f, page.httpStatus) && contentTypeMatches(f, page.contentType) && seqMatches(f, page.fetchSeq)) {
      await w.page(page.id, page.url, page.fetchedAt ?? 0);
    }
    if (++rows % WARC_TICK_ROWS === 0) await ctx.tick(seq, total);
  }
  for (; !nextRobots.done; nextRobots = robots.next()) await w.robots(nextRobots.value, sites);
  await files.finish();
  await ctx.tick(total, total);
  if (w.missing > 0) {
    ctx.warnings.push(`${w.missing} matching fetch(es) have no stored content (over the crawl's content budget${coverage.rebuilt > 0 ? ', or final 5xx/429 answers of a crawl made before schema 5' : ''}): they are not in the WARC`);
  }
  if (w.responses + w.revisits === 0) ctx.warnings.push('no fetch matched the filters: the WARC holds only its warcinfo record');
  if (options.cdx) files.names.push(await writeCdxj(ctx, files, prefix));
  return { files: files.names, responses: w.responses, revisits: w.revisits, missing: w.missing };
}

/** Writes fetches as records, deciding response or revisit by the payload's digest. */
class FetchWriter {
  private readonly digests = new DigestTable();
  private readonly content: ContentReader;
  responses = 0;
  revisits = 0;
  missing = 0;
  lossy = 0;

  constructor(
    private readonly ctx: ExportContext,
    private readonly files: WarcFiles,
    private readonly ids: RecordIds,
    private readonly extra: ExportReader,
  ) {
    this.content = new ContentReader(ctx.reader);
  }

  async page(id: number, url: string, fetchedAt: number): Promise<void> {
    const content = this.content.read(id);
    if (!content) {
      this.missing++;
      return;
    }
    await this.write({ kind: 'page', rowId: id, url, fetchedAt, content });
  }

  async robots(r: RobotsCapture, sites: Set<number> | null): Promise<void> {
    const f = this.ctx.options.filters;
    if (sites && !sites.has(r.siteId)) return;
    if (!statusMatches(f, r.httpStatus) || !seqMatches(f, r.afterSeq + 1)) return;
    const content = this.content.readAt(r, `robots.txt capture ${r.id}`);
    if (f.contentTypes.length) {
      const ct = parseHead(content.responseHeaders).headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? null;
      if (!contentTypeMatches(f, ct)) return;
    }
    await this.write({ kind: 'robots', rowId: r.id, url: r.url, fetchedAt: r.fetchedAt, content });
  }

  private async write(f: Fetch): Promise<void> {
    const date = isoDate(f.fetchedAt);
    const head = this.responseHead(f.content.responseHeaders);
    const sha = sha1(f.content.body);
    const payloadDigest = warcDigest(sha);
    const own = f.rowId * 2 + (f.kind === 'robots' ? 1 : 0);
    // An empty payload is written as a response: a revisit of nothing saves nothing.
    const first = f.content.body.length > 0 ? this.digests.claim(sha, own) : own;
    let response: Buffer;
    let id: string;
    const revisit = (f.kind === 'page' && NOT_MODIFIED.test(head.statusline)) || first !== own;
    if (f.kind === 'page' && NOT_MODIFIED.test(head.statusline)) {
      // A conditional recrawl's 304: the page is the history crawl's capture.
      id = this.ids.id(f.kind, f.rowId, 'revisit');
      response = await notModifiedRecord({ id, url: f.url, date, head });
      this.revisits++;
    } else if (first === own) {
      id = this.ids.id(f.kind, f.rowId, 'response');
      response = await responseRecord({ id, url: f.url, date, head, body: f.content.body, payloadDigest });
      this.responses++;
    } else {
      id = this.ids.id(f.kind, f.rowId, 'revisit');
      response = await revisitRecord({ id, url: f.url, date, head, payloadDigest, refersTo: this.original(first) });
      this.revisits++;
    }
    const requestHead = parseHead(f.content.request);
    const request = await requestRecord({ id: this.ids.id(f.kind, f.rowId, `request-${revisit ? 'revisit' : 'response'}`), url: f.url, date, head: requestHead, concurrentTo: id });
    await this.files.add([response, request]);
  }

  /** The record a revisit refers to: its id, URL and date, looked up by the reference the digest table keeps. */
  private original(ref: number): { id: string; url: string; date: string } {
    const rowId = Math.floor(ref / 2);
    if (ref % 2 === 1) {
      const r = this.extra.robotsCapture(rowId)!;
      return { id: this.ids.id('robots', rowId, 'response'), url: r.url, date: isoDate(r.fetchedAt) };
    }
    const p = this.ctx.reader.page(rowId, ['url', 'fetchedAt'])!;
    return { id: this.ids.id('page', rowId, 'response'), url: p.url, date: isoDate(p.fetchedAt ?? 0) };
  }

  /** The status line and headers as received, less Transfer-Encoding: the payload is stored de-chunked. */
  private responseHead(stored: string): HttpHead {
    const head = parseHead(stored);
    if (head.lossy && this.lossy++ === 0) this.ctx.warnings.push('some header values were not UTF-8 and were written as latin1 characters (their bytes differ from what was received)');
    return { statusline: head.statusline, headers: head.headers.filter(([k]) => k.toLowerCase() !== 'transfer-encoding') };
  }
}

function isoDate(ms: number): string {
  return new Date(Math.floor(ms)).toISOString();
}

function olderCrawlWarnings(ctx: ExportContext, c: ReturnType<ExportReader['coverage']>): void {
  if (c.rebuilt > 0) {
    ctx.warnings.push(
      `${c.rebuilt} response(s) were stored by a crawlbench older than schema 5: their status line has no reason phrase and their header names are lower-case and regrouped, not as received`,
    );
  }
  if (c.robotsCaptures === 0 && c.robotsOrigins > 0) {
    ctx.warnings.push('robots.txt answers were not kept by this crawl (made before schema 5, or each one longer than 1 MiB and cut off there): the WARC has none');
  }
  if (c.rebuilt > 0) ctx.warnings.push('final 5xx and 429 answers of pages that gave up were not kept before schema 5: those pages are missing');
}

function warcInfo(settings: Record<string, unknown>): Record<string, string> {
  const scope = settings.scope as { suffixes?: string[]; hosts?: string[] } | undefined;
  const info: Record<string, string> = {
    software: SOFTWARE,
    format: 'WARC File Format 1.1',
    conformsTo: 'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/',
    robots: 'obey',
    'http-header-user-agent': String(settings.userAgent ?? ''),
    seeds: Array.isArray(settings.seeds) ? settings.seeds.join(' ') : '',
    scope: [...(scope?.suffixes ?? []), ...(scope?.hosts ?? [])].join(' '),
    policy: String(settings.policy ?? ''),
    w: `${settings.w ?? ''} ms`,
    c: String(settings.c ?? ''),
    r: String(settings.r ?? ''),
  };
  if (typeof settings.contentBudget === 'number') info['content-budget'] = formatBytes(settings.contentBudget);
  return info;
}
