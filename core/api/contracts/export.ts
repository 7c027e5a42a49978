/**
 * Export: a crawl written as WARC, JSON Lines, CSV or Parquet, and where it goes (a capability of
 * the host).
 * Browser-safe: types and constant lists only, importing only browser-safe modules
 * (test/renderer/layers.test.ts); core/api/contract.ts joins the features into CrawlbenchApi.
 */
import type { Unsubscribe, WireError } from './shared.js';

export const EXPORT_FORMATS = ['warc', 'jsonl', 'csv', 'parquet'] as const;

export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_TABLES = ['pages', 'sites', 'links'] as const;

export type ExportTable = (typeof EXPORT_TABLES)[number];

/** An export of a crawl, as `crawlbench export` takes it (filters repeatable, as lists). */
export interface ExportRequest {
  format: ExportFormat;
  /** The table for jsonl, csv and parquet (default pages); a WARC holds the fetches. */
  what?: ExportTable;
  /** Site keys (hosts). */
  sites?: string[];
  /** HTTP statuses or classes: '200', '4xx'. */
  statuses?: string[];
  /** Content-type prefixes: 'text/html'. */
  contentTypes?: string[];
  /** Fetch sequence ranges: '1..1000', '500..'. */
  seq?: string[];
  /** WARC: start a new file past this many bytes (default 1 GB). */
  maxFileSize?: number;
  /** WARC: also write a CDXJ index. */
  cdx?: boolean;
  // No path: where an export goes is the host's to say (HostCapabilities.chooseExportTarget);
  // a request naming one (`out`) is refused.
}

export interface ExportFileDto {
  name: string;
  bytes: number;
  /** Where it is on the engine's machine. */
  path: string;
  /** Browser mode: the file's download address on the workbench's own server; null when it has none. */
  href: string | null;
}

/** An export under way or done: its progress (also sent as exportProgress events) and result. */
export interface ExportJobDto {
  exportId: string;
  crawlId: string;
  format: ExportFormat;
  what: ExportTable;
  state: 'running' | 'finished' | 'failed' | 'cancelled';
  /** Rows read (for WARC: the crawl's fetches), of total. */
  done: number;
  total: number;
  unit: ExportTable;
  bytesWritten: number;
  /** Seconds left at the pace so far; null until it can be told. */
  etaSeconds: number | null;
  startedAt: string;
  endedAt: string | null;
  files: ExportFileDto[];
  warnings: string[];
  error: WireError | null;
}

/** Where the engine proposes to write an export, for the host to confirm or replace. */
export interface ExportTargetRequest {
  crawlId: string;
  format: ExportFormat;
  what: ExportTable;
  /** A folder (WARC files) or one file. */
  folder: boolean;
  /** The file or folder name the engine suggests, with its extension. */
  suggestedName: string;
  /** The place in the workspace's exports folder (browser mode downloads from there). */
  defaultOut: string;
}

export interface ExportTarget {
  out: string;
  /** Replace what is there (a save dialog asked the user already). */
  replace: boolean;
}

/**
 * What the engine asks of the program that hosts it: the desktop app (Electron's main
 * process) or browser mode's server. Both implement every capability; the transports carry
 * the engine's question to the host and its answer back, knowing nothing of either.
 */
export interface HostCapabilities {
  /** Where an export goes: a save dialog in the desktop app (null: closed without a choice), the workspace's exports folder in browser mode. */
  chooseExportTarget(req: ExportTargetRequest): Promise<ExportTarget | null>;
}

export const HOST_CAPABILITIES = ['chooseExportTarget'] as const satisfies ReadonlyArray<keyof HostCapabilities>;

/** What the Export feature asks of the engine. */
export interface ExportApi {
  /**
   * Starts an export of a crawl (a running one is exported as of this moment) and returns at
   * once; progress comes as exportProgress events and from listExports. A bad request is
   * refused here, with the field named.
   */
  startExport(crawlId: string, req: ExportRequest): Promise<{ exportId: string }>;
  /** Stops an export under way; its partial files are removed. Returns its final state. */
  cancelExport(exportId: string): Promise<ExportJobDto>;
  /** Exports of a crawl (or of all crawls), newest first: those of this session and the finished ones kept in the workspace. */
  listExports(crawlId?: string): Promise<ExportJobDto[]>;
  onExportProgress(cb: (e: ExportJobDto) => void): Unsubscribe;
}

/** The Export methods a transport dispatches (those that return a promise). */
export const EXPORT_METHODS = ['startExport', 'cancelExport', 'listExports'] as const satisfies ReadonlyArray<keyof ExportApi>;
/** The Export events on the wire, and the subscription each one feeds. */
export const EXPORT_EVENTS = { exportProgress: 'onExportProgress' } as const satisfies Record<string, keyof ExportApi>;
