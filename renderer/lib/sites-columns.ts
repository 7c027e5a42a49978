/** The Sites view's columns: each site's figures, as the engine sorts them, in a researcher's words. */
import type { SiteRowDto } from '../../core/api/contract.js';
import type { PagedColumn } from '../components/PagedTable.vue';
import { formatBytes, formatNumber } from './format.js';
import { certificateText, kindsText, robotsText, schemesText } from './sites-query.js';

const pct = (v: number | null) => (v === null ? '–' : `${formatNumber(v * 100, 2)} %`);
const ms = (v: number | null) => (v === null ? '–' : `${formatNumber(v, 1)} ms`);
const seconds = (v: number | null) => (v === null ? '–' : `${formatNumber(v / 1000, 2)} s`);

export const SITE_COLUMNS: Array<PagedColumn<SiteRowDto>> = [
  { key: 'host', label: 'Site', value: (r) => r.host, sortable: true, tooltip: 'The site (its host name); opens its pages in the Pages view' },
  { key: 'state', label: 'State', value: (r) => r.state, sortable: true, tooltip: 'Pages to fetch: some of its pages wait; done: nothing of it is left; parked: the crawler gave it up (the reason follows)' },
  { key: 'pages_fetched', label: 'Pages fetched', value: (r) => r.pagesFetched, numeric: true, sortable: true, tooltip: 'Pages of the site fetched so far' },
  { key: 'pages_known', label: 'Pages known', value: (r) => r.pagesKnown, numeric: true, sortable: true, tooltip: 'Pages of the site discovered (fetched or not)' },
  { key: 'bytes', label: 'Size', value: (r) => r.bytes, format: (v) => formatBytes(Number(v)), numeric: true, sortable: true, tooltip: 'Bytes downloaded from the site' },
  { key: 'errors', label: 'Failed requests', value: (r) => r.errors, numeric: true, sortable: true, tooltip: 'Requests that failed (each retry counted)' },
  { key: 'kinds', label: 'Pages not fetched, by reason', value: (r) => kindsText(r.errorsByKind), format: (v) => (v ? String(v) : '–'), tooltip: 'Pages that failed or were left out, by the reason they ended with' },
  { key: 'robots', label: 'robots.txt', value: (r) => robotsText(r.robots), tooltip: 'Whether the site’s robots.txt was read and kept pages out, with its HTTP status' },
  { key: 'schemes', label: 'Scheme', value: (r) => schemesText(r.schemes), tooltip: 'The schemes the crawler reached the site over: http, https, or both (one site whatever its scheme)' },
  { key: 'certificate', label: 'Certificate', value: (r) => certificateText(r.certificate), tooltip: 'The site’s TLS certificate as last found over https: valid, or what is wrong with it (expired, untrusted, for another name, a failed handshake); none for a site reached over http only' },
  { key: 'crawl_delay', label: 'Crawl-delay', value: (r) => r.crawlDelayMs, format: (v) => seconds(v as number | null), numeric: true, sortable: true, tooltip: 'The wait between requests the site’s robots.txt asks for' },
  { key: 'connect_ms', label: 'Connection time', value: (r) => r.connectMs, format: (v) => ms(v as number | null), numeric: true, sortable: true, tooltip: 'Time to open a connection to the site, measured (a moving average)' },
  { key: 'requests_per_conn', label: 'Pages per connection', value: (r) => r.requestsPerConn, format: (v) => formatNumber(v as number | null, 1), numeric: true, sortable: true, tooltip: 'Requests made over one connection before it closed (a moving average)' },
  { key: 'site_pagerank', label: 'Site PageRank', value: (r) => r.pagerank, format: (v) => pct(v as number | null), numeric: true, sortable: true, tooltip: 'The site’s share of the site graph’s PageRank (computed in Results)' },
];
