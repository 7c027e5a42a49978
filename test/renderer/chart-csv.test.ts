/**
 * Every chart's CSV and units: the CSV holds the series as drawn (one x column and a column per
 * series when they share x, else series, x, y per point; a bar chart's categories as x), the
 * byte-rate axis picks B/s, KB/s, MB/s or GB/s by its largest value, Live's PageRank chart is in %
 * with the random order's baseline, and the Results view's curve is the evaluation's, in %.
 */
import { describe, expect, it } from 'vitest';
import type { EvaluationDto } from '../../core/api/contract.js';
import { metrics } from '../../core/ranking/evaluate.js';
import { chartCsv } from '../../renderer/lib/chart-csv.js';
import { byteRateUnit, inUnit, niceTicks, percentLabel } from '../../renderer/lib/chart-units.js';
import { toCsv } from '../../renderer/lib/download.js';
import { LiveSeries, randomShare } from '../../renderer/lib/live-series.js';
import { CURVE_SERIES, crawlAndStopOption, curveOption } from '../../renderer/lib/results-charts.js';
import { stats } from './fake-api.js';

describe('chart CSV', () => {
  it('gives series sharing their x as one x column and a column per series', () => {
    const option = {
      xAxis: { type: 'value', name: 'crawl time (s)' },
      yAxis: [{ name: 'pages/s' }, { name: 'KB/s' }],
      series: [
        { name: 'pages/s', data: [[0, 1], [1, 2.5], [2, 3]] },
        { name: 'bytes/s', data: [[0, 1024], [1, 2048], [2, 0]], yAxisIndex: 1 },
      ],
    };
    const { header, rows } = chartCsv(option);
    expect(header).toEqual(['crawl time (s)', 'pages/s', 'bytes/s']);
    expect(rows).toEqual([[0, 1, 1024], [1, 2.5, 2048], [2, 3, 0]]);
    expect(toCsv(header, rows)).toBe('crawl time (s),pages/s,bytes/s\r\n0,1,1024\r\n1,2.5,2048\r\n2,3,0\r\n');
  });

  it('gives series with their own x as one row per point: series, x, y', () => {
    const option = {
      xAxis: { name: 'K (processors)' },
      yAxis: { name: 'messages' },
      series: [
        { name: 'page HP', data: [[2, 10], [4, 30]] },
        { name: 'page hash', data: [[2, 100]] },
      ],
    };
    expect(chartCsv(option)).toEqual({
      header: ['series', 'K (processors)', 'messages'],
      rows: [['page HP', 2, 10], ['page HP', 4, 30], ['page hash', 2, 100]],
    });
  });

  it('gives a bar chart its categories as x, and reads {value} points; a series without a name is numbered', () => {
    const option = { xAxis: { type: 'category', name: 'first pages', data: ['1 %', { value: '5 %' }] }, series: [{ data: [50, { value: 75 }] }] };
    expect(chartCsv(option)).toEqual({ header: ['first pages', 'series 1'], rows: [['1 %', 50], ['5 %', 75]] });
  });

  it('gives an empty chart its header only', () => {
    expect(chartCsv({ xAxis: { name: 'pages' }, series: [] })).toEqual({ header: ['series', 'pages', 'y'], rows: [] });
  });
});

describe('chart units', () => {
  it('picks the byte-rate unit by the largest value: under 1024 of it', () => {
    expect(byteRateUnit(0)).toEqual({ name: 'B/s', divisor: 1 });
    expect(byteRateUnit(1023)).toEqual({ name: 'B/s', divisor: 1 });
    expect(byteRateUnit(1024)).toEqual({ name: 'KB/s', divisor: 1024 });
    expect(byteRateUnit(1.7 * 1024 * 1024)).toEqual({ name: 'MB/s', divisor: 1024 ** 2 });
    expect(byteRateUnit(5e12)).toEqual({ name: 'GB/s', divisor: 1024 ** 3 });
    expect(inUnit(1536, byteRateUnit(1536))).toBe('1.5');
    expect(inUnit(3.5 * 1024 * 1024, byteRateUnit(40 * 1024 * 1024))).toBe('3.5');
    expect(inUnit(40 * 1024 * 1024, byteRateUnit(40 * 1024 * 1024))).toBe('40');
    // Round ticks in the unit: 2.9 MB/s at most gives 0, 1, 2, 3 MB/s; 2.2 MB/s gives 0, 0.5 .. 2.5.
    expect(niceTicks(2.9 * 1024 ** 2, byteRateUnit(2.9 * 1024 ** 2))).toEqual({ interval: 1024 ** 2, max: 3 * 1024 ** 2 });
    expect(niceTicks(2.2 * 1024 ** 2, byteRateUnit(2.2 * 1024 ** 2))).toEqual({ interval: 0.5 * 1024 ** 2, max: 2.5 * 1024 ** 2 });
    expect(niceTicks(700, byteRateUnit(700))).toEqual({ interval: 200, max: 800 });
    expect(niceTicks(0, byteRateUnit(0))).toEqual({ interval: 1, max: 1 });
    expect(percentLabel(50)).toBe('50 %');
    expect(percentLabel(12.34)).toBe('12 %');
    expect(percentLabel(2.5)).toBe('2.5 %');
  });

  it("draws Live's PageRank estimate in % beside the random order: pages fetched over pages known", () => {
    const s = new LiveSeries();
    s.loaded([]);
    s.feed(stats('c', 1, { pages: 10, queued: 30, pagerankEstimate: 0.5 }));
    s.feed(stats('c', 2, { pages: 40, queued: 0, pagerankEstimate: 1 }));
    s.feed(stats('c', 3, { pages: 50, queued: 5, pagerankEstimate: null }));
    expect(s.pagerankVsPages.data()).toEqual([[10, 50], [40, 100]]);
    expect(s.pagerankRandom.data()).toEqual([[10, 25], [40, 100]]);
    expect(randomShare(0, 0)).toBe(0);
  });
});

describe('Results charts', () => {
  const values = Float64Array.from([0.1, 0.4, 0.2, 0.3]);
  const measure = { name: 'pagerank' as const, scale: 'PageRank normalised over the fetched pages', damping: 0.85, text: null, query: null, location: null, hot: 'threshold' as const };
  const ev: EvaluationDto = { db: 'x.db', oracle: null, truth: 'stored', damping: 0.85, truthCovered: 1, measure, ...metrics({ values, times: Float64Array.from([0, 1000, 2000, 3000]) }) };

  it('draws the cumulative PageRank curve in % against pages fetched in %, beside the best order and random', () => {
    const o = curveOption(ev);
    const series = o.series as Array<{ name: string; data: Array<[number, number]> }>;
    expect(series.map((s) => s.name)).toEqual([CURVE_SERIES.crawl, CURVE_SERIES.best, CURVE_SERIES.random]);
    const [crawl, best, random] = series.map((s) => s.data.map(([x, y]) => [Math.round(x * 1e9) / 1e9, Math.round(y * 1e9) / 1e9]));
    expect(crawl).toEqual([[0, 0], [25, 10], [50, 50], [75, 70], [100, 100]]);
    expect(best).toEqual([[0, 0], [25, 40], [50, 70], [75, 90], [100, 100]]);
    expect(random).toEqual([[0, 0], [25, 25], [50, 50], [75, 75], [100, 100]]);
    expect(o.xAxis).toMatchObject({ min: 0, max: 100, name: 'pages fetched (%)' });
    expect(o.yAxis).toMatchObject({ min: 0, max: 100, name: 'PageRank held (%)' });
    // Its CSV: one x column (pages fetched, %) and a column per curve.
    const csv = chartCsv(o);
    expect(csv.header).toEqual(['pages fetched (%)', CURVE_SERIES.crawl, CURVE_SERIES.best, CURVE_SERIES.random]);
    expect(csv.rows).toHaveLength(5);
  });

  it('draws Crawl & Stop as a bar per share of the crawl', () => {
    const csv = chartCsv(crawlAndStopOption(ev));
    expect(csv.header).toEqual(['first pages fetched (% of the crawl)', 'top pages among them']);
    expect(csv.rows).toEqual(ev.crawlAndStop.map((r) => [`${r.percent} %`, r.share * 100]));
  });
});
