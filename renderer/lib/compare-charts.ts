/**
 * The Compare view's charts as ECharts options, from a CompareReport: the overlap of pages
 * and sites, both crawls' cumulative PageRank against pages fetched (with each crawl's best
 * order and random order as references), both throughput timelines against elapsed time, and
 * PageRank in A against PageRank in B on log-log axes (the report's sample of common pages).
 */
import type { BarSeriesOption, LineSeriesOption, ScatterSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import type { CompareReport } from '../../core/api/contract.js';
import { percentLabel } from './chart-units.js';
import { formatNumber } from './format.js';

export type ChartOption = ComposeOption<BarSeriesOption | LineSeriesOption | ScatterSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption>;

/** A's and B's colours in every chart (their references in the same colour, dashed or dotted). */
export const COLOR_A = '#3b7dd8';
export const COLOR_B = '#e07b39';
const BOTH = '#7a8a99';

const axis = (name: string) => ({ name, nameLocation: 'middle' as const, nameGap: 28 });
/** A y-axis name along the axis, clear of the legend above the plot. */
const yAxisName = (name: string) => ({ name, nameLocation: 'middle' as const, nameRotate: 90, nameGap: 48 });
const frame = { grid: { left: 72, right: 24, top: 40, bottom: 48 }, legend: { top: 0 }, tooltip: { trigger: 'axis' as const } };

const tip = (p: { seriesName: string; data: { count: number } }) => `${p.seriesName}: ${formatNumber(p.data.count)}`;

export function overlapOption(r: CompareReport): ChartOption {
  const rows = [r.pages, r.sites];
  const pct = (n: number, s: (typeof rows)[number]) => {
    const union = s.onlyA + s.onlyB + s.both;
    return union > 0 ? (100 * n) / union : 0;
  };
  const part = (name: string, key: 'onlyA' | 'both' | 'onlyB', color: string): BarSeriesOption => ({
    name,
    type: 'bar',
    stack: 'all',
    color,
    barWidth: 28,
    data: rows.map((s) => ({ value: pct(s[key], s), count: s[key] })),
    // A part of 0 has no width to hold its label.
    label: { show: true, formatter: (p) => ((p.data as { count: number }).count > 0 ? formatNumber((p.data as { count: number }).count) : '') },
  });
  return {
    ...frame,
    tooltip: { trigger: 'item', formatter: (p) => tip(p as unknown as { seriesName: string; data: { count: number } }) },
    grid: { left: 64, right: 24, top: 40, bottom: 40 },
    xAxis: { type: 'value', max: 100, ...axis('% of the pages (sites) in either crawl') },
    yAxis: { type: 'category', data: ['pages', 'sites'], inverse: true },
    series: [part('only in A', 'onlyA', COLOR_A), part('in both', 'both', BOTH), part('only in B', 'onlyB', COLOR_B)],
  };
}

function line(name: string, data: Array<[number, number]>, color: string, dash?: 'dashed' | 'dotted'): LineSeriesOption {
  return { name, type: 'line', data, color, showSymbol: false, lineStyle: { width: dash ? 1.5 : 2.5, ...(dash ? { type: dash } : {}) } };
}

export function curvesOption(r: CompareReport): ChartOption {
  const { curveA, curveB } = r.pagerank;
  // Shares in %, as the Results view and Live draw them.
  const pts = (c: typeof curveA, y: 'cumulative' | 'best' | 'random') => c.map((p): [number, number] => [p.pages, p[y] * 100]);
  return {
    ...frame,
    tooltip: { ...frame.tooltip, valueFormatter: (v: unknown) => (typeof v === 'number' ? percentLabel(v) : '–') },
    xAxis: { type: 'value', min: 0, ...axis('pages fetched') },
    yAxis: { type: 'value', min: 0, max: 100, ...yAxisName('cumulative PageRank (%)'), axisLabel: { formatter: percentLabel } },
    series: [
      line('A', pts(curveA, 'cumulative'), COLOR_A),
      line('B', pts(curveB, 'cumulative'), COLOR_B),
      line('A best order', pts(curveA, 'best'), COLOR_A, 'dashed'),
      line('B best order', pts(curveB, 'best'), COLOR_B, 'dashed'),
      line('A random order', pts(curveA, 'random'), COLOR_A, 'dotted'),
      line('B random order', pts(curveB, 'random'), COLOR_B, 'dotted'),
    ],
  };
}

export function throughputOption(r: CompareReport): ChartOption {
  const series: LineSeriesOption[] = [];
  if (r.timelines.a) series.push(line('A', r.timelines.a.map((p) => [p.t, p.pagesPerSecond]), COLOR_A));
  if (r.timelines.b) series.push(line('B', r.timelines.b.map((p) => [p.t, p.pagesPerSecond]), COLOR_B));
  return { ...frame, xAxis: { type: 'value', min: 0, ...axis('crawl time (s)') }, yAxis: { type: 'value', ...yAxisName('pages/s') }, series };
}

/** The sampled pages with PageRank in both crawls (a log axis has no place for 0), and how many had none. */
export function scatterPoints(r: CompareReport): { points: Array<[number, number]>; dropped: number } {
  const points = r.pagerank.scatter.filter(([x, y]) => x > 0 && y > 0);
  return { points, dropped: r.pagerank.scatter.length - points.length };
}

export function scatterOption(r: CompareReport): ChartOption {
  const { points } = scatterPoints(r);
  const values = points.flat();
  // Both axes over the same whole decades, so that the diagonal is the same share in both.
  const lo = 10 ** Math.floor(Math.log10(values.length ? Math.min(...values) : 0.1));
  const hi = 10 ** Math.ceil(Math.log10(values.length ? Math.max(...values) : 10));
  return {
    ...frame,
    tooltip: { trigger: 'item', formatter: (p) => ((p as { seriesType: string }).seriesType === 'scatter' ? `A ${formatNumber((p as { value: number[] }).value[0], 3)} · B ${formatNumber((p as { value: number[] }).value[1], 3)}` : 'the same share in both') },
    xAxis: { type: 'log', ...axis('PageRank in A × pages in A'), min: lo, max: hi },
    yAxis: { type: 'log', ...yAxisName('PageRank in B × pages in B'), min: lo, max: hi },
    series: [
      { name: 'pages in both', type: 'scatter', data: points, color: BOTH, symbolSize: 4, large: points.length > 1000 },
      { ...line('same share in both', [[lo, lo], [hi, hi]], COLOR_B, 'dashed'), tooltip: { show: false } },
    ],
  };
}
