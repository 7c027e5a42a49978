/**
 * Parallel: a crawl by K workers exchanging URLs over NATS JetStream (issue 25; the CLI's
 * `crawlbench crawl --parts K`, core/parallel/): created from New crawl with the assignment
 * (partition-eval's hash of hosts or of URLs, or a partition of an earlier crawl as the
 * Partition view computes it), run in a process of its own that outlives the window, each
 * worker's throughput and the link exchange (measured beside partition-eval's prediction)
 * streamed as it runs, and merged into NAME.db when it ends: a crawl like any other. Pause,
 * resume and stop are the Crawls feature's, and act on every worker.
 * Browser-safe: types and constant lists only, importing only browser-safe modules
 * (test/renderer/layers.test.ts); core/api/contract.ts joins the features into CrawlbenchApi.
 */
import type { CrawlInfo, CreateCrawlRequest } from './crawls.js';
import type { Unsubscribe } from './shared.js';

/** What the assignment gives out: pages, or whole sites (partition-eval's --model). */
export type ParallelModel = 'page' | 'site';
/** The partitioners whose part vector a parallel crawl takes (a graph and a hypergraph partitioner). */
export type ParallelPartitioner = 'gpmetis' | 'Zoltan PHG';

/** A parallel crawl's shape: api/parallel-request-schema.ts checks it, for the CLI's flags as for the form. */
export interface ParallelOptions {
  /** K: the workers (each a process with its own part of the crawl). */
  parts: number;
  model: ParallelModel;
  /**
   * 'hash': partition-eval's stated hash (FNV-1a of the site key for sites, of the URL for
   * pages); 'partition': a part vector computed for this K on an earlier crawl's graph.
   */
  assign: 'hash' | 'partition';
  /** With assign 'partition': the earlier crawl of the workspace and the partitioner (seed 1). */
  partition?: { crawl: string; partitioner: ParallelPartitioner };
  /** The earlier crawl whose graph predicts the exchange (default: the partition's crawl; none for a hash without it). */
  predictFrom?: string;
}

/** New crawl's request for a parallel crawl: the crawl's own settings and the parallel options. */
export interface CreateParallelCrawlRequest extends CreateCrawlRequest {
  parallel: ParallelOptions;
}

/** Messages and bytes of URLs (the thesis's volume), one way. */
export interface ExchangeFigures {
  messages: number;
  /** Bytes of the URLs carried (the thesis's volume). */
  volume: number;
  /** Bytes of the messages on the wire. */
  wireBytes: number;
}

/** One worker as of its last commit (its part's crawl database). */
export interface WorkerProgress {
  part: number;
  pages: number;
  pagesPerSecond: number;
  queued: number;
  /** Sent to the other parts, and taken in from them. */
  sent: ExchangeFigures;
  received: ExchangeFigures;
}

/** partition-eval's prediction of the exchange on the earlier crawl's graph for the same assignment. */
export interface ExchangePrediction {
  /** The earlier crawl (its id). */
  crawl: string;
  messages: number;
  volume: number;
  /** Pages of that crawl's graph. */
  pages: number;
}

/** A parallel crawl's figures, about once a second while it runs. */
export interface ParallelProgressEvent {
  crawlId: string;
  /** Epoch ms. */
  at: number;
  /** Seconds since this run started. */
  seconds: number;
  workers: WorkerProgress[];
  /** Every worker's sent figures added up: the crawl's exchange so far. */
  exchange: ExchangeFigures;
  prediction: ExchangePrediction | null;
  /** What the coordinator says of itself (starting the broker, restarting a worker, merging), in words. */
  note: string | null;
}

/** A parallel crawl of the workspace: its options, and its figures while it runs (or as it ended). */
export interface ParallelCrawlDto {
  crawlId: string;
  options: ParallelOptions;
  /** The latest figures: those of the run under way, or of the last run; null before it first ran. */
  progress: ParallelProgressEvent | null;
}

/** What the Parallel feature asks of the engine. */
export interface ParallelApi {
  /**
   * Creates a parallel crawl (NAME.db holds its settings until the merged crawl replaces it);
   * start, pause, resume and stop are CrawlsApi's and act on every worker. Needs nats-server
   * (`apt-get install nats-server`): without it the start is refused, saying so.
   */
  createParallelCrawl(req: CreateParallelCrawlRequest): Promise<CrawlInfo>;
  /** A crawl's parallel options and latest figures; null for a crawl of one process. */
  parallelCrawl(crawlId: string): Promise<ParallelCrawlDto | null>;
  onParallelProgress(cb: (e: ParallelProgressEvent) => void): Unsubscribe;
}

/** The Parallel methods a transport dispatches (those that return a promise). */
export const PARALLEL_METHODS = ['createParallelCrawl', 'parallelCrawl'] as const satisfies ReadonlyArray<keyof ParallelApi>;
/** The Parallel events on the wire, and the subscription each one feeds. */
export const PARALLEL_EVENTS = { parallelProgress: 'onParallelProgress' } as const satisfies Record<string, keyof ParallelApi>;
