import { mulberry32 } from '../random.js';
import { kendallTauB } from './kendall.js';

/** Castillo computed Kendall's tau on a 5,000-page sample of each ordering (§4.3.4, Table 4.2). */
export const CASTILLO_TAU_SAMPLE = 5000;
export const DEFAULT_TAU_SEED = 1;

/**
 * Kendall's tau-b over a uniform sample of `size` of the n pairs (x_i, y_i), drawn without
 * replacement by a seeded partial Fisher-Yates shuffle, so a run is repeated exactly. With n
 * at most `size` every pair is taken and the result is the exact tau-b.
 */
export function kendallTauSample(x: ArrayLike<number>, y: ArrayLike<number>, size = CASTILLO_TAU_SAMPLE, seed = DEFAULT_TAU_SEED): number {
  const n = x.length;
  if (y.length !== n) throw new RangeError(`kendallTauSample: lengths differ (${n} vs ${y.length})`);
  if (n <= size) return kendallTauB(x, y);
  const index = new Uint32Array(n);
  for (let i = 0; i < n; i++) index[i] = i;
  const draw = mulberry32(seed);
  const xs = new Float64Array(size);
  const ys = new Float64Array(size);
  for (let k = 0; k < size; k++) {
    const j = k + Math.floor(draw() * (n - k));
    const pick = index[j]!;
    index[j] = index[k]!;
    index[k] = pick;
    xs[k] = x[pick]!;
    ys[k] = y[pick]!;
  }
  return kendallTauB(xs, ys);
}
