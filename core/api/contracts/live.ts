/**
 * Live: a running crawl's stats once a second, its stored timeline, recent errors and parked
 * sites. The stats are the engine's (engine/stats-report.ts), the timeline's points the store's
 * (store/timeline-point.ts).
 * Browser-safe: types and constant lists only, importing only browser-safe modules
 * (test/renderer/layers.test.ts); core/api/contract.ts joins the features into CrawlbenchApi.
 */
import type { StatsSnapshot } from '../../engine/stats-report.js';
import type { TimelinePoint } from '../../store/timeline-point.js';
import type { Unsubscribe } from './shared.js';

/** A running crawl's stats once a second (the engine's StatsSnapshot), with the crawl it is of. */
export type StatsEvent = StatsSnapshot & { crawlId: string };

export type { TimelinePoint } from '../../store/timeline-point.js';

/** A crawl's stored timeline, thinned to at most the points asked for; `stored` false for crawls made before it existed. */
export interface Timeline {
  stored: boolean;
  points: TimelinePoint[];
}

export interface RecentError {
  url: string;
  code: string;
  httpStatus: number | null;
}

/** A site parked for this crawl (robots.txt unreachable, error budget spent) and the pages it skipped. */
export interface ParkedSiteDto {
  host: string;
  /** CRAWL_ROBOTS_UNAVAILABLE or CRAWL_SITE_PARKED. */
  code: string;
  /** Known pages of the site left unfetched because it was parked. */
  pagesSkipped: number;
  /** The first of those pages (at most the limit asked for). */
  skipped: string[];
}

/** What the Live feature asks of the engine. */
export interface LiveApi {
  /** The last stats snapshot of a running crawl, or null. */
  currentStats(crawlId: string): Promise<StatsEvent | null>;
  recentErrors(crawlId: string, limit?: number): Promise<RecentError[]>;
  /** The crawl's stored stats samples from its start (at most maxPoints, evenly thinned). */
  timeline(crawlId: string, maxPoints?: number): Promise<Timeline>;
  /** Parked sites with the pages they skipped (up to `limit` URLs each). */
  parkedSites(crawlId: string, limit?: number): Promise<ParkedSiteDto[]>;
  onStats(cb: (s: StatsEvent) => void): Unsubscribe;
}

/** The Live methods a transport dispatches (those that return a promise). */
export const LIVE_METHODS = ['currentStats', 'recentErrors', 'timeline', 'parkedSites'] as const satisfies ReadonlyArray<keyof LiveApi>;
/** The Live events on the wire, and the subscription each one feeds. */
export const LIVE_EVENTS = { stats: 'onStats' } as const satisfies Record<string, keyof LiveApi>;
