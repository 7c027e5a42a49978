import type { CrawlReader } from '../store/crawl-reader.js';
import type { MeasureInfo } from './report.js';
import { measureById, measureByUrl, type MeasureOptions } from './measure.js';

/** A measure's truth on the fetched pages of a crawl, in fetch order. */
export interface MeasuredTruth {
  info: MeasureInfo;
  /** The values on the measure's own scale (the threshold G applies to these). */
  raw: Float64Array;
  /** Similarity: 1 for a page hot by the topic rule (Cho et al. §7), else 0; null otherwise. */
  hot: Uint8Array | null;
  /** Share of the oracle's total on the pages fetched (NaN where values can be negative, 1 without an oracle). */
  covered: number;
}

/**
 * The values of `opts.measure` for the fetched pages (ids and URLs in fetch order): from this
 * crawl, or with `oracle` from that crawl matched by URL (a page it lacks counts 0).
 */
export function measuredTruth(reader: CrawlReader, fetched: { ids: number[]; urls: string[] }, opts: MeasureOptions & { oracle?: string }): MeasuredTruth {
  const n = fetched.ids.length;
  const raw = new Float64Array(n);
  let hot: Uint8Array | null = null;
  if (opts.oracle !== undefined) {
    const { byUrl, hotUrls, info } = measureByUrl(opts.oracle, opts);
    fetched.urls.forEach((url, i) => (raw[i] = byUrl.get(url) ?? 0));
    if (hotUrls) hot = Uint8Array.from(fetched.urls, (url) => (hotUrls.has(url) ? 1 : 0));
    let all = 0;
    let negative = false;
    for (const x of byUrl.values()) {
      all += x;
      if (x < 0) negative = true;
    }
    const mine = raw.reduce((a, b) => a + b, 0);
    return { info, raw, hot, covered: negative ? NaN : all > 0 ? Math.min(1, mine / all) : 0 };
  }
  const m = measureById(reader, opts);
  fetched.ids.forEach((id, i) => (raw[i] = m.byId.get(id) ?? 0));
  if (m.hot) hot = Uint8Array.from(fetched.ids, (id) => (m.hot!.has(id) ? 1 : 0));
  return { info: m.info, raw, hot, covered: 1 };
}

/**
 * The values the cumulative curve sums: non-negative, so values that can be negative (IL's
 * minus the slashes) are shifted to start at 0; the order of the pages is unchanged.
 */
export function curveValues(raw: Float64Array): Float64Array {
  let min = 0;
  for (const x of raw) if (x < min) min = x;
  return min < 0 ? raw.map((x) => x - min) : raw.slice();
}
