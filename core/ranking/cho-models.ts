/**
 * Cho, Garcia-Molina and Page's two measures of a fetch order (§3; docs/design.md section
 * 4.6), as points and as curves: `crawlbench eval` and the simulator both call these, so a
 * crawl and a simulated crawl are scored by one piece of code.
 */
import type { ChoPoint } from './report.js';

export type { ChoPoint } from './report.js';

/** Crawl & Stop reported at K = ⌈n·p/100⌉ for these p. */
export const STOP_PERCENTS = [1, 5, 10, 25, 50];
/** Crawl & Stop with Threshold reported after these shares of the crawl. */
export const THRESHOLD_PERCENTS = [10, 25, 50, 75];

/**
 * PCS at K: the share of the K most important pages among the first K fetched. Ties at the
 * K-th value: the tied pages share the top-K slots left after the larger ones. `v` in fetch
 * order, `sorted` the same values in decreasing order.
 */
export function crawlAndStopAt(v: ArrayLike<number>, sorted: ArrayLike<number>, k: number): number {
  const n = v.length;
  if (n === 0 || k <= 0) return NaN;
  const kk = Math.min(k, n);
  const t = sorted[kk - 1]!;
  let above = 0;
  while (above < n && sorted[above]! > t) above++;
  let greater = 0;
  let equal = 0;
  for (let i = 0; i < kk; i++) {
    if (v[i]! > t) greater++;
    else if (v[i] === t) equal++;
  }
  return (greater + Math.min(equal, kk - above)) / kk;
}

/** Crawl & Stop at K = ⌈n·p/100⌉ for each of STOP_PERCENTS. */
export function crawlAndStopTable(v: ArrayLike<number>, sorted: ArrayLike<number>): Array<{ percent: number; k: number; share: number }> {
  const n = v.length;
  return STOP_PERCENTS.map((percent) => {
    const k = Math.max(1, Math.ceil((n * percent) / 100));
    return n === 0 ? { percent, k: 0, share: NaN } : { percent, k, share: crawlAndStopAt(v, sorted, k) };
  });
}

/**
 * Crawl & Stop with Threshold: pages whose value (on the measure's own scale) is at least g
 * are hot; the share of them fetched after each of THRESHOLD_PERCENTS of the crawl. `hotTotal`:
 * the hot pages of the whole web (the simulator's reachable graph), by default those fetched.
 */
export function thresholdTable(raw: ArrayLike<number>, g: number, hotTotal?: number): { g: number; hotPages: number; fetched: Array<{ percent: number; share: number | null }> } {
  const n = raw.length;
  const hot = hotPrefix(raw, g);
  const hotPages = hotTotal ?? hot[n]!;
  const fetched = THRESHOLD_PERCENTS.map((percent) => {
    const k = Math.ceil((n * percent) / 100);
    return { percent, share: hotPages > 0 ? hot[k]! / hotPages : null };
  });
  return { g, hotPages, fetched };
}

/** h[i] = hot pages among the first i (h[0] = 0). */
function hotPrefix(raw: ArrayLike<number>, g: number): Uint32Array {
  const h = new Uint32Array(raw.length + 1);
  for (let i = 0; i < raw.length; i++) h[i + 1] = h[i]! + (raw[i]! >= g ? 1 : 0);
  return h;
}

/**
 * Both measures as curves against the share of pages fetched, at about `points` values of K
 * (Cho et al.'s Graphs 1 to 7 draw them so): `v` in fetch order, `raw` the same values on the
 * measure's own scale (for the threshold), g the threshold. `all`: the values of the whole web
 * in decreasing order and its hot pages (the simulator's reachable graph), by default the
 * fetched pages'.
 */
export function choCurve(v: ArrayLike<number>, raw: ArrayLike<number>, g: number, points: number, all?: { sorted: ArrayLike<number>; hotTotal: number }): ChoPoint[] {
  const n = v.length;
  if (n === 0) return [];
  const sorted = all?.sorted ?? Float64Array.from(v).sort().reverse();
  const hot = hotPrefix(raw, g);
  const total = all?.hotTotal ?? hot[n]!;
  const ks: number[] = [];
  const m = Math.max(2, Math.min(points, n));
  for (let j = 1; j <= m; j++) {
    const k = Math.max(1, Math.round((j * n) / m));
    if (ks[ks.length - 1] !== k) ks.push(k);
  }
  return ks.map((k) => ({ fractionPages: k / n, crawlAndStop: crawlAndStopAt(v, sorted, k), hotFetched: total > 0 ? hot[k]! / total : null }));
}

/** The default threshold: the value of the ⌈n/10⌉-th most important page (the top 10% are hot). */
export function topTenthThreshold(raw: ArrayLike<number>): number {
  const n = raw.length;
  if (n === 0) return 0;
  const sorted = Float64Array.from(raw).sort().reverse();
  return sorted[Math.max(1, Math.ceil(n / 10)) - 1]!;
}
