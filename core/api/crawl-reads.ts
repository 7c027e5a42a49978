/**
 * The Sites and Pages views' reads (listSites, searchPages, getPage) and listCrawls' summary
 * of each crawl as messages: what read-pool.ts sends to a read worker (read-worker.ts), and
 * what the worker does with one. The summary counts a crawl's pages through its indexes (on
 * bench/server-load's 3M-page crawl about 0.3 s of CPU), which held the server's thread each
 * time the Crawls view listed a workspace of large crawls.
 * Each read opens its own read-only connection (a fresh CrawlReader: a running crawl is read
 * as of its last committed batch) and closes it before answering, so no thread holds a crawl
 * file open between calls and a deleted crawl's files can go at once. The requests' fields
 * are checked where they are today (sites-query.ts, pages-query.ts), once, in the worker.
 */
import { CrawlError, ErrorCodes, sqliteFileError, type ErrorCode } from '../errors.js';
import { withMigratedCrawlReader } from '../store/crawl-reader.js';
import type { PageDetail, PageSearchDto, SitesPage } from './contract.js';
import { storedSummary, type StoredSummary } from './crawl-queries.js';
import { pageDetail, searchPages } from './page-queries.js';
import { sitesPage } from './sites-query.js';

export type CrawlRead =
  | { what: 'sites'; path: string; query: unknown }
  | { what: 'search'; path: string; query: unknown }
  | { what: 'page'; path: string; url: unknown; links: unknown }
  | { what: 'summary'; path: string };

export interface CrawlReadResults {
  sites: SitesPage;
  search: PageSearchDto;
  page: PageDetail | null;
  summary: StoredSummary;
}

/** An error as it crosses a thread: a CrawlError keeps its code and field; any other error its message and stack. */
export interface ReadError {
  code: string | null;
  message: string;
  field?: string;
  stack?: string;
}

/**
 * These reads run on the read worker (read-pool.ts), where a crawl killed while building its
 * read indexes may have them built (minutes for millions of pages) without holding the server.
 * A file of an earlier schema is refused (CRAWL_DB_UPGRADING) rather than migrated here, which
 * would hold every read behind it: the server brings it up to date in a process of its own
 * (crawl-upgrades.ts).
 */
const REPAIR = { repairIndexes: true, upgrade: false } as const;

/** Runs one read on this thread: its result is typed by the read's kind. */
export function runCrawlRead<R extends CrawlRead>(read: R): CrawlReadResults[R['what']] {
  return readOf(read) as CrawlReadResults[R['what']];
}

function readOf(read: CrawlRead): CrawlReadResults[CrawlRead['what']] {
  switch (read.what) {
    case 'sites':
      return withMigratedCrawlReader(read.path, (reader) => sitesPage(reader, (read.query ?? {}) as Parameters<typeof sitesPage>[1]), REPAIR);
    case 'search':
      return withMigratedCrawlReader(read.path, (reader) => searchPages(reader, read.query), REPAIR);
    case 'page':
      return withMigratedCrawlReader(read.path, (reader) => pageDetail(reader, read.url ?? '', read.links), REPAIR);
    case 'summary':
      return withMigratedCrawlReader(read.path, storedSummary, REPAIR);
  }
}

export function toReadError(thrown: unknown): ReadError {
  // A file damaged past its header, met while reading: said as the corrupt file it is (its code would not cross the thread).
  const err = sqliteFileError(thrown) ?? thrown;
  if (err instanceof CrawlError) return { code: err.code, message: err.message, ...(err.field !== undefined ? { field: err.field } : {}) };
  const e = err instanceof Error ? err : new Error(String(err));
  return { code: null, message: e.message, stack: e.stack };
}

/** The error again on the calling thread: the same CrawlError, or an Error with the worker's message and stack. */
export function fromReadError(e: ReadError): Error {
  if (e.code !== null) return new CrawlError(e.code as ErrorCode, e.message, e.field !== undefined ? { field: e.field } : undefined);
  const err = new Error(e.message);
  if (e.stack) err.stack = e.stack;
  return err;
}

/** A read the worker was not there to answer (it ended, or failed to start). */
export function readLost(what: string, why: string): CrawlError {
  return new CrawlError(ErrorCodes.INTERNAL, `${what}: the read worker ended before answering (${why})`);
}
