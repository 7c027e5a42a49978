/**
 * The one typed contract between a user interface and the engine: the union of the features'
 * contracts (contracts/*.ts, one a feature, each beside or importing the engine module that
 * produces its results). Every transport (in-process, WebSocket for browser mode, Electron IPC)
 * implements CrawlbenchApi and passes the same contract tests. Everything in and out is plain
 * JSON, so that it can cross a socket, a MessagePort or contextBridge unchanged. This file is
 * browser-safe: types and constant lists only, importing only other browser-safe modules.
 */
import { COMPARE_EVENTS, COMPARE_METHODS, type CompareApi } from './contracts/compare.js';
import { CRAWLS_EVENTS, CRAWLS_METHODS, type CrawlsApi } from './contracts/crawls.js';
import { EXPORT_EVENTS, EXPORT_METHODS, type ExportApi } from './contracts/export.js';
import { LIVE_EVENTS, LIVE_METHODS, type LiveApi } from './contracts/live.js';
import { PARALLEL_EVENTS, PARALLEL_METHODS, type ParallelApi } from './contracts/parallel.js';
import { PARTITION_EVENTS, PARTITION_METHODS, type PartitionApi } from './contracts/partition.js';
import { RESULTS_EVENTS, RESULTS_METHODS, type ResultsApi } from './contracts/results.js';
import { SIMULATE_EVENTS, SIMULATE_METHODS, type SimulateApi } from './contracts/simulate.js';
import { SITES_METHODS, type SitesApi } from './contracts/sites.js';

export * from './contracts/shared.js';
export * from './contracts/crawls.js';
export * from './contracts/live.js';
export * from './contracts/sites.js';
export * from './contracts/results.js';
export * from './contracts/compare.js';
export * from './contracts/export.js';
export * from './contracts/partition.js';
export * from './contracts/simulate.js';
export * from './contracts/parallel.js';

/** The whole API: every feature's. */
export interface CrawlbenchApi extends CrawlsApi, LiveApi, SitesApi, ResultsApi, CompareApi, ExportApi, PartitionApi, SimulateApi, ParallelApi {}

/** Methods that return a promise: the only names a transport will dispatch. */
export const API_METHODS = [
  ...CRAWLS_METHODS,
  ...LIVE_METHODS,
  ...SITES_METHODS,
  ...RESULTS_METHODS,
  ...COMPARE_METHODS,
  ...EXPORT_METHODS,
  ...PARTITION_METHODS,
  ...SIMULATE_METHODS,
  ...PARALLEL_METHODS,
] as const satisfies ReadonlyArray<keyof CrawlbenchApi>;
export type ApiMethod = (typeof API_METHODS)[number];

/** Event names on the wire, and the subscription method each one feeds. */
export const API_EVENTS = {
  ...CRAWLS_EVENTS,
  ...LIVE_EVENTS,
  ...RESULTS_EVENTS,
  ...COMPARE_EVENTS,
  ...EXPORT_EVENTS,
  ...PARTITION_EVENTS,
  ...SIMULATE_EVENTS,
  ...PARALLEL_EVENTS,
} as const satisfies Record<string, keyof CrawlbenchApi>;
export type ApiEvent = keyof typeof API_EVENTS;
