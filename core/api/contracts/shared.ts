/**
 * What every feature's contract shares: how an error crosses a transport, and how an event
 * subscription ends.
 * Browser-safe: types and constant lists only, importing only browser-safe modules
 * (test/renderer/layers.test.ts); core/api/contract.ts joins the features into CrawlbenchApi.
 */

/** How an error crosses any transport. `code` is a stable CrawlError code (e.g. CRAWL_BAD_SEED). */
export interface WireError {
  name: string;
  code: string;
  message: string;
  /** The request field the error is about (e.g. 'w', 'policyParams.alpha'), for showing it at the field. */
  field?: string;
}

export type Unsubscribe = () => void;
