/**
 * Assignments of a model's vertices (pages or sites) to K processors: read from a part vector
 * (one 0-based part per line, as gpmetis and KaHyPar write them, line i for vertex i of the id
 * map), or the hash baseline (fnv1a of the URL or host, modulo K; hash.ts).
 */
import { readFileSync } from 'node:fs';
import { CrawlError, ErrorCodes, badOption } from '../errors.js';
import { hashPart } from './hash.js';
import type { LinkGraph } from './link-graph.js';
import { isSiteModel, vertexCount, vertexNoun, type GraphModel } from './models.js';

/** Refuses K below 2 or above the model's vertex count. */
export function checkParts(g: LinkGraph, m: GraphModel, k: number): void {
  const n = vertexCount(g, m);
  if (!Number.isInteger(k) || k < 2) throw badOption('--parts', `${k} is not a number of parts >= 2`);
  if (k > n) throw badOption('--parts', `${k} parts for the ${m} model's ${n} ${vertexNoun(m)}s: at most ${n}`);
}

export function hashAssignment(g: LinkGraph, m: GraphModel, k: number): Uint32Array {
  const hashes = isSiteModel(m) ? g.siteHash : g.pageHash;
  const parts = new Uint32Array(hashes.length);
  for (let v = 0; v < hashes.length; v++) parts[v] = hashPart(hashes[v]!, k);
  return parts;
}

/** Parses a part vector for `n` vertices; every error names the file and the line. */
export function parsePartVector(text: string, n: number, k: number, name: string): Uint32Array {
  const parts = new Uint32Array(n);
  let count = 0;
  let lineNo = 0;
  let start = 0;
  const bad = (what: string) => new CrawlError(ErrorCodes.BAD_PART_FILE, `${name} line ${lineNo}: ${what}`);
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end).trim();
    start = end + 1;
    lineNo++;
    if (line === '') {
      if (start < text.length) throw bad('empty (one part per line, 0-based)');
      continue;
    }
    if (!/^\d+$/.test(line)) throw bad(`"${line.slice(0, 40)}" is not a part number (one part per line, 0-based)`);
    const p = Number(line);
    if (p >= k) throw bad(`part ${p} is outside 0..${k - 1}`);
    if (count === n) throw bad(`one line more than the ${n} vertices of the graph`);
    parts[count++] = p;
  }
  if (count < n) {
    throw new CrawlError(ErrorCodes.BAD_PART_FILE, `${name} line ${count + 1}: missing; the file ends after ${count} parts and the graph has ${n} vertices (one part per vertex, in the order of the id map)`);
  }
  return parts;
}

export function readPartVector(path: string, n: number, k: number): Uint32Array {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new CrawlError(ErrorCodes.BAD_PART_FILE, `--assign: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return parsePartVector(text, n, k, path);
}
