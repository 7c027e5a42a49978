/**
 * What `crawlbench compare` reports, as types only: the engine builds it (compare.ts), the
 * CLI prints it, the API carries it as JSON and the renderer draws it. Imports only the
 * browser-safe timeline point, so the renderer may import it (a browser-safe module, see test/renderer/layers.test.ts).
 */

/** What a page's last answer was, as the comparison counts it. "in": fetched with status 200. */
export const STATUS_CLASSES = ['in', 'redirect', 'client-error', 'server-error', 'other-http', 'failed', 'disallowed', 'skipped', 'queued'] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export type { TimelinePoint } from '../store/timeline-point.js';
import type { TimelinePoint } from '../store/timeline-point.js';

export interface SideSummary {
  path: string;
  state: string;
  seeds: string[];
  scope: { suffixes: string[]; hosts: string[]; excludes: string[]; maxUrlLength: number };
  siteKey: 'host' | 'domain';
  policy: string;
  policyParams: Record<string, unknown>;
  w: number;
  c: number;
  r: number;
  maxPages: number | null;
  maxDepth: number;
  maxPagesPerSite: number;
  userAgent: string;
  startedAt: string | null;
  /** The crawl's running time in seconds (its timeline clock), null when unknown. */
  durationSeconds: number | null;
  pagesKnown: number;
  sites: number;
}

export interface SiteRow {
  site: string;
  pagesA: number;
  pagesB: number;
  growth: number | null;
  added: number;
  removed: number;
  changed: number;
  bytesA: number;
  bytesB: number;
  errorsA: number;
  errorsB: number;
  connectMsA: number | null;
  connectMsB: number | null;
  pagesPerConnectionA: number | null;
  pagesPerConnectionB: number | null;
}

export interface LinkDiff {
  /** Distinct links out of pages fetched in both crawls, in A and in B. */
  linksA: number;
  linksB: number;
  kept: number;
  /** In B, not in A. */
  added: number;
  /** In A, not in B. */
  vanished: number;
  /** added / linksB: the share of B's links (out of common pages) that are new. */
  newShare: number;
}

export interface Mover {
  url: string;
  pageRankA: number;
  pageRankB: number;
  /** log2 of B's value over A's, each times its graph's size (1 = twice its share). */
  change: number;
}

/** A page listed as added, removed or changed, with its PageRank in each crawl (null where not fetched). */
export interface ListedPage {
  url: string;
  pageRankA: number | null;
  pageRankB: number | null;
}

/**
 * The pages behind pages.onlyB (added), pages.onlyA (removed) and common.contentChanged
 * (changed): the `top` of each of highest PageRank (B's; A's for removed pages).
 */
export interface PageLists {
  added: ListedPage[];
  removed: ListedPage[];
  changed: ListedPage[];
}

export interface CurvePoint {
  pages: number;
  fraction: number;
  cumulative: number;
  best: number;
  random: number;
}

export interface PageRankDiff {
  sourceA: 'stored' | 'computed';
  sourceB: 'stored' | 'computed';
  common: number;
  kendallTauB: number;
  spearmanRho: number;
  topK: Array<{ k: number; overlap: number }>;
  risers: Mover[];
  fallers: Mover[];
  /** Of B's fetched pages: the share that A had fetched, and the share of their PageRank those hold. */
  pagesShareInA: number;
  pageRankShareInA: number;
  /** Up to 2000 common pages, values times graph size (for a log-log scatter). */
  scatter: Array<[number, number]>;
  curveA: CurvePoint[];
  curveB: CurvePoint[];
  averageCumulativeA: number;
  averageCumulativeB: number;
}

export interface CompareReport {
  a: SideSummary;
  b: SideSummary;
  warnings: string[];
  notes: string[];
  host: string | null;
  pages: { inA: number; inB: number; onlyA: number; onlyB: number; both: number; jaccard: number };
  sites: { inA: number; inB: number; onlyA: number; onlyB: number; both: number; jaccard: number };
  statusClasses: Array<{ status: string; a: number; b: number }>;
  statusChanges: Array<{ from: string; to: string; pages: number }>;
  /**
   * acrossSchemes: pages paired though one crawl has them over http and the other over https
   * (pages are matched whatever their scheme); notModifiedA/B: pages a conditional recrawl was
   * told had not changed (304), their content taken from its history crawl.
   */
  common: { pages: number; contentChanged: number; sizeChanged: number; bytesA: number; bytesB: number; acrossSchemes: number; notModifiedA: number; notModifiedB: number };
  links: LinkDiff;
  pageLists: PageLists;
  pagerank: PageRankDiff;
  perSite: SiteRow[];
  timelines: { a: TimelinePoint[] | null; b: TimelinePoint[] | null };
}
