/**
 * Partition: a crawl's graph partitioned and written in the partitioners' formats; the report is
 * the graph module's (graph/report.ts).
 * Browser-safe: types and constant lists only, importing only browser-safe modules
 * (test/renderer/layers.test.ts); core/api/contract.ts joins the features into CrawlbenchApi.
 */
import type { GraphFormat, GraphModel, PartitionReport } from '../../graph/report.js';
import type { Unsubscribe } from './shared.js';

export { FORMATS as GRAPH_FORMATS, MODELS as GRAPH_MODELS } from '../../graph/report.js';
export type { GraphFormat, GraphModel, Method as PartitionMethod, PartitionMetrics, PartitionReport, PartitionRow } from '../../graph/report.js';

/** A partitioning of a crawl of the workspace among K processors (`crawlbench partition`). */
export interface PartitionRequest {
  /** Chosen by the caller, to follow its progress events and to cancel it. */
  jobId?: string;
  models: GraphModel[];
  /** The values of K (each 2 .. the vertices of every model). */
  parts: number[];
  /** Seeds per partitioner and K (default 4). */
  runs?: number;
}

/** One finished step of a partitioning: a hash baseline or one partitioner run. */
export interface PartitionProgressEvent {
  jobId: string;
  crawlId: string;
  done: number;
  total: number;
  step: string;
}

/** A model of a crawl's graph written in one format (`crawlbench export-graph`). */
export interface GraphExportRequest {
  model: GraphModel;
  format: GraphFormat;
}

export interface GraphExportDto {
  model: GraphModel;
  format: GraphFormat;
  vertices: number;
  edges: number;
  /** Bytes per unit of the vertex sizes written (1024: KB). */
  sizeUnit: number;
  /** The graph file, then its id map. */
  files: Array<{ name: string; bytes: number; path: string; href: string | null }>;
}

/** What the Partition feature asks of the engine. */
export interface PartitionApi {
  /**
   * Partitions a crawl's graph with gpmetis, Zoltan PHG (and KaHyPar where installed) beside hashing (computed in the engine,
   * the partitioners as child processes; progress as partitionProgress events). A partitioner
   * that is not installed leaves its rows out and says how to get it in the report's tools.
   */
  partitionCrawl(crawlId: string, req: PartitionRequest): Promise<PartitionReport>;
  /** Cancels a partitioning under way (the running partitioner is killed; it fails with CRAWL_CANCELLED). */
  cancelPartition(jobId: string): Promise<void>;
  /** Writes one model of a crawl's graph, with its id map, under the workspace's exports folder. */
  exportGraph(crawlId: string, req: GraphExportRequest): Promise<GraphExportDto>;
  onPartitionProgress(cb: (e: PartitionProgressEvent) => void): Unsubscribe;
}

/** The Partition methods a transport dispatches (those that return a promise). */
export const PARTITION_METHODS = ['partitionCrawl', 'cancelPartition', 'exportGraph'] as const satisfies ReadonlyArray<keyof PartitionApi>;
/** The Partition events on the wire, and the subscription each one feeds. */
export const PARTITION_EVENTS = { partitionProgress: 'onPartitionProgress' } as const satisfies Record<string, keyof PartitionApi>;
