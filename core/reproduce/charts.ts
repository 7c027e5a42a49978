/**
 * The papers' figures as SVG, drawn by ECharts' server-side renderer (no DOM, no browser): the
 * one file of core that imports a chart library (test/renderer/layers.test.ts allows it here).
 */
import { createRequire } from 'node:module';
import * as echarts from 'echarts';
import type { Figure } from './types.js';

/** The chart as an SVG document, drawn by ECharts without a DOM. */
export function figureSvg(f: Figure, width = 720, height = 440): string {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({
      animation: false,
      backgroundColor: '#fff',
      title: { text: f.title, subtext: f.cite, left: 'center', textStyle: { fontSize: 14 }, subtextStyle: { fontSize: 11 } },
      legend: { bottom: 0, type: 'plain' },
      grid: { left: 70, right: 30, top: 70, bottom: 95 },
      xAxis: { type: f.xLog ? 'log' : 'value', name: f.xLabel, nameLocation: 'middle', nameGap: 28, scale: true },
      yAxis: { type: f.yLog ? 'log' : 'value', name: f.yLabel, nameLocation: 'middle', nameGap: 50 },
      series: f.series.map((s) => ({ name: s.name, type: f.style ?? 'line', showSymbol: f.style === 'scatter', symbolSize: 7, step: f.steps ? 'end' : false, data: s.points })),
    });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

type ResvgModule = typeof import('@resvg/resvg-js');
let resvg: ResvgModule | Error | undefined;

/**
 * The same chart as PNG, rasterised by resvg (@resvg/resvg-js, a prebuilt native module from the
 * npm registry); where its binary cannot load on this platform, the reason, and no PNG.
 */
export function svgToPng(svg: string, width = 720): Buffer | Error {
  if (resvg === undefined) {
    try {
      resvg = createRequire(import.meta.url)('@resvg/resvg-js') as ResvgModule;
    } catch (err) {
      resvg = new Error(`no PNG: @resvg/resvg-js did not load here (${(err as Error).message.split('\n')[0]})`);
    }
  }
  if (resvg instanceof Error) return resvg;
  return new resvg.Resvg(svg, { fitTo: { mode: 'width', value: width }, font: { loadSystemFonts: true } }).render().asPng();
}
