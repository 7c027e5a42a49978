/**
 * One stored stats sample of a crawl's timeline, as a type only: the store writes and reads it
 * (timeline.ts), the comparison and the API carry it, the renderer draws it. Imports nothing,
 * so the renderer may import it (browser-safe, see test/renderer/layers.test.ts).
 */

export interface TimelinePoint {
  /** The crawl's running time in seconds (pauses excluded), continuing across runs. */
  t: number;
  /** Epoch ms. */
  at: number;
  pages: number;
  bytes: number;
  pagesPerSecond: number;
  bytesPerSecond: number;
  openConnections: number;
  r: number;
  sitesWithPending: number;
  queued: number;
  errors: number;
  pagerankEstimate: number | null;
}
