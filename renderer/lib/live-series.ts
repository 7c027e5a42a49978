/**
 * The Live view's chart series of one crawl, fed by its stored timeline and then by live
 * events, on one x: the crawl's own running time in seconds. A point at or before the last
 * one drawn is skipped, so a live event already in the loaded timeline is not drawn twice.
 */
import type { StatsEvent, TimelinePoint } from '../../core/api/contract.js';
import { BoundedSeries } from './bounded-series.js';

export const SERIES_MAX = 400;

export class LiveSeries {
  readonly pagesPerSecond = new BoundedSeries(SERIES_MAX);
  readonly bytesPerSecond = new BoundedSeries(SERIES_MAX);
  readonly openConnections = new BoundedSeries(SERIES_MAX);
  readonly r = new BoundedSeries(SERIES_MAX);
  readonly sitesWithPending = new BoundedSeries(SERIES_MAX);
  readonly queued = new BoundedSeries(SERIES_MAX);
  /** The policy's estimate of the PageRank share fetched, in %, against pages fetched. */
  readonly pagerankVsPages = new BoundedSeries(SERIES_MAX);
  /**
   * Its baseline, the random order's expectation: pages fetched over pages known (fetched +
   * queued) at that moment, in %: what a crawl picking known pages at random would hold.
   */
  readonly pagerankRandom = new BoundedSeries(SERIES_MAX);
  private lastT = -Infinity;
  /** Bytes fetched and the PageRank estimate at the last point drawn (Live's counters after a crawl ended). */
  lastBytes: number | null = null;
  lastPagerank: number | null = null;
  /** Until the stored timeline is in, live events wait here, then come after it. */
  private held: StatsEvent[] | null = [];

  /** A live event: drawn now, or after the stored timeline once it has arrived. */
  feed(s: StatsEvent): void {
    if (this.held) this.held.push(s);
    else this.draw(s.crawlSeconds, s);
  }

  /** The stored timeline (none for a crawl made before timelines), then the events held meanwhile. */
  loaded(points: readonly TimelinePoint[]): void {
    for (const p of points) this.draw(p.t, p);
    const held = this.held ?? [];
    this.held = null;
    for (const s of held) this.draw(s.crawlSeconds, s);
  }

  draw(t: number, p: TimelinePoint | StatsEvent): void {
    if (t <= this.lastT) return;
    this.lastT = t;
    this.lastBytes = p.bytes;
    this.lastPagerank = p.pagerankEstimate;
    this.pagesPerSecond.push(t, p.pagesPerSecond);
    this.bytesPerSecond.push(t, p.bytesPerSecond);
    this.openConnections.push(t, p.openConnections);
    this.r.push(t, p.r);
    this.sitesWithPending.push(t, p.sitesWithPending);
    this.queued.push(t, p.queued);
    if (p.pagerankEstimate !== null) {
      this.pagerankVsPages.push(p.pages, p.pagerankEstimate * 100);
      this.pagerankRandom.push(p.pages, randomShare(p.pages, p.queued));
    }
  }
}

/** The random order's share in %: pages fetched over pages known (fetched + queued). */
export function randomShare(pages: number, queued: number): number {
  return pages + queued > 0 ? (100 * pages) / (pages + queued) : 0;
}
