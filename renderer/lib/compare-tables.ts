/**
 * The Compare view's tables: their columns (raw values for sorting and CSV, shown formatted)
 * and the settings of both crawls side by side.
 */
import type { CompareReport, ListedPage, Mover, SideSummary, SiteRow } from '../../core/compare/report.js';
import type { Column } from './columns.js';
import type { Cell } from './download.js';
import { share } from './compare-cards.js';
import { formatBytes, formatNumber } from './format.js';

const pr = (v: Cell) => (typeof v === 'number' ? v.toExponential(3) : '–');
const bytes = (v: Cell) => (typeof v === 'number' ? formatBytes(v) : '–');
const int = (v: Cell) => formatNumber(v as number | null);
const dec = (digits: number) => (v: Cell) => formatNumber(v as number | null, digits);

export const PAGE_COLUMNS: Array<Column<ListedPage>> = [
  { key: 'url', label: 'URL', value: (p) => p.url },
  { key: 'pageRankA', label: 'PageRank in A', value: (p) => p.pageRankA, format: pr, numeric: true },
  { key: 'pageRankB', label: 'PageRank in B', value: (p) => p.pageRankB, format: pr, numeric: true },
];

export const MOVER_COLUMNS: Array<Column<Mover>> = [
  { key: 'url', label: 'URL', value: (m) => m.url },
  { key: 'pageRankA', label: 'PageRank in A', value: (m) => m.pageRankA, format: pr, numeric: true },
  { key: 'pageRankB', label: 'PageRank in B', value: (m) => m.pageRankB, format: pr, numeric: true },
  // log2 of B's share over A's (each value times its graph's size): +1 is twice the share.
  { key: 'log2Change', label: 'Share B / A', value: (m) => m.change, format: (v) => (typeof v === 'number' ? `× ${formatNumber(2 ** v, 2)}` : '–'), numeric: true },
];

export const SITE_COLUMNS: Array<Column<SiteRow>> = [
  { key: 'site', label: 'Site', value: (s) => s.site },
  { key: 'pagesA', label: 'Pages A', value: (s) => s.pagesA, format: int, numeric: true },
  { key: 'pagesB', label: 'Pages B', value: (s) => s.pagesB, format: int, numeric: true },
  { key: 'growth', label: 'Growth', value: (s) => s.growth, format: (v) => (typeof v === 'number' ? `${v >= 0 ? '+' : ''}${share(v)}` : 'new'), numeric: true },
  { key: 'added', label: 'Added', value: (s) => s.added, format: int, numeric: true },
  { key: 'removed', label: 'Removed', value: (s) => s.removed, format: int, numeric: true },
  { key: 'changed', label: 'Changed', value: (s) => s.changed, format: int, numeric: true },
  { key: 'bytesA', label: 'Bytes A', value: (s) => s.bytesA, format: bytes, numeric: true },
  { key: 'bytesB', label: 'Bytes B', value: (s) => s.bytesB, format: bytes, numeric: true },
  { key: 'errorsA', label: 'Errors A', value: (s) => s.errorsA, format: int, numeric: true },
  { key: 'errorsB', label: 'Errors B', value: (s) => s.errorsB, format: int, numeric: true },
  { key: 'connectMsA', label: 'Connect ms A', value: (s) => s.connectMsA, format: dec(1), numeric: true },
  { key: 'connectMsB', label: 'Connect ms B', value: (s) => s.connectMsB, format: dec(1), numeric: true },
  { key: 'pagesPerConnectionA', label: 'Pages/conn. A', value: (s) => s.pagesPerConnectionA, format: dec(2), numeric: true },
  { key: 'pagesPerConnectionB', label: 'Pages/conn. B', value: (s) => s.pagesPerConnectionB, format: dec(2), numeric: true },
];

export const STATUS_CLASS_COLUMNS: Array<Column<CompareReport['statusClasses'][number]>> = [
  { key: 'status', label: 'Status', value: (s) => s.status },
  { key: 'a', label: 'Pages A', value: (s) => s.a, format: int, numeric: true },
  { key: 'b', label: 'Pages B', value: (s) => s.b, format: int, numeric: true },
];

export const STATUS_CHANGE_COLUMNS: Array<Column<CompareReport['statusChanges'][number]>> = [
  { key: 'from', label: 'In A', value: (s) => s.from },
  { key: 'to', label: 'In B', value: (s) => s.to },
  { key: 'pages', label: 'Pages', value: (s) => s.pages, format: int, numeric: true },
];

export interface SettingRow {
  setting: string;
  a: string;
  b: string;
}

export const SETTING_COLUMNS: Array<Column<SettingRow>> = [
  { key: 'setting', label: 'Setting', value: (s) => s.setting },
  { key: 'a', label: 'A', value: (s) => s.a },
  { key: 'b', label: 'B', value: (s) => s.b },
];

/** The history crawl's file by its name only (a path says where the workspace is, not what the crawl is). */
function params(p: Record<string, unknown>): string {
  const shown = Object.entries(p).map(([k, v]) => `${k}=${k === 'history' && typeof v === 'string' ? (v.split(/[\\/]/).pop() ?? v) : String(v)}`);
  return shown.join(', ') || '–';
}

export function settingRows(r: CompareReport): SettingRow[] {
  const rows: Array<[string, (s: SideSummary) => string]> = [
    ['file', (s) => s.path.split(/[\\/]/).pop() ?? s.path],
    ['state', (s) => s.state],
    ['seeds', (s) => `${formatNumber(s.seeds.length)}: ${s.seeds.slice(0, 3).join(' ')}${s.seeds.length > 3 ? ' …' : ''}`],
    ['scope', (s) => [...s.scope.suffixes, ...s.scope.hosts].join(' ') || 'the seeds’ hosts'],
    ['site key', (s) => s.siteKey],
    ['policy', (s) => s.policy],
    ['policy parameters', (s) => params(s.policyParams)],
    ['w (s)', (s) => formatNumber(s.w / 1000, 3)],
    ['c', (s) => formatNumber(s.c)],
    ['r', (s) => formatNumber(s.r)],
    ['max pages', (s) => (s.maxPages === null ? 'no limit' : formatNumber(s.maxPages))],
    ['max depth', (s) => formatNumber(s.maxDepth)],
    ['max pages per site', (s) => formatNumber(s.maxPagesPerSite)],
    ['user agent', (s) => s.userAgent],
    ['started', (s) => (s.startedAt ? new Date(s.startedAt).toLocaleString() : '–')],
    ['duration (s)', (s) => formatNumber(s.durationSeconds, 1)],
    ['pages known', (s) => formatNumber(s.pagesKnown)],
    ['sites known', (s) => formatNumber(s.sites)],
  ];
  return rows.map(([setting, f]) => ({ setting, a: f(r.a), b: f(r.b) }));
}
