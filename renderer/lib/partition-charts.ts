/**
 * The Partition view's charts as ECharts options, from a PartitionReport, drawn as the thesis
 * draws its figures: communication volume against K on log axes, GP (gpmetis) against hash;
 * messages against K, HP (Zoltan PHG, and KaHyPar where it ran) against hash; and the storage
 * and request imbalances of every partitioner. One colour per partitioner, each series named by
 * it, a solid line for the page level and a dashed one for the site level.
 */
import type { LineSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import type { PartitionMetrics, PartitionReport } from '../../core/api/contract.js';
import { COLUMNS, type Partitioner } from '../../core/graph/report.js';
import { formatNumber } from './format.js';

export type ChartOption = ComposeOption<LineSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption>;

export const PARTITIONER_COLOR: Record<Partitioner, string> = { gpmetis: '#3b7dd8', 'Zoltan PHG': '#2f9e6e', KaHyPar: '#8e5bc7', hash: '#e07b39' };

type Level = 'page' | 'site';
type Metric = keyof Omit<PartitionMetrics, 'parts'>;

const frame = { grid: { left: 80, right: 24, top: 48, bottom: 48 }, legend: { top: 0 }, tooltip: { trigger: 'axis' as const } };
const kAxis = { type: 'log' as const, logBase: 2, name: 'K (processors)', nameLocation: 'middle' as const, nameGap: 28 };
const yName = (name: string) => ({ name, nameLocation: 'middle' as const, nameRotate: 90, nameGap: 60 });

/** The points (K, mean) of one partitioner at one level; absent when it has none. */
export function seriesOf(r: PartitionReport, level: Level, partitioner: Partitioner, metric: Metric): Array<[number, number]> {
  return r.rows
    .filter((x) => x.level === level && x.partitioner === partitioner && x.mean !== null)
    .sort((a, b) => a.parts - b.parts)
    .map((x) => [x.parts, x.mean![metric]]);
}

function lines(r: PartitionReport, partitioners: Partitioner[], metric: Metric): LineSeriesOption[] {
  const out: LineSeriesOption[] = [];
  for (const level of ['page', 'site'] as const) {
    for (const p of partitioners) {
      const data = seriesOf(r, level, p, metric);
      if (data.length === 0) continue;
      out.push({ name: `${level} ${COLUMNS[p].name}`, type: 'line', data, color: PARTITIONER_COLOR[p], symbolSize: 6, lineStyle: { width: 2, ...(level === 'site' ? { type: 'dashed' as const } : {}) } });
    }
  }
  return out;
}

/** A log y-axis cannot show 0 (a K where nothing crosses): such points sit at the axis's floor. */
function positive(series: LineSeriesOption[]): LineSeriesOption[] {
  return series.map((s) => ({ ...s, data: (s.data as Array<[number, number]>).map(([k, y]): [number, number] => [k, Math.max(y, 1)]) }));
}

export function volumeOption(r: PartitionReport): ChartOption {
  return { ...frame, xAxis: kAxis, yAxis: { type: 'log', ...yName('bytes of URLs sent') }, series: positive(lines(r, ['gpmetis', 'hash'], 'volume')) };
}

export function messagesOption(r: PartitionReport): ChartOption {
  return { ...frame, xAxis: kAxis, yAxis: { type: 'log', ...yName('messages'), axisLabel: { formatter: (v: number) => formatNumber(v) } }, series: positive(lines(r, ['Zoltan PHG', 'KaHyPar', 'hash'], 'messages')) };
}

export function imbalanceOption(r: PartitionReport, metric: 'storageImbalance' | 'requestImbalance'): ChartOption {
  return { ...frame, xAxis: kAxis, yAxis: { type: 'value', ...yName('% above the average part') }, series: lines(r, ['gpmetis', 'Zoltan PHG', 'KaHyPar', 'hash'], metric) };
}
