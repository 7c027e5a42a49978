/**
 * Compare: two crawls compared in the engine; the report is the comparison's own
 * (compare/report.ts).
 * Browser-safe: types and constant lists only, importing only browser-safe modules
 * (test/renderer/layers.test.ts); core/api/contract.ts joins the features into CrawlbenchApi.
 */
import type { CompareReport } from '../../compare/report.js';
import type { Unsubscribe } from './shared.js';

export type { CompareReport } from '../../compare/report.js';

/** A comparison of two crawls of the workspace, named by id. */
export interface CompareRequest {
  /** Chosen by the caller, to follow its progress events and to cancel it. */
  jobId?: string;
  /** Risers, fallers, sites and added, removed, changed pages listed (default 20). */
  top?: number;
  /** Per-page figures for this host only. */
  host?: string;
}

export interface CompareProgressEvent {
  jobId: string;
  step: string;
  /** 0..1 of the whole comparison. */
  fraction: number;
}

/** What the Compare feature asks of the engine. */
export interface CompareApi {
  /** Compares crawl b with crawl a (computed in the engine; progress as compareProgress events). */
  compareCrawls(a: string, b: string, opts?: CompareRequest): Promise<CompareReport>;
  /** Cancels a comparison under way (it then fails with CRAWL_CANCELLED). */
  cancelCompare(jobId: string): Promise<void>;
  onCompareProgress(cb: (e: CompareProgressEvent) => void): Unsubscribe;
}

/** The Compare methods a transport dispatches (those that return a promise). */
export const COMPARE_METHODS = ['compareCrawls', 'cancelCompare'] as const satisfies ReadonlyArray<keyof CompareApi>;
/** The Compare events on the wire, and the subscription each one feeds. */
export const COMPARE_EVENTS = { compareProgress: 'onCompareProgress' } as const satisfies Record<string, keyof CompareApi>;
