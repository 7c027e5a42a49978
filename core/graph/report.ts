/**
 * What the graph exports and the partitioners report, as types and name lists only: the engine
 * builds them (partition.ts, export-graph.ts), the CLI prints them, the API carries them as
 * JSON and the renderer draws them. Imports nothing, so the renderer may import it (a
 * browser-safe module, see test/renderer/layers.test.ts).
 */

/** The thesis's four models (design.md section 6). */
export const MODELS = ['page', 'site', 'page-hypergraph', 'site-hypergraph'] as const;
export type GraphModel = (typeof MODELS)[number];

export const FORMATS = ['metis', 'hmetis', 'patoh', 'edgelist', 'graphml'] as const;
export type GraphFormat = (typeof FORMATS)[number];

/** The thesis's metrics of one assignment, counted on pages and links whatever the model. */
export interface PartitionMetrics {
  /** K. */
  parts: number;
  /** Percent: (Wmax - Wavg) / Wavg of the bytes per part. */
  storageImbalance: number;
  /** Percent: the same of the pages per part. */
  requestImbalance: number;
  /** Bytes of the URLs of the links that cross parts. */
  volume: number;
  /** Distinct (page, remote part) pairs: the connectivity - 1 cut of the page hypergraph. */
  messages: number;
  /** Share of the links (0..1) whose two pages are in one part. */
  linksInside: number;
  sitesSplit: number;
}

/** GP: gpmetis on a graph model; HP: KaHyPar on a hypergraph model; hash: the baseline. */
export type Method = 'GP' | 'HP' | 'hash';
export type Level = 'page' | 'site';

export interface PartitionRow {
  level: Level;
  /** The model partitioned (the level's graph for hashing). */
  model: GraphModel;
  method: Method;
  parts: number;
  /** Runs that completed (hash: 1). */
  runs: number;
  /** Each metric averaged over the runs; null when no run completed. */
  mean: PartitionMetrics | null;
  /** The run with the lowest objective (GP: volume, HP: messages); null when no run completed. */
  best: PartitionMetrics | null;
  seconds: number;
  /** Why runs failed (all of them, when runs is 0). */
  error?: string;
}

export interface PartitionProgress {
  done: number;
  total: number;
  /** What just finished, in words: "page GP K=8 run 3/8: volume 1234 B, 56 messages". */
  step: string;
}

export interface ToolReport {
  name: 'gpmetis' | 'KaHyPar';
  path: string | null;
  /** Where it was looked for and how to get it, when path is null. */
  missing?: string;
}

export interface PartitionReport {
  source: string;
  pages: number;
  links: number;
  sites: number;
  /** Pages whose size the source records; the others count defaultSize bytes. */
  sizesKnown: number;
  defaultSize: number;
  models: GraphModel[];
  parts: number[];
  runs: number;
  /** How the hash baseline assigns, in words. */
  hash: string;
  tools: ToolReport[];
  rows: PartitionRow[];
  seconds: number;
}
