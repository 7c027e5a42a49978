/**
 * searchPages and getPage for the in-memory API: pages held by the test, filtered, sorted and
 * paged as the engine does (its own request checks, so a bad field is refused the same way;
 * pages without a sort key after the others in id order, ties by id in the sort's direction).
 */
import type { PageDetail, PageRowDto, PageSearchDto } from '../../core/api/contract.js';
import { parsePageLinks, parsePageSearch } from '../../core/api/pages-query.js';
import { badField } from '../../core/errors.js';

export interface FakePage extends PageRowDto {
  site: string;
  title: string | null;
  parent: string | null;
  links: string[];
}

/** `n` pages on a.test and b.test, with PageRank and in-degrees that differ. */
export function fakePages(n: number): FakePage[] {
  return Array.from({ length: n }, (_, i) => {
    const site = i % 3 === 2 ? 'b.test' : 'a.test';
    const queued = i % 10 === 9;
    return {
      url: i === 0 ? 'http://a.test/' : `http://${site}/page-${i}.html`,
      site,
      status: queued ? 'queued' : i % 10 === 7 ? 'failed' : 'fetched',
      httpStatus: queued ? null : i % 10 === 7 ? 404 : 200,
      contentType: queued ? null : i % 4 === 3 ? 'application/pdf' : 'text/html',
      bytes: queued ? null : 1000 + ((i * 7919) % 50_000),
      depth: i === 0 ? 0 : 1 + (i % 4),
      pagerank: (1 / (i + 2)) * (1 + (i % 5) / 10),
      inDegree: (i * 13) % 17,
      fetchSeq: queued ? null : i + 1,
      title: `Page ${i}`,
      parent: i === 0 ? null : 'http://a.test/',
      links: i === 0 ? [] : ['http://a.test/'],
    };
  });
}

export function fakeSearchPages(pages: FakePage[], query: unknown): PageSearchDto {
  const q = parsePageSearch(query);
  if (q.sort === 'pagerank' && !pages.some((p) => p.pagerank !== null)) throw badField('sort', 'no PageRank is stored for this crawl yet');
  const text = q.url?.toLowerCase();
  const matches = pages
    .map((p, id) => ({ p, id }))
    .filter(({ p }) => {
      if (text && !p.url.toLowerCase().includes(text)) return false;
      if (q.site && p.site !== q.site) return false;
      if (q.status && (/^\dxx$/.test(q.status) ? Math.floor((p.httpStatus ?? 0) / 100) !== Number(q.status[0]) : p.status !== q.status)) return false;
      if (q.type && !(p.contentType ?? '').toLowerCase().startsWith(q.type.toLowerCase())) return false;
      if (q.depth !== undefined && (q.exactDepth ? p.depth !== q.depth : p.depth > q.depth)) return false;
      return true;
    });
  const key = (p: FakePage) => (q.sort === 'fetch' ? p.fetchSeq : q.sort === 'pagerank' ? p.pagerank : p.inDegree);
  const dir = q.descending ? -1 : 1;
  matches.sort((a, b) => {
    const ka = key(a.p);
    const kb = key(b.p);
    if (ka === null || kb === null) return ka === null && kb === null ? a.id - b.id : ka === null ? 1 : -1;
    return ka !== kb ? (ka - kb) * dir : (a.id - b.id) * dir;
  });
  return {
    total: matches.length,
    totalAtLeast: matches.length,
    rows: matches.slice(q.offset, q.offset + q.limit).map(({ p }) => {
      const { site: _s, title: _t, parent: _p, links: _l, ...row } = p;
      return row;
    }),
    offset: q.offset,
    limit: q.limit,
    sort: q.sort,
    descending: q.descending,
    indexed: true,
    complete: true,
    examined: pages.length,
    pagerankRun: { id: 1, createdAt: '2026-01-01T00:00:00.000Z' },
  };
}

export function fakePageDetail(pages: FakePage[], url: string, links: unknown): PageDetail | null {
  const { linkLimit, inOffset, outOffset } = parsePageLinks(links);
  const page = pages.find((p) => p.url === url);
  if (!page) return null;
  const inAll = pages.filter((p) => p.links.includes(page.url)).map((p) => ({ url: p.url, anchor: null, kind: 'a' }));
  const outAll = page.links.map((u) => ({ url: u, anchor: 'home', kind: 'a' }));
  const path: Array<{ url: string; depth: number }> = [];
  for (let p = pages.find((x) => x.url === page.parent); p; p = pages.find((x) => x.url === p!.parent)) path.unshift({ url: p.url, depth: p.depth });
  return {
    url: page.url, status: page.status, httpStatus: page.httpStatus, title: page.title, contentType: page.contentType, bytes: page.bytes, depth: page.depth,
    errorCode: page.status === 'failed' ? 'CRAWL_HTTP_4XX' : null, fetchedAt: page.fetchSeq === null ? null : 1.78e12 + page.fetchSeq * 1000, fetchSeq: page.fetchSeq,
    inLinks: inAll.slice(inOffset, inOffset + linkLimit), outLinks: outAll.slice(outOffset, outOffset + linkLimit),
    truncated: inOffset + linkLimit < inAll.length || outOffset + linkLimit < outAll.length,
    pagerank: page.pagerank, pagerankRun: { id: 1, createdAt: '2026-01-01T00:00:00.000Z' }, discoveryPath: path,
    inLinkCount: inAll.length, outLinkCount: outAll.length, inOffset, outOffset, linkLimit,
  };
}
