/**
 * Simulate: the simulator in a worker thread of the engine, its runs kept in
 * WORKSPACE/simulations; the report is the simulator's (simulator/report.ts).
 * Browser-safe: types and constant lists only, importing only browser-safe modules
 * (test/renderer/layers.test.ts); core/api/contract.ts joins the features into CrawlbenchApi.
 */
import type { MeasureRequest } from '../../ranking/report.js';
import type { PolicyOutcomeJson, SimulateReportJson } from '../../simulator/report.js';
import type { Unsubscribe, WireError } from './shared.js';

/** One policy's outcome, as `crawlbench simulate --json` gives it (curves of at most about 400 points, open connections of about 2,000). */
export type SimulationOutcomeDto = PolicyOutcomeJson;
/** The simulator's report as `crawlbench simulate --json` gives it (bandwidth null: unlimited). */
export type SimulationReportDto = SimulateReportJson;

/** A graph the simulator can replay: a crawl of the workspace or a dataset folder under the datasets directory. */
export interface SimulationSourceDto {
  kind: 'crawl' | 'dataset';
  /** The crawl's id or the dataset folder's name (never a path). */
  id: string;
  /** Pages and sites where known cheaply (a crawl's counts); null for a dataset folder (known once read). */
  pages: number | null;
  sites: number | null;
  /** Bytes on disk (the crawl file, or the dataset's two files). */
  bytes: number;
}

export interface SimulationSourcesDto {
  crawls: SimulationSourceDto[];
  datasets: SimulationSourceDto[];
  /** Where the engine looks for dataset folders (copy or link a folder there to add one). */
  datasetsDir: string;
  /** The simulator's policies (the crawler's and the references that need the true PageRank). */
  policies: Array<{ name: string; summary: string }>;
}

/**
 * A simulation as `crawlbench simulate` takes it (one r, c and bandwidth; times in ms, bandwidth
 * in bytes/s). The measure fields choose what Cho et al.'s Crawl & Stop curves of every policy
 * score (default PageRank; similarity needs a crawl as the source: a dataset holds no text).
 */
export interface SimulationRequest extends MeasureRequest {
  source: { kind: 'crawl' | 'dataset'; id: string };
  /** Policy names, or 'all' (every policy the simulator knows; topic only with a topic). */
  policies: string[];
  r?: number;
  w?: number;
  c?: number;
  /** The crawler's bandwidth in bytes/s; null or absent: unlimited. */
  bandwidth?: number | null;
  /** Simulated latency and transfer rates (false: order only). */
  latency?: boolean;
  /** Seed of the drawn latencies, rates and page sizes. */
  networkSeed?: number;
  batch?: number | null;
  maxPages?: number | null;
  maxPagesPerSite?: number | null;
  siteKey?: 'host' | 'domain';
  perIp?: boolean;
  /** The topic word of the topic policy. */
  topic?: string;
  /** The topic policy's order of both queues (default breadth-first) and its radius in links (default 3). */
  topicOrder?: 'breadth-first' | 'backlink-count' | 'batch-pagerank';
  topicRadius?: number;
  /** Share of the pages a derived earlier crawl keeps, for the historical policies (default 0.55). */
  historyShare?: number;
  /** A crawl of the workspace whose PageRank the historical policies use instead. */
  historyCrawl?: string;
  /** Start URLs (pages of the graph); default every site's home page. */
  seeds?: string[];
}

export type SimulationState = 'running' | 'finished' | 'failed' | 'cancelled';

export interface SimulationProgressEvent {
  simulationId: string;
  state: SimulationState;
  /** Pages simulated so far over all policies, of total (policies x the pages each can fetch). */
  done: number;
  total: number;
  step: string;
  /** 0..1 */
  fraction: number;
}

/** A simulation under way or kept (WORKSPACE/simulations/ID.json); `report` only from getSimulation of a finished one. */
export interface SimulationDto {
  simulationId: string;
  state: SimulationState;
  /** The request with every default filled in and the policies expanded. */
  request: SimulationRequest & Required<Pick<SimulationRequest, 'r' | 'w' | 'c' | 'latency' | 'networkSeed' | 'siteKey' | 'perIp'>>;
  startedAt: string;
  finishedAt: string | null;
  progress: SimulationProgressEvent | null;
  error: WireError | null;
  /** The graph's pages (known once loaded). */
  pages: number | null;
  report: SimulationReportDto | null;
}

/** What the Simulate feature asks of the engine. */
export interface SimulateApi {
  /** The crawls of the workspace and the dataset folders of the datasets directory. */
  listSimulationSources(): Promise<SimulationSourcesDto>;
  /** Checks the request and starts the simulation in a worker thread; returns at once (progress as simulationProgress events). */
  startSimulation(req: SimulationRequest): Promise<{ simulationId: string }>;
  /** Stops a simulation under way (its worker is ended; no file is kept). Returns its final state. */
  cancelSimulation(simulationId: string): Promise<SimulationDto>;
  /** Simulations of this session and those kept in the workspace, newest first (without their reports). */
  listSimulations(): Promise<SimulationDto[]>;
  /** One simulation with its report (a kept one is read from its file). */
  getSimulation(simulationId: string): Promise<SimulationDto>;
  /** Removes a kept simulation's file (refused while it runs). */
  deleteSimulation(simulationId: string): Promise<void>;
  onSimulationProgress(cb: (e: SimulationProgressEvent) => void): Unsubscribe;
}

/** The Simulate methods a transport dispatches (those that return a promise). */
export const SIMULATE_METHODS = ['listSimulationSources', 'startSimulation', 'cancelSimulation', 'listSimulations', 'getSimulation', 'deleteSimulation'] as const satisfies ReadonlyArray<keyof SimulateApi>;
/** The Simulate events on the wire, and the subscription each one feeds. */
export const SIMULATE_EVENTS = { simulationProgress: 'onSimulationProgress' } as const satisfies Record<string, keyof SimulateApi>;
