/**
 * Which worker of a parallel crawl owns a URL (docs/design.md section 6; the Türk thesis's
 * coordinated data-parallel crawler, §3.5.2): the part vector replicated on every worker.
 *
 * - `hash`: partition-eval's stated hash (core/graph/hash.ts): 32-bit FNV-1a of the URL (page
 *   model) or of the site key (site model), modulo K, the very function partition-eval scores,
 *   so prediction and measurement use one assignment.
 * - a part vector FILE (as gpmetis, KaHyPar and the Zoltan driver write it) for a graph that
 *   export-graph wrote from an earlier crawl, line i the part of vertex i of the id map beside
 *   that graph (URLs for the page models, site keys for the site models).
 * - a URL not in the vector: a site model gives it its site's owner, or for a new site the hash
 *   of its key; a page model gives it to the worker that found it (the thesis's rule), or with
 *   `--new-urls hash` to the hash of the URL. A seed that no vector names goes by the hash.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CrawlError, ErrorCodes, badOption } from '../errors.js';
import { parsePartVector } from '../graph/assignment.js';
import { fnv1a, hashPart } from '../graph/hash.js';
import { siteKey, type SiteKeyMode } from '../url/site-key.js';

export type PartModel = 'page' | 'site';
export type NewUrlRule = 'discoverer' | 'hash';

/** The vector as the definition stores it: vertex labels (URLs or site keys) and their parts. */
export interface PartVector {
  labels: string[];
  parts: number[];
  /** The file it was read from, for messages. */
  file: string;
}

/** The owner of a URL: a part, or -1 for "the worker that found it" (a page model's new URL). */
export const DISCOVERER = -1;

export class Assignment {
  private readonly byLabel: Map<string, number> | null;

  constructor(
    readonly k: number,
    readonly model: PartModel,
    readonly siteKeyMode: SiteKeyMode,
    vector: PartVector | null,
    readonly newUrls: NewUrlRule = 'discoverer',
  ) {
    this.byLabel = vector ? new Map(vector.labels.map((l, i) => [l, vector.parts[i]!])) : null;
  }

  /** The part that fetches `url`, or DISCOVERER. */
  ownerOf(url: string): number {
    return this.ownerOfLabel(this.model === 'site' ? siteKey(url, this.siteKeyMode) : url);
  }

  /** The part of a vertex: a URL (page model) or a site key (site model). */
  ownerOfLabel(label: string): number {
    const known = this.byLabel?.get(label);
    if (known !== undefined) return known;
    if (this.byLabel && this.model === 'page' && this.newUrls === 'discoverer') return DISCOVERER;
    return hashPart(fnv1a(label), this.k);
  }

  /** The part of a seed (a seed no vector names goes by the hash: nobody found it). */
  seedOwner(url: string): number {
    const p = this.ownerOf(url);
    return p === DISCOVERER ? hashPart(fnv1a(url), this.k) : p;
  }
}

/**
 * The id map beside a part vector: given (--ids), or the one export-graph wrote beside the
 * graph the vector was computed for (GRAPH.ids.tsv, where the vector's name starts with GRAPH:
 * gpmetis writes GRAPH.part.K, KaHyPar GRAPH.part...KaHyPar).
 */
export function findIdMap(vectorFile: string, given?: string): string {
  if (given !== undefined) {
    if (!existsSync(given)) throw new CrawlError(ErrorCodes.BAD_PART_FILE, `--ids: ${given} does not exist`);
    return given;
  }
  const dir = dirname(vectorFile);
  const name = basename(vectorFile);
  const candidates = existsSync(dir)
    ? readdirSync(dir).filter((f) => f.endsWith('.ids.tsv') && name.startsWith(f.slice(0, -'.ids.tsv'.length)) && f !== name)
    : [];
  candidates.sort((a, b) => b.length - a.length);
  if (candidates.length === 0) {
    throw new CrawlError(ErrorCodes.BAD_PART_FILE, `--assign ${vectorFile}: no id map beside it (GRAPH.ids.tsv, written by export-graph with GRAPH); name it with --ids MAP`);
  }
  return join(dir, candidates[0]!);
}

/** Reads a part vector and its id map; every refusal names the file (and the line). */
export function readAssignmentFile(vectorFile: string, idMap: string, k: number, model: PartModel): PartVector {
  const labels = readIdMap(idMap, model);
  let text: string;
  try {
    text = readFileSync(vectorFile, 'utf8');
  } catch (err) {
    throw new CrawlError(ErrorCodes.BAD_PART_FILE, `--assign: cannot read ${vectorFile} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const parts = parsePartVector(text, labels.length, k, vectorFile);
  return { labels, parts: [...parts], file: vectorFile };
}

/** The labels of an id map (Id, Label, ...), in vertex order; a site model's map has a pages column. */
function readIdMap(path: string, model: PartModel): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new CrawlError(ErrorCodes.BAD_PART_FILE, `--ids: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const lines = text.split('\n');
  const head = lines[0]?.split('\t') ?? [];
  if (head[0] !== 'Id' || head[1] !== 'Label') throw new CrawlError(ErrorCodes.BAD_PART_FILE, `${path} line 1: not an id map written by export-graph (Id, Label, ...)`);
  const siteMap = head[2] === 'pages';
  if (siteMap !== (model === 'site')) {
    throw new CrawlError(ErrorCodes.BAD_PART_FILE, `${path}: an id map of ${siteMap ? 'sites' : 'pages'}, and --model is ${model}`);
  }
  const labels: string[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (lines[i] === '') continue;
    const cols = lines[i]!.split('\t');
    if (Number(cols[0]) !== labels.length + 1 || cols[1] === undefined) {
      throw new CrawlError(ErrorCodes.BAD_PART_FILE, `${path} line ${i + 1}: expected vertex ${labels.length + 1} and its label`);
    }
    labels.push(cols[1]);
  }
  return labels;
}

export function modelOf(value: string | undefined): PartModel {
  if (value === undefined) throw badOption('--model', 'required with --parts: page or site (whose vertices the assignment gives out)');
  if (value === 'page' || value === 'page-hypergraph') return 'page';
  if (value === 'site' || value === 'site-hypergraph') return 'site';
  throw badOption('--model', `"${value}" is not page, site, page-hypergraph or site-hypergraph`);
}
