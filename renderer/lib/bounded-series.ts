/**
 * A time series that never grows past `max` points, however long the crawl: when full,
 * neighbouring points are merged pairwise (averaged) and later points are averaged over
 * twice as many samples. The chart keeps its whole history at a coarser resolution and a
 * 100,000-page crawl costs the same memory and redraw time as a short one.
 */
export class BoundedSeries {
  private points: Array<[number, number]> = [];
  private stride = 1;
  private pending: Array<[number, number]> = [];

  constructor(readonly max = 400) {
    if (max < 4) throw new RangeError('max must be at least 4');
  }

  push(x: number, y: number): void {
    this.pending.push([x, y]);
    if (this.pending.length < this.stride) return;
    this.points.push(mean(this.pending));
    this.pending = [];
    if (this.points.length >= this.max) {
      const merged: Array<[number, number]> = [];
      for (let i = 0; i + 1 < this.points.length; i += 2) merged.push(mean([this.points[i]!, this.points[i + 1]!]));
      if (this.points.length % 2 === 1) merged.push(this.points[this.points.length - 1]!);
      this.points = merged;
      this.stride *= 2;
    }
  }

  /** The points to draw (a copy: charts may keep it). */
  data(): Array<[number, number]> {
    return this.points.map((p) => [p[0], p[1]]);
  }

  get length(): number {
    return this.points.length;
  }

  clear(): void {
    this.points = [];
    this.pending = [];
    this.stride = 1;
  }
}

function mean(ps: Array<[number, number]>): [number, number] {
  let x = 0;
  let y = 0;
  for (const p of ps) {
    x += p[0];
    y += p[1];
  }
  return [x / ps.length, y / ps.length];
}
