/**
 * The Results view's charts as ECharts options, from an EvaluationDto, drawn as the thesis
 * draws its figure (docs/design.md section 4.3): the cumulative PageRank held by the pages
 * fetched so far against the share of pages fetched, beside the best possible order (pages by
 * PageRank) and a random order (the diagonal); the same curve against crawl time; and Crawl &
 * Stop, with Cho et al.'s two models as curves. Against another of Cho et al.'s measures
 * (docs/design.md section 4.11) the curves are of that measure, named so. Shares are in % on
 * 0-100 axes; the values are the engine's, times 100.
 */
import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import type { EvaluationDto } from '../../core/api/contract.js';
import { percentLabel } from './chart-units.js';
import { formatNumber } from './format.js';
import { measureName } from './measure-form.js';

export type ResultsChartOption = ComposeOption<LineSeriesOption | BarSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption>;

/** The curve's series names, as the legend and the CSV give them. */
export const CURVE_SERIES = { crawl: 'this crawl', best: 'best order (by PageRank)', random: 'random order' } as const;

/** What the curves measure: 'PageRank', or Cho et al.'s measure ('IB (backlinks)'). */
const named = (e: EvaluationDto) => measureName(e.measure?.name);

const frame = { grid: { left: 64, right: 24, top: 48, bottom: 48 }, legend: { top: 0 }, tooltip: { trigger: 'axis' as const, valueFormatter: (v: unknown) => (typeof v === 'number' ? percentLabel(v) : '–') } };
const percentAxis = (name: string) => ({ type: 'value' as const, name, nameLocation: 'middle' as const, nameGap: 30, min: 0, max: 100, axisLabel: { formatter: percentLabel } });
const line = (name: string, data: Array<[number, number]>, extra: Partial<LineSeriesOption> = {}): LineSeriesOption => ({ name, type: 'line', showSymbol: false, data, ...extra });

/** x: pages fetched (%); y: share of the PageRank they hold (%), for this crawl, the best order and random. */
export function curveOption(e: EvaluationDto): ResultsChartOption {
  const pct = (get: (p: EvaluationDto['curve'][number]) => number) => e.curve.map((p): [number, number] => [p.fractionPages * 100, get(p) * 100]);
  return {
    ...frame,
    xAxis: percentAxis('pages fetched (%)'),
    yAxis: { ...percentAxis(`${named(e)} held (%)`), nameRotate: 90, nameGap: 44 },
    series: [
      line(CURVE_SERIES.crawl, pct((p) => p.cumulativePageRank), { lineStyle: { width: 2.5 } }),
      line(`best order (by ${named(e)})`, pct((p) => p.upperBound), { lineStyle: { type: 'dashed', width: 1.5 } }),
      line(CURVE_SERIES.random, pct((p) => p.random), { lineStyle: { type: 'dotted', width: 1.5 } }),
    ],
  };
}

/** x: seconds since the first fetch; y: share of the PageRank held (%). */
export function timeOption(e: EvaluationDto): ResultsChartOption {
  return {
    ...frame,
    xAxis: { type: 'value', name: 'crawl time (s)', nameLocation: 'middle', nameGap: 30, min: 0, axisLabel: { formatter: (v: number) => formatNumber(v, 1) } },
    yAxis: { ...percentAxis(`${named(e)} held (%)`), nameRotate: 90, nameGap: 44 },
    series: [line(CURVE_SERIES.crawl, e.curve.map((p): [number, number] => [p.seconds, p.cumulativePageRank * 100]), { lineStyle: { width: 2.5 } })],
  };
}

/** Crawl & Stop: of the K pages with the highest PageRank, the share among the first K fetched (%), a bar per K. */
export function crawlAndStopOption(e: EvaluationDto): ResultsChartOption {
  return {
    ...frame,
    xAxis: { type: 'category', name: 'first pages fetched (% of the crawl)', nameLocation: 'middle', nameGap: 30, data: e.crawlAndStop.map((r) => `${r.percent} %`) },
    yAxis: { ...percentAxis('of the top pages (%)'), nameRotate: 90, nameGap: 44 },
    series: [{ name: 'top pages among them', type: 'bar', data: e.crawlAndStop.map((r) => r.share * 100) }],
  };
}

/** The series of Cho et al.'s curves, as the legend and the CSV give them. */
export const CHO_SERIES = { stop: 'Crawl & Stop', hot: 'Crawl & Stop with Threshold', random: 'random order' } as const;

/**
 * Cho et al.'s two models against the pages fetched (their Graphs 1 to 7): Crawl & Stop, the
 * share of the top-K pages among the first K fetched, and Crawl & Stop with Threshold, the share
 * of the hot pages fetched so far (absent when there is none); a random order is the diagonal for both.
 */
export function choOption(e: EvaluationDto): ResultsChartOption {
  const points = e.choCurve ?? [];
  const hot = points.filter((p) => p.hotFetched !== null).map((p): [number, number] => [p.fractionPages * 100, p.hotFetched! * 100]);
  return {
    ...frame,
    xAxis: percentAxis('pages fetched (%)'),
    yAxis: { ...percentAxis('share (%)'), nameRotate: 90, nameGap: 44 },
    series: [
      line(CHO_SERIES.stop, points.map((p): [number, number] => [p.fractionPages * 100, p.crawlAndStop * 100]), { lineStyle: { width: 2.5 } }),
      ...(hot.length > 0 ? [line(CHO_SERIES.hot, hot, { lineStyle: { width: 2.5 } })] : []),
      line(CHO_SERIES.random, points.map((p): [number, number] => [p.fractionPages * 100, p.fractionPages * 100]), { lineStyle: { type: 'dotted', width: 1.5 } }),
    ],
  };
}
