/**
 * A chart's data as a CSV table, for the "CSV" button of every chart (EChart.vue): the series
 * of the option drawn, not the pixels. When every series has the same x values (a Live chart's
 * time axis, the evaluation's pages-fetched axis) the table has one x column and a column per
 * series; otherwise one row per point: series, x, y. Values are written as drawn (no rounding).
 */
import type { Cell } from './download.js';

export interface CsvTable {
  header: string[];
  rows: Cell[][];
}

/** What the CSV needs of an ECharts option: its series, and its axes' names and categories. */
export interface ChartData {
  series?: unknown;
  xAxis?: unknown;
  yAxis?: unknown;
}

interface Axis {
  name?: string;
  data?: unknown[];
}

const list = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : v === undefined || v === null ? [] : [v as T]);

/** A category of a category axis may be a plain value or {value}. */
function category(v: unknown): Cell {
  if (v !== null && typeof v === 'object' && 'value' in v) return (v as { value: Cell }).value;
  return v as Cell;
}

/** One point as [x, y]: [x, y] pairs, {value: [x, y]}, or a plain y on a category (or index) x. */
function point(item: unknown, i: number, categories: unknown[] | undefined): [Cell, Cell] {
  const v = item !== null && typeof item === 'object' && !Array.isArray(item) && 'value' in item ? (item as { value: unknown }).value : item;
  if (Array.isArray(v)) return [v[0] as Cell, v[1] as Cell];
  return [categories ? category(categories[i]) : i, v as Cell];
}

export function chartCsv(option: ChartData): CsvTable {
  const xAxes = list<Axis>(option.xAxis);
  const yAxes = list<Axis>(option.yAxis);
  const series = list<{ name?: string; data?: unknown[]; xAxisIndex?: number; yAxisIndex?: number }>(option.series).map((s, k) => {
    const xAxis = xAxes[s.xAxisIndex ?? 0];
    const points = (s.data ?? []).map((d, i) => point(d, i, xAxis?.data));
    return { name: s.name ?? `series ${k + 1}`, points, yName: yAxes[s.yAxisIndex ?? 0]?.name };
  });
  const xName = xAxes[0]?.name || 'x';
  const first = series[0]?.points ?? [];
  const sharedX = series.length > 0 && series.every((s) => s.points.length === first.length && s.points.every((p, i) => p[0] === first[i]![0]));
  if (sharedX) return { header: [xName, ...series.map((s) => s.name)], rows: first.map((p, i) => [p[0], ...series.map((s) => s.points[i]![1])]) };
  const yNames = [...new Set(series.map((s) => s.yName).filter((n): n is string => !!n))];
  return { header: ['series', xName, yNames.length === 1 ? yNames[0]! : 'y'], rows: series.flatMap((s) => s.points.map(([x, y]) => [s.name, x, y])) };
}
