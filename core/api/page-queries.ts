/**
 * The Pages view's API (issue 18): searchPages and the inspector's getPage, every request
 * field checked here (scripts reach the API too), the questions asked of the store's
 * PageSearch (core/store/page-search.ts) on a fresh reader, the answers as contract DTOs.
 */
import { badField } from '../errors.js';
import type { CrawlReader } from '../store/crawl-reader.js';
import { PageSearch, type PageSearchRequest } from '../store/page-search.js';
import { canonicalize } from '../url/canonical.js';
import type { PageDetail, PageSearchDto } from './contract.js';
import { parsePageLinks, parsePageSearch } from './pages-query.js';

function runOf(reader: CrawlReader): { id: number; createdAt: string } | null {
  const run = reader.latestRun('page');
  return run ? { id: run.id, createdAt: run.created_at } : null;
}

export function searchPages(reader: CrawlReader, query: unknown): PageSearchDto {
  const q = parsePageSearch(query);
  const search = new PageSearch(reader);
  const run = runOf(reader);
  const indexed = search.indexed();
  if (q.sort === 'pagerank' && !run) throw badField('sort', 'no PageRank is stored for this crawl yet: compute it first (Crawls or Results)');
  if (q.sort === 'indegree' && !indexed) throw badField('sort', 'in-degrees are counted when the crawl finishes or is stopped');
  const base = { offset: q.offset, limit: q.limit, sort: q.sort, descending: q.descending, indexed, pagerankRun: run };
  let siteId: number | undefined;
  if (q.site !== undefined) {
    siteId = search.siteId(q.site);
    if (siteId === undefined) return { ...base, total: 0, totalAtLeast: 0, complete: true, examined: 0, rows: [] };
  }
  const req: PageSearchRequest = {
    urlText: q.url,
    siteId,
    status: q.status,
    typePrefix: q.type,
    depth: q.depth,
    exactDepth: q.exactDepth ?? false,
    sort: q.sort,
    descending: q.descending,
    offset: q.offset,
    limit: q.limit,
  };
  const out = search.search(req);
  return {
    ...base,
    total: out.total,
    totalAtLeast: out.totalAtLeast,
    complete: out.complete,
    examined: out.examined,
    rows: out.rows.map(({ id: _id, ...row }) => row),
  };
}

export function pageDetail(reader: CrawlReader, url: unknown, links: unknown): PageDetail | null {
  if (typeof url !== 'string') throw badField('url', 'must be text');
  const { linkLimit, inOffset, outOffset } = parsePageLinks(links);
  const fields = ['id', 'url', 'status', 'httpStatus', 'title', 'contentType', 'bytes', 'depth', 'errorCode', 'fetchedAt', 'fetchSeq'] as const;
  const asked = url.trim();
  const row = reader.pageByUrl(canonicalize(asked) ?? asked, fields) ?? reader.pageByUrl(asked, fields);
  if (!row) return null;
  const search = new PageSearch(reader);
  const run = runOf(reader);
  const inn = search.inLinks(row.id, inOffset, linkLimit);
  const out = search.outLinks(row.id, outOffset, linkLimit);
  return {
    url: row.url,
    status: row.status,
    httpStatus: row.httpStatus,
    title: row.title,
    contentType: row.contentType,
    bytes: row.bytes,
    depth: row.depth,
    errorCode: row.errorCode,
    fetchedAt: row.fetchedAt,
    fetchSeq: row.fetchSeq,
    inLinks: inn.links,
    outLinks: out.links,
    truncated: (inn.total === null ? inn.links.length === linkLimit : inOffset + inn.links.length < inn.total) || outOffset + out.links.length < out.total,
    pagerank: search.pagerankOf(row.id, run?.id ?? null),
    pagerankRun: run,
    discoveryPath: search.discoveryPath(row.id),
    inLinkCount: inn.total,
    outLinkCount: out.total,
    inOffset,
    outOffset,
    linkLimit,
  };
}
