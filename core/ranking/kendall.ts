/**
 * Kendall's tau-b, exact, in O(n log n) (Knight 1966, as in scipy.stats.kendalltau):
 * sort the pairs by x then y; count pairs tied in x (n1) and tied in both (n3); merge-sort
 * that sequence by y counting swaps, which are exactly the discordant pairs (a pair tied
 * in x is already in y order, so it never swaps); count pairs tied in y (n2). Then
 *   concordant - discordant = n0 - n1 - n2 + n3 - 2 * swaps
 *   tau_b = (concordant - discordant) / sqrt((n0 - n1) * (n0 - n2)),  n0 = n(n-1)/2.
 * Pair counts stay below 2^53 for n up to ~10^8, so doubles are exact here.
 * Returns NaN when x or y is constant (tau-b is undefined), or n < 2.
 */
export function kendallTauB(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const n = x.length;
  if (y.length !== n) throw new RangeError(`kendallTauB: lengths differ (${n} vs ${y.length})`);
  if (n < 2) return NaN;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => x[a]! - x[b]! || y[a]! - y[b]!);

  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    xs[i] = x[order[i]!]!;
    ys[i] = y[order[i]!]!;
  }
  const n1 = tiedPairs(n, (i) => xs[i] === xs[i - 1]);
  const n3 = tiedPairs(n, (i) => xs[i] === xs[i - 1] && ys[i] === ys[i - 1]);
  const swaps = mergeSortCountingSwaps(ys);
  const n2 = tiedPairs(n, (i) => ys[i] === ys[i - 1]); // ys is sorted now
  const n0 = (n * (n - 1)) / 2;
  const denominator = Math.sqrt(n0 - n1) * Math.sqrt(n0 - n2);
  if (denominator === 0) return NaN;
  const tau = (n0 - n1 - n2 + n3 - 2 * swaps) / denominator;
  return Math.max(-1, Math.min(1, tau)); // rounding could step a hair outside [-1, 1]
}

/** Sum of t(t-1)/2 over runs of consecutive equal elements (same(i): i equals i-1). */
function tiedPairs(n: number, same: (i: number) => boolean): number {
  let total = 0;
  let run = 1;
  for (let i = 1; i < n; i++) {
    if (same(i)) run++;
    else {
      total += (run * (run - 1)) / 2;
      run = 1;
    }
  }
  return total + (run * (run - 1)) / 2;
}

/**
 * Sorts a ascending in place (bottom-up merge sort) and returns the number of inversions:
 * pairs i < j with a[i] > a[j]. Equal values are taken from the left run first, so ties
 * are not counted.
 */
export function mergeSortCountingSwaps(a: Float64Array): number {
  const n = a.length;
  let src: Float64Array = a;
  let dst: Float64Array = new Float64Array(n);
  let swaps = 0;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        if (src[i]! <= src[j]!) dst[k++] = src[i++]!;
        else {
          dst[k++] = src[j++]!;
          swaps += mid - i; // src[j] jumps over every element left in the left run
        }
      }
      while (i < mid) dst[k++] = src[i++]!;
      while (j < hi) dst[k++] = src[j++]!;
    }
    [src, dst] = [dst, src];
  }
  if (src !== a) a.set(src);
  return swaps;
}
