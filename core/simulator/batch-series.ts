import type { BatchOutcome } from './report.js';

/** At most this many (t, active) points per batch; more changes are thinned by keeping every k-th. */
const MAX_POINTS = 1000;

interface Batch {
  formedAt: number;
  pages: number;
  fetched: number;
  lastFetchAt: number;
  /** Pages this batch admitted per site (site index of the graph). */
  perSite: Map<number, number>;
}

/**
 * Castillo's batches and active robots (§4.4, Figures 4.9-4.11), recorded during a simulated
 * crawl in batches: which batch admitted each page (the scheduler's onAdmit), when each batch
 * was formed and when its last page was fetched, and every change of the number of active
 * robots (open connections: a robot is active while it holds a connection, at most r of them).
 */
export class BatchRecorder {
  private readonly batches: Batch[] = [];
  private batchOf: Int32Array;
  /** Every change of the open connections: times (ms) and counts, in order. */
  private stepT = new Float64Array(1024);
  private stepV = new Int32Array(1024);
  private steps = 0;

  constructor(pages: number) {
    this.batchOf = new Int32Array(pages + 1);
  }

  admitted(pageId: number, site: number, batch: number, now: number): void {
    while (this.batches.length < batch) this.batches.push({ formedAt: now, pages: 0, fetched: 0, lastFetchAt: now, perSite: new Map() });
    const b = this.batches[batch - 1]!;
    b.pages++;
    b.perSite.set(site, (b.perSite.get(site) ?? 0) + 1);
    if (pageId >= this.batchOf.length) {
      const grown = new Int32Array(Math.max(pageId + 1, this.batchOf.length * 2));
      grown.set(this.batchOf);
      this.batchOf = grown;
    }
    this.batchOf[pageId] = batch;
  }

  fetched(pageId: number, now: number): void {
    const batch = pageId < this.batchOf.length ? this.batchOf[pageId]! : 0;
    if (batch === 0) return;
    const b = this.batches[batch - 1]!;
    b.fetched++;
    b.lastFetchAt = now;
  }

  /** The batch that admitted a page (0: none). */
  batchOfPage(pageId: number): number {
    return pageId < this.batchOf.length ? this.batchOf[pageId]! : 0;
  }

  /** The robots active from `now` on; changes at one instant keep only the last (what held after it). */
  open(now: number, active: number): void {
    if (this.steps > 0 && this.stepT[this.steps - 1] === now) {
      this.steps--;
      if (this.steps > 0 && this.stepV[this.steps - 1] === active) return;
    }
    if (this.steps > 0 && this.stepV[this.steps - 1] === active) return;
    if (this.steps === this.stepT.length) {
      const t = new Float64Array(this.steps * 2);
      const v = new Int32Array(this.steps * 2);
      t.set(this.stepT);
      v.set(this.stepV);
      this.stepT = t;
      this.stepV = v;
    }
    this.stepT[this.steps] = now;
    this.stepV[this.steps++] = active;
  }

  /** The batches as the report gives them; `end` is when the crawl ended (ms). */
  outcomes(end: number): BatchOutcome[] {
    return this.batches.map((b, i) => {
      const done = b.fetched === b.pages;
      const until = done ? b.lastFetchAt : end;
      const robots = this.activeBetween(b.formedAt, until);
      return {
        index: i + 1,
        pages: b.pages,
        fetched: b.fetched,
        sites: b.perSite.size,
        pagesPerSite: histogram(b.perSite),
        formedSeconds: b.formedAt / 1000,
        endSeconds: done ? b.lastFetchAt / 1000 : null,
        activeRobots: robots.series,
        meanActiveRobots: robots.mean,
      };
    });
  }

  /** Active robots from `from` to `to` (ms): the steps in seconds since `from`, and their time-average. */
  private activeBetween(from: number, to: number): { series: { t: number[]; active: number[] }; mean: number } {
    // The count in force at `from`: the last change at or before it. The changes are in time
    // order, and a crawl has thousands of batches over millions of changes: found by bisection.
    let lo = 0;
    let hi = this.steps;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.stepT[mid]! <= from) lo = mid + 1;
      else hi = mid;
    }
    let i = lo;
    const t: number[] = [0];
    const active: number[] = [i > 0 ? this.stepV[i - 1]! : 0];
    let area = 0;
    let lastT = from;
    let lastV = active[0]!;
    for (; i < this.steps && this.stepT[i]! <= to; i++) {
      area += lastV * (this.stepT[i]! - lastT);
      lastT = this.stepT[i]!;
      lastV = this.stepV[i]!;
      t.push((lastT - from) / 1000);
      active.push(lastV);
    }
    area += lastV * (to - lastT);
    return { series: thin(t, active), mean: to > from ? area / (to - from) : lastV };
  }
}

/** Sites by the number of pages they have in a batch: Figure 4.9's distribution, by pages ascending. */
function histogram(perSite: Map<number, number>): Array<{ pages: number; sites: number }> {
  const bySize = new Map<number, number>();
  for (const n of perSite.values()) bySize.set(n, (bySize.get(n) ?? 0) + 1);
  return [...bySize.entries()].sort((a, b) => a[0] - b[0]).map(([pages, sites]) => ({ pages, sites }));
}

function thin(t: number[], active: number[]): { t: number[]; active: number[] } {
  if (t.length <= MAX_POINTS) return { t, active };
  const k = Math.ceil(t.length / MAX_POINTS);
  const keep = (_: number, i: number) => i % k === 0 || i === t.length - 1;
  return { t: t.filter(keep), active: active.filter(keep) };
}
