/**
 * What a running crawl reports once a second, as types only: the engine (stats.ts) fills it,
 * the CLI prints it, the API carries it (the live contract's StatsEvent) and the renderer draws
 * it. Imports nothing, so the renderer may import it (browser-safe, see
 * test/renderer/layers.test.ts).
 */

/** What the live line, the UI and `--json` progress show once a second. */
export interface StatsSnapshot {
  at: number;
  elapsedSeconds: number;
  pages: number;
  pagesPerSecond: number;
  bytes: number;
  bytesPerSecond: number;
  openConnections: number;
  r: number;
  sitesWithPending: number;
  queued: number;
  errors: Record<string, number>;
  errorTotal: number;
  /**
   * The policy's running estimate of the share of PageRank held by the pages fetched so
   * far (OPIC cash, latest partial PageRank, or historical PageRank); null if it has none.
   */
  pagerankEstimate: number | null;
  rssBytes: number;
  /** The crawl's running time over all its runs (pauses excluded): the timeline's x. */
  crawlSeconds: number;
  /** Policies guided by an earlier crawl: the crawl's pages found in it so far (null: the policy has no history). */
  historyMatched: number | null;
}
