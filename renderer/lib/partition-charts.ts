/**
 * The Partition view's charts as ECharts options, from a PartitionReport, drawn as the thesis
 * draws its figures: communication volume against K on log axes, GP against hash; messages
 * against K, HP against hash; and the storage and request imbalances of every method. One
 * colour per method, a solid line for the page level and a dashed one for the site level.
 */
import type { LineSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import type { PartitionMethod, PartitionMetrics, PartitionReport } from '../../core/api/contract.js';
import { formatNumber } from './format.js';

export type ChartOption = ComposeOption<LineSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption>;

export const METHOD_COLOR: Record<PartitionMethod, string> = { GP: '#3b7dd8', HP: '#2f9e6e', hash: '#e07b39' };

type Level = 'page' | 'site';
type Metric = keyof Omit<PartitionMetrics, 'parts'>;

const frame = { grid: { left: 80, right: 24, top: 48, bottom: 48 }, legend: { top: 0 }, tooltip: { trigger: 'axis' as const } };
const kAxis = { type: 'log' as const, logBase: 2, name: 'K (processors)', nameLocation: 'middle' as const, nameGap: 28 };
const yName = (name: string) => ({ name, nameLocation: 'middle' as const, nameRotate: 90, nameGap: 60 });

/** The points (K, mean) of one method at one level; absent when it has none. */
export function seriesOf(r: PartitionReport, level: Level, method: PartitionMethod, metric: Metric): Array<[number, number]> {
  return r.rows
    .filter((x) => x.level === level && x.method === method && x.mean !== null)
    .sort((a, b) => a.parts - b.parts)
    .map((x) => [x.parts, x.mean![metric]]);
}

function lines(r: PartitionReport, methods: PartitionMethod[], metric: Metric): LineSeriesOption[] {
  const out: LineSeriesOption[] = [];
  for (const level of ['page', 'site'] as const) {
    for (const method of methods) {
      const data = seriesOf(r, level, method, metric);
      if (data.length === 0) continue;
      out.push({ name: `${level} ${method}`, type: 'line', data, color: METHOD_COLOR[method], symbolSize: 6, lineStyle: { width: 2, ...(level === 'site' ? { type: 'dashed' as const } : {}) } });
    }
  }
  return out;
}

/** A log y-axis cannot show 0 (a K where nothing crosses): such points sit at the axis's floor. */
function positive(series: LineSeriesOption[]): LineSeriesOption[] {
  return series.map((s) => ({ ...s, data: (s.data as Array<[number, number]>).map(([k, y]): [number, number] => [k, Math.max(y, 1)]) }));
}

export function volumeOption(r: PartitionReport): ChartOption {
  return { ...frame, xAxis: kAxis, yAxis: { type: 'log', ...yName('bytes of URLs sent') }, series: positive(lines(r, ['GP', 'hash'], 'volume')) };
}

export function messagesOption(r: PartitionReport): ChartOption {
  return { ...frame, xAxis: kAxis, yAxis: { type: 'log', ...yName('messages'), axisLabel: { formatter: (v: number) => formatNumber(v) } }, series: positive(lines(r, ['HP', 'hash'], 'messages')) };
}

export function imbalanceOption(r: PartitionReport, metric: 'storageImbalance' | 'requestImbalance'): ChartOption {
  return { ...frame, xAxis: kAxis, yAxis: { type: 'value', ...yName('% above the average part') }, series: lines(r, ['GP', 'HP', 'hash'], metric) };
}
