/**
 * `export-graph`: one model of a link graph in one file format, with its id map beside it
 * (PATH.ids.tsv). Refuses an output that exists unless asked to overwrite it, and a graph with
 * no links (there is nothing to partition); writes under temporary names and renames both
 * files into place only when both are complete.
 */
import { existsSync } from 'node:fs';
import { CrawlError, ErrorCodes, badOption } from '../errors.js';
import { WRITERS, formatFits, writeIdMap, type FormatSummary, type GraphFormat } from './formats.js';
import { linkCount, type LinkGraph } from './link-graph.js';
import { vertexWeights, type GraphModel } from './models.js';
import { writeFiles } from './text-sink.js';
import { sizeUnit } from './weight-units.js';

export interface ExportRequest {
  model: GraphModel;
  format: GraphFormat;
  out: string;
  /** Write over existing files. */
  force?: boolean;
}

export interface ExportResult extends FormatSummary {
  model: GraphModel;
  format: GraphFormat;
  out: string;
  idMap: string;
  /** Bytes written to the graph file. */
  fileBytes: number;
  seconds: number;
}

export function idMapPath(out: string): string {
  return `${out}.ids.tsv`;
}

/** Refuses a model/format pair that does not fit, and existing outputs unless force. */
export function checkExport(req: ExportRequest): void {
  if (!formatFits(req.model, req.format)) {
    const fits = req.format === 'metis' ? 'the page and site graphs' : 'the page and site hypergraphs';
    throw badOption('--format', `${req.format} holds ${fits}, not the ${req.model} model`);
  }
  if (req.force) return;
  for (const p of [req.out, idMapPath(req.out)]) {
    if (existsSync(p)) throw new CrawlError(ErrorCodes.OUTPUT_EXISTS, `${p} exists (--force writes over it)`);
  }
}

/** A clear refusal for a graph without a link between two pages. */
export function checkHasLinks(g: LinkGraph): void {
  if (linkCount(g) === 0) {
    const has = g.n === 0 ? 'no pages and no links' : `${g.n} pages and no link between two of them`;
    throw new CrawlError(ErrorCodes.GRAPH_NO_LINKS, `${g.source} has ${has}: there is nothing to partition (crawl further first)`);
  }
}

export function exportGraph(g: LinkGraph, req: ExportRequest): ExportResult {
  checkExport(req);
  checkHasLinks(g);
  const t0 = performance.now();
  const idMap = idMapPath(req.out);
  const { summary, fileBytes } = writeFiles([req.out, idMap], ([file, ids]) => {
    const summary = WRITERS[req.format](g, req.model, file!);
    // The weighted formats state their unit; the id map gives it for edge lists and GraphML too.
    const unit = req.format === 'edgelist' || req.format === 'graphml' ? sizeUnit(vertexWeights(g, req.model).bytes) : summary.sizeUnit;
    writeIdMap(g, req.model, unit, ids!);
    return { summary: { ...summary, sizeUnit: unit }, fileBytes: () => file!.bytes };
  });
  return { ...summary, model: req.model, format: req.format, out: req.out, idMap, fileBytes: fileBytes(), seconds: (performance.now() - t0) / 1000 };
}
