/**
 * What the graph exports and the partitioners report, as types and name lists only: the engine
 * builds them (partition.ts, export-graph.ts), the CLI prints them, the API carries them as
 * JSON and the renderer draws them. Imports nothing, so the renderer may import it (a
 * browser-safe module, see test/renderer/layers.test.ts).
 */

/** The thesis's four models (docs/design.md section 6). */
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

/** The thesis's methods. GP: a graph partitioner on a graph model; HP: a hypergraph partitioner on a hypergraph model; hash: the baseline. */
export type Method = 'GP' | 'HP' | 'hash';
export type Level = 'page' | 'site';

/** The programs that partition (ToolReport's names), and hash for the baseline. */
export const PARTITIONERS = ['gpmetis', 'Zoltan PHG', 'KaHyPar', 'hash'] as const;
export type Partitioner = (typeof PARTITIONERS)[number];

/**
 * The columns of the tables, charts and the workbench's table, one per partitioner: the
 * method it stands for, the name its columns carry (which partitioner made them), and a short
 * key (a row's data-row in the workbench, file-name safe).
 */
export const COLUMNS: Record<Partitioner, { method: Method; name: string; key: string }> = {
  gpmetis: { method: 'GP', name: 'GP (gpmetis)', key: 'GP' },
  'Zoltan PHG': { method: 'HP', name: 'HP (Zoltan PHG)', key: 'PHG' },
  KaHyPar: { method: 'HP', name: 'HP (KaHyPar)', key: 'KaHyPar' },
  hash: { method: 'hash', name: 'hash', key: 'hash' },
};

export interface PartitionRow {
  level: Level;
  /** The model partitioned (the level's graph for hashing). */
  model: GraphModel;
  method: Method;
  /** The program that made the row (hash: the baseline); COLUMNS[partitioner].name names its columns. */
  partitioner: Partitioner;
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
  name: Exclude<Partitioner, 'hash'>;
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
