/**
 * The stored states of a crawl and of its pages: their own module, since both the writer
 * (crawl-store.ts) and the reader (crawl-reader.ts, which the writer uses for totals) name
 * them, and importing them from the writer made the two a cycle of types.
 */

/** meta.state; 'stopped': ended for good by the user (never resumed), read indexes built as for 'finished'. */
export type CrawlState = 'created' | 'running' | 'paused' | 'finished' | 'stopped';

/** pages.status. */
export type PageStatus = 'queued' | 'fetched' | 'duplicate' | 'failed' | 'skipped' | 'disallowed';
