/** The Pages view's result columns: what each shows of a page, and the engine's sort it stands for. */
import type { PageRowDto, PageSortKey } from '../../core/api/contract.js';
import { formatBytes, formatNumber } from './format.js';
import { formatPageRank } from './page-search-route.js';

export interface PageColumn {
  key: string;
  label: string;
  tooltip: string;
  numeric?: boolean;
  sort?: PageSortKey;
  show: (r: PageRowDto) => string;
}

export const PAGE_COLUMNS: readonly PageColumn[] = [
  { key: 'url', label: 'URL', tooltip: 'The page’s address; opens it in the inspector', show: (r) => r.url },
  { key: 'status', label: 'Status', tooltip: 'Where the page stands in the crawl', show: (r) => r.status },
  { key: 'http', label: 'HTTP', tooltip: 'The HTTP status of the answer', numeric: true, show: (r) => (r.httpStatus === null ? '–' : String(r.httpStatus)) },
  { key: 'type', label: 'Type', tooltip: 'Content type of the answer', show: (r) => (r.contentType ?? '–').split(';')[0]! },
  { key: 'size', label: 'Size', tooltip: 'Bytes received', numeric: true, show: (r) => (r.bytes === null ? '–' : formatBytes(r.bytes)) },
  { key: 'depth', label: 'Depth', tooltip: 'Links followed from a seed', numeric: true, show: (r) => String(r.depth) },
  { key: 'pagerank', label: 'PageRank', tooltip: 'The page’s value in the latest stored PageRank', numeric: true, sort: 'pagerank', show: (r) => formatPageRank(r.pagerank) },
  { key: 'indegree', label: 'In-links', tooltip: 'Pages of the crawl linking to it (counted when the crawl finishes)', numeric: true, sort: 'indegree', show: (r) => formatNumber(r.inDegree) },
  { key: 'fetch', label: 'Fetch no.', tooltip: 'The order in which fetches were stored', numeric: true, sort: 'fetch', show: (r) => formatNumber(r.fetchSeq) },
];
