/**
 * The Simulate view's words, chart and table, from a simulation's request and report: the
 * form's text fields turned into a request (blank = the simulator's default), the overlaid
 * cumulative PageRank curves (one per policy, against the share of pages fetched or the
 * simulated time), and the results table of docs/results.md in a researcher's words.
 */
import type { LineSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import type { SimulationDto, SimulationOutcomeDto, SimulationReportDto, SimulationRequest } from '../../core/api/contract.js';
import type { Column } from './columns.js';
import { simulationFormErrors } from './request-errors.js';
import { formatBytes, formatNumber } from './format.js';
import { blankMeasureForm, hotRule, measureFieldsOf, measureName, measureText, type MeasureForm } from './measure-form.js';

export type ChartOption = ComposeOption<LineSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption>;

/** The form as typed (text boxes hold text). */
export interface SimulateForm {
  source: string;
  policies: string[];
  r: string;
  /** Seconds. */
  w: string;
  c: string;
  /** KB/s (1,024 bytes, as formatBytes shows sizes); blank: unlimited. */
  bandwidth: string;
  latency: boolean;
  networkSeed: string;
  batch: string;
  maxPages: string;
  maxPagesPerSite: string;
  siteKey: 'host' | 'domain';
  perIp: boolean;
  topic: string;
  /** Percent. */
  historyShare: string;
  historyCrawl: string;
  seeds: string;
  /** The measure every policy's Crawl & Stop curves score (Cho et al.; as simulate --measure). */
  importance: MeasureForm;
}

export function defaultForm(): SimulateForm {
  return {
    source: '', policies: ['breadth-first', 'opic', 'omniscient'], r: '256', w: '15', c: '1', bandwidth: '', latency: true, networkSeed: '1',
    batch: '', maxPages: '', maxPagesPerSite: '', siteKey: 'host', perIp: false, topic: '', historyShare: '55', historyCrawl: '', seeds: '',
    importance: blankMeasureForm(),
  };
}

/** A number typed, or the text itself (the engine then refuses it at its field). */
const num = (s: string): number | undefined => (s.trim() === '' ? undefined : Number.isFinite(Number(s.trim())) ? Number(s.trim()) : (s.trim() as unknown as number));

/** The numeric fields of the form, in the units the form shows them (the engine gets ms, bytes/s, shares). */
const NUMBERS: Array<{ key: keyof SimulateForm; what: string; whole?: boolean }> = [
  { key: 'r', what: 'r (simultaneous connections)', whole: true },
  { key: 'w', what: 'w (wait between connections, in seconds)' },
  { key: 'c', what: 'c (pages per connection)', whole: true },
  { key: 'bandwidth', what: 'The bandwidth (KB/s)' },
  { key: 'networkSeed', what: 'The network seed', whole: true },
  { key: 'batch', what: 'K (batch size)', whole: true },
  { key: 'maxPages', what: 'Max pages', whole: true },
  { key: 'maxPagesPerSite', what: 'Max pages per site', whole: true },
  { key: 'historyShare', what: 'The share of pages in the earlier crawl (%)' },
];

/**
 * What the form can tell itself before asking the engine: a number field holding no number
 * ("fifteen", "0.5s"), said in the field's own unit, every such field at once. Ranges are the
 * engine's to check (it names the field).
 */
export function formProblems(f: SimulateForm, policies?: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of NUMBERS) {
    const t = String(f[n.key] ?? '').trim();
    if (t === '') continue;
    const ok = n.whole ? /^\d+$/.test(t) : /^(\d+\.?\d*|\.\d+)$/.test(t);
    if (!ok) out[n.key] = `${n.what} must be ${n.whole ? 'a whole number' : 'a number'} (not “${t}”).`;
  }
  // Then the request the form would send, checked by the engine's own schema: its words at the field.
  const known = policies ?? f.policies.filter((p) => p !== 'all');
  for (const [field, problem] of Object.entries(simulationFormErrors(requestOf(f), known))) out[field] ??= problem;
  return out;
}

export function requestOf(f: SimulateForm): SimulationRequest {
  const [kind, ...rest] = f.source.split(':');
  const req: SimulationRequest = { source: { kind: kind as 'crawl' | 'dataset', id: rest.join(':') }, policies: [...f.policies], ...measureFieldsOf(f.importance ?? blankMeasureForm()) };
  const set = <K extends keyof SimulationRequest>(k: K, v: SimulationRequest[K] | undefined) => {
    if (v !== undefined) req[k] = v;
  };
  set('r', num(f.r));
  const w = num(f.w);
  set('w', typeof w === 'number' ? Math.round(w * 1000) : w);
  set('c', num(f.c));
  const bw = num(f.bandwidth);
  set('bandwidth', typeof bw === 'number' ? Math.round(bw * 1024) : (bw ?? null));
  set('latency', f.latency);
  set('networkSeed', num(f.networkSeed));
  set('batch', num(f.batch) ?? null);
  set('maxPages', num(f.maxPages) ?? null);
  set('maxPagesPerSite', num(f.maxPagesPerSite) ?? null);
  set('siteKey', f.siteKey);
  set('perIp', f.perIp);
  if (f.policies.includes('topic') && f.topic.trim()) req.topic = f.topic.trim();
  if (f.policies.some((p) => p.startsWith('historical-'))) {
    if (f.historyCrawl) req.historyCrawl = f.historyCrawl;
    else {
      const share = num(f.historyShare);
      set('historyShare', typeof share === 'number' ? share / 100 : share);
    }
  }
  const seeds = f.seeds.split(/\s+/).filter((s) => s !== '');
  if (seeds.length > 0) req.seeds = seeds;
  return req;
}

/** 42 s, 3.5 min, 2.1 h, 4.0 d (as the CLI's table). */
export function durationText(seconds: number): string {
  if (!Number.isFinite(seconds)) return '–';
  if (seconds < 120) return `${formatNumber(seconds, 1)} s`;
  if (seconds < 7200) return `${formatNumber(seconds / 60, 1)} min`;
  if (seconds < 172800) return `${formatNumber(seconds / 3600, 1)} h`;
  return `${formatNumber(seconds / 86400, 1)} d`;
}

export function bandwidthText(b: number | null | undefined): string {
  return b === null || b === undefined ? 'unlimited' : `${formatBytes(b)}/s`;
}

export function sourceText(s: SimulationRequest['source']): string {
  return s.kind === 'crawl' ? `crawl ${s.id}` : `dataset ${s.id}`;
}

/** "r = 256, w = 15 s, c = 1, bandwidth unlimited, latency on (seed 1)". */
export function settingsText(q: SimulationDto['request']): string {
  const parts = [`r = ${formatNumber(q.r)}`, `w = ${formatNumber(q.w / 1000, 3)} s`, `c = ${formatNumber(q.c)}`, `bandwidth ${bandwidthText(q.bandwidth)}`, q.latency ? `latency and rates drawn (seed ${q.networkSeed})` : 'no latency (order only)'];
  if (q.batch) parts.push(`batches of ${formatNumber(q.batch)} pages`);
  if (q.maxPages) parts.push(`at most ${formatNumber(q.maxPages)} pages`);
  if (q.maxPagesPerSite) parts.push(`at most ${formatNumber(q.maxPagesPerSite)} pages per site`);
  if (q.siteKey === 'domain') parts.push('a site is a registrable domain');
  if (q.perIp) parts.push('politeness per IP address too');
  if (q.measure && q.measure !== 'pagerank') parts.push(`Crawl & Stop on ${measureName(q.measure)}${q.query ? ` “${q.query}”` : ''}`);
  if (q.hotThreshold !== undefined) parts.push(`hot at ${formatNumber(q.hotThreshold, 6)}`);
  return parts.join(', ');
}

export type CurveAxis = 'pages' | 'time';

/** One line per policy, in % on the vertical axis: the policy's points (x, y) from its outcome. */
function perPolicy(r: SimulationReportDto, points: (p: SimulationOutcomeDto) => Array<[number, number]>, axes: { x: string; y: string; xMax?: number }, extra: LineSeriesOption[] = []): ChartOption {
  const series: LineSeriesOption[] = r.policies.map((p) => ({ name: p.policy, type: 'line', showSymbol: false, data: points(p) }));
  return {
    grid: { left: 64, right: 24, top: 56, bottom: 48 },
    legend: { top: 0, type: 'scroll' },
    tooltip: { trigger: 'axis', valueFormatter: (v) => `${formatNumber(Number(v), 1)} %` },
    xAxis: { type: 'value', min: 0, ...(axes.xMax !== undefined ? { max: axes.xMax } : {}), name: axes.x, nameLocation: 'middle', nameGap: 28 },
    yAxis: { type: 'value', min: 0, max: 100, name: axes.y, nameLocation: 'middle', nameRotate: 90, nameGap: 44 },
    series: [...series, ...extra],
  };
}

const PAGES_AXIS = 'pages fetched (% of the pages fetched)';

/** One line per policy: cumulative PageRank (%) against the share of pages fetched (%) or the simulated hours. */
export function curvesOption(r: SimulationReportDto, axis: CurveAxis): ChartOption {
  const x = axis === 'pages' ? { x: PAGES_AXIS, xMax: 100 } : { x: 'simulated time (hours)' };
  return perPolicy(r, (p) => p.curve.map((c): [number, number] => [axis === 'pages' ? c.fractionPages * 100 : c.seconds / 3600, c.cumulativePageRank * 100]), { ...x, y: 'cumulative PageRank (%)' });
}

const share = (p: SimulationOutcomeDto, s: number) => p.pagesAt.find((a) => Math.abs(a.share - s) < 1e-9)?.fraction ?? null;
const pct = (v: unknown) => (typeof v === 'number' ? `${formatNumber(v * 100, 1)} %` : '–');
const f3 = (v: unknown) => (typeof v === 'number' ? formatNumber(v, 3) : '–');

/** The results table's columns (docs/results.md): raw values for sorting and the CSV, shown in words. */
export const RESULT_COLUMNS: Array<Column<SimulationOutcomeDto>> = [
  { key: 'policy', label: 'Policy', value: (p) => p.policy },
  { key: 'average_cumulative_pagerank', label: 'Avg. cumulative PageRank', value: (p) => p.averageCumulativePageRank, format: f3, numeric: true },
  { key: 'kendall_tau', label: "Kendall's tau", value: (p) => p.kendallTau, format: f3, numeric: true },
  { key: 'pages_for_50pct_pagerank', label: '50% of PageRank at', value: (p) => share(p, 0.5), format: pct, numeric: true },
  { key: 'pages_for_80pct_pagerank', label: '80% at', value: (p) => share(p, 0.8), format: pct, numeric: true },
  { key: 'pages_for_95pct_pagerank', label: '95% at', value: (p) => share(p, 0.95), format: pct, numeric: true },
  { key: 'pages_fetched', label: 'Pages fetched', value: (p) => p.pagesFetched, format: (v) => formatNumber(v as number), numeric: true },
  { key: 'simulated_seconds', label: 'Time to crawl', value: (p) => p.simulatedSeconds, format: (v) => durationText(v as number), numeric: true },
  { key: 'pages_per_second', label: 'Pages/s', value: (p) => (p.simulatedSeconds > 0 ? p.pagesFetched / p.simulatedSeconds : null), format: (v) => (typeof v === 'number' ? formatNumber(v, 2) : '–'), numeric: true },
  { key: 'mean_open_connections', label: 'Mean open connections', value: (p) => p.meanOpenConnections, format: (v) => formatNumber(v as number, 1), numeric: true },
];

export type ChoSeries = 'crawlAndStop' | 'hotFetched';

/**
 * Cho et al.'s models per policy (their Graphs 1 to 7, on the report's measure): Crawl & Stop
 * (of the top K pages of the reachable graph, the share among the first K fetched) or Crawl &
 * Stop with Threshold (the share of the hot pages fetched so far), in %, against the share of
 * pages fetched; a random order is the diagonal.
 */
export function choCurvesOption(r: SimulationReportDto, which: ChoSeries): ChartOption {
  const points = (p: SimulationOutcomeDto) => (p.cho?.curve ?? []).filter((c) => c[which] !== null).map((c): [number, number] => [c.fractionPages * 100, c[which]! * 100]);
  const random: LineSeriesOption = { name: 'random order', type: 'line', showSymbol: false, lineStyle: { type: 'dotted' }, data: [[0, 0], [100, 100]] };
  const y = which === 'crawlAndStop' ? 'top-K pages among the first K (%)' : 'hot pages fetched (%)';
  return perPolicy(r, points, { x: PAGES_AXIS, xMax: 100, y }, [random]);
}

/** "Crawl & Stop on IB (backlinks): distinct reachable pages linking to the page; hot pages: IB (backlinks) at least 100 (87 of 3,000 reachable)". */
export function choMeasureText(r: SimulationReportDto): string {
  const m = r.measure;
  return `${measureText(m)}; hot pages: ${hotRule(m, m.g)} (${formatNumber(m.hotPages)} of ${formatNumber(r.reachable)} reachable pages)`;
}

/** The Crawl & Stop table's columns: per policy, Kendall's tau on Castillo's sample, Crawl & Stop at each K and the hot pages fetched at each point. */
export function choColumns(r: SimulationReportDto): Array<Column<SimulationOutcomeDto>> {
  const first = r.policies.find((p) => p.cho !== null)?.cho;
  if (!first) return [];
  return [
    { key: 'policy', label: 'Policy', value: (p) => p.policy },
    { key: 'kendall_tau_sample', label: `Kendall's tau (${formatNumber(r.policies[0]?.kendallTauSampled.size)}-page sample)`, value: (p) => p.kendallTauSampled.tau, format: f3, numeric: true },
    ...first.crawlAndStop.map((c, i): Column<SimulationOutcomeDto> => ({ key: `crawl_and_stop_${c.percent}pct`, label: `C&S ${c.percent} %`, value: (p) => p.cho?.crawlAndStop[i]?.share ?? null, format: pct, numeric: true })),
    ...first.threshold.fetched.map((t, i): Column<SimulationOutcomeDto> => ({ key: `hot_at_${t.percent}pct`, label: `Hot at ${t.percent} %`, value: (p) => p.cho?.threshold.fetched[i]?.share ?? null, format: pct, numeric: true })),
  ];
}
