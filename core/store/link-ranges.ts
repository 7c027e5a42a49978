/**
 * The links of a crawl as CSR pieces, read on several threads for large crawls: the fast
 * path of the reader's link stream for graph loading (moved here from ranking/ so that every
 * query of the crawl schema lives in core/store).
 */
import type Database from 'better-sqlite3';
import { availableParallelism } from 'node:os';
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';
import { sqliteModulePath } from './sqlite.js';

/**
 * Links as runs of one source node's targets: run r is `counts[r]` links from node `nodes[r]`,
 * the next ones of `targets` (each fetch's links are one source's, so a run holds about a
 * page's links: 4 bytes a link and 8 a run, where a pair per link would take 8 a link).
 */
export interface LinkRuns {
  nodes: Uint32Array;
  counts: Uint32Array;
  runs: number;
  targets: Uint32Array;
  length: number;
}

/** No links yet. Self-contained: worker threads receive its source text. */
export function newLinkRuns(): LinkRuns {
  return { nodes: new Uint32Array(1 << 12), counts: new Uint32Array(1 << 12), runs: 0, targets: new Uint32Array(1 << 16), length: 0 };
}

/** Adds link x -> y, extending the last run when it is x's (arrays grow by doubling). Self-contained, as newLinkRuns. */
export function pushLink(r: LinkRuns, x: number, y: number): void {
  if (r.length === r.targets.length) {
    const grown = new Uint32Array(r.targets.length * 2);
    grown.set(r.targets);
    r.targets = grown;
  }
  r.targets[r.length++] = y;
  if (r.runs > 0 && r.nodes[r.runs - 1] === x) {
    r.counts[r.runs - 1]!++;
    return;
  }
  if (r.runs === r.nodes.length) {
    const nodes = new Uint32Array(r.nodes.length * 2);
    const counts = new Uint32Array(r.nodes.length * 2);
    nodes.set(r.nodes);
    counts.set(r.counts);
    r.nodes = nodes;
    r.counts = counts;
  }
  r.nodes[r.runs] = x;
  r.counts[r.runs++] = 1;
}

/**
 * Reads the links stored with seq in [lo, hi) (schema 12: the fetch_seq of the fetch that
 * stored them, or minus the source's id for links stored without one) as runs of node
 * targets, through `table` (page id -> node or -1; links to or from other ids and self-links
 * are dropped), in the table's order: grouped by source, each source's targets ascending
 * (csrFromRuns puts them in CSR order).
 *
 * As of the snapshot `seq` (a fetch sequence number): a page's links are stored with its
 * fetch, so those with a larger seq are left out. Each range is read by one statement (its own
 * short read transaction, never one for the whole read, which would stop a running crawl's WAL
 * from being checkpointed).
 *
 * Why like this: better-sqlite3 crosses from C++ to JS once per row (~0.8 s per million
 * rows), so SQLite instead concatenates a range of rows into two comma-separated strings
 * (group_concat over one scan, so src and dst stay aligned), parsed here in lockstep.
 * Ranges adapt to hold 0.5-4 million rows.
 *
 * The function refers to nothing outside itself but newLinkRuns and pushLink: worker threads
 * receive the three's source text.
 */
export function readLinkRuns(db: Database.Database, lo: number, hi: number, table: Int32Array, seq: number): LinkRuns {
  const first = db.prepare('SELECT min(seq) FROM links WHERE seq >= ? AND seq < ?').pluck();
  const read = db.prepare('SELECT count(*), group_concat(src), group_concat(dst) FROM links WHERE seq >= ? AND seq < ?').raw();
  const maxId = table.length - 1;
  const out = newLinkRuns();
  const last = Math.min(hi, seq + 1); // nothing stored after the snapshot is read
  let width = 1 << 16;
  let start = first.get(lo, last) as number | null;
  while (start !== null) {
    const end = Math.min(start + width, last);
    const [count, srcText, dstText] = read.get(start, end) as [number, string | null, string | null];
    if (count > 0) {
      const S = srcText!;
      const D = dstText!;
      let i = 0;
      let j = 0;
      for (let row = 0; row < count; row++) {
        let s = 0;
        let negS = false;
        let c = S.charCodeAt(i++);
        if (c === 45) (negS = true), (c = S.charCodeAt(i++));
        for (; c >= 48; c = S.charCodeAt(i++)) s = s * 10 + (c - 48); // stops at ',' or the end (NaN)
        let t = 0;
        let negT = false;
        c = D.charCodeAt(j++);
        if (c === 45) (negT = true), (c = D.charCodeAt(j++));
        for (; c >= 48; c = D.charCodeAt(j++)) t = t * 10 + (c - 48);
        const x = !negS && s <= maxId ? table[s]! : -1;
        const y = !negT && t <= maxId ? table[t]! : -1;
        if (x < 0 || y < 0 || x === y) continue;
        pushLink(out, x, y);
      }
      if (i !== S.length + 1 || j !== D.length + 1) throw new Error(`links range at ${start}: rows and text disagree`);
    }
    if (count > 4_000_000 && width > 1) width = Math.max(1, width >> 1);
    else if (count < 500_000 && width < 2 ** 40) width *= 2;
    start = end < last ? (first.get(end, last) as number | null) : null;
  }
  return out;
}

/**
 * Runs of links (in any order) as CSR: counts each node's out-links into outdeg (zeroed first)
 * and returns the targets grouped by source node, each source's ascending, a pair met twice
 * kept once (a sitemap that is also a page of the crawl may list a page its HTML links to:
 * schema 12).
 */
export function csrFromRuns(parts: readonly LinkRuns[], outdeg: Uint32Array): Uint32Array {
  const n = outdeg.length;
  outdeg.fill(0);
  let m = 0;
  for (const p of parts) {
    for (let r = 0; r < p.runs; r++) outdeg[p.nodes[r]!]! += p.counts[r]!;
    m += p.length;
  }
  const next = new Uint32Array(n + 1);
  for (let v = 0; v < n; v++) next[v + 1] = next[v]! + outdeg[v]!;
  const targets = new Uint32Array(m);
  for (const p of parts) {
    for (let r = 0, k = 0; r < p.runs; r++) {
      const v = p.nodes[r]!;
      let at = next[v]!;
      for (const end = k + p.counts[r]!; k < end; k++) targets[at++] = p.targets[k]!;
      next[v] = at;
    }
  }
  // next[v] is now row v's end. Rows come sorted from one fetch's links; sort any that are not,
  // and drop repeated targets.
  let repeats = false;
  for (let v = 0, s = 0; v < n; v++) {
    const e = next[v]!;
    for (let k = s + 1; k < e; k++) {
      if (targets[k]! > targets[k - 1]!) continue;
      const row = targets.subarray(s, e).sort();
      for (let q = 1; q < row.length && !repeats; q++) repeats = row[q] === row[q - 1];
      break;
    }
    s = e;
  }
  if (!repeats) return targets;
  let w = 0;
  for (let v = 0, s = 0; v < n; v++) {
    const e = next[v]!;
    const from = w;
    for (let k = s; k < e; k++) if (k === s || targets[k] !== targets[k - 1]) targets[w++] = targets[k]!;
    outdeg[v] = w - from;
    s = e;
  }
  return targets.slice(0, w);
}

/**
 * Worker body: opens its own read-only connection, reads one range, answers on its port.
 * The one connection not made by openDatabase: a worker runs this text, not our modules;
 * the reader that starts it has already checked the file.
 */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { sqlitePath, path, lo, hi, table, seq, port, flag, index } = workerData;
const newLinkRuns = ${newLinkRuns.toString()};
const pushLink = ${pushLink.toString()};
const readLinkRuns = ${readLinkRuns.toString()};
try {
  const Database = require(sqlitePath);
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const runs = readLinkRuns(db, lo, hi, table, seq);
  db.close();
  port.postMessage({ runs }, [runs.nodes.buffer, runs.counts.buffer, runs.targets.buffer]);
} catch (err) {
  port.postMessage({ error: String(err && err.stack || err) });
}
Atomics.store(flag, index, 1);
Atomics.notify(flag, index);
`;

/** From this many pages a second thread pays for its start-up (~50 ms). */
const THREADS_MIN_PAGES = 200_000;

/**
 * Reads every link as of the snapshot `seq` into CSR targets, counting each node's out-links
 * into outdeg: on several threads when the crawl is large (SQLite scanning is CPU-bound, so two
 * threads nearly halve the time), each reading a range of fetches. Threads need the database
 * as a file and no open transaction on `db` (a worker's connection would not see it);
 * otherwise, or if a worker fails, everything is read here. Returns the targets and the
 * number of threads that read them.
 */
export function readAllLinks(
  db: Database.Database,
  pageIds: Int32Array,
  table: Int32Array,
  outdeg: Uint32Array,
  seq: number,
  threads?: number,
): { targets: Uint32Array; threads: number } {
  const n = pageIds.length;
  const want = threads ?? (n >= THREADS_MIN_PAGES ? Math.min(4, availableParallelism()) : 1);
  const fileBacked = !db.memory && db.name !== '' && !db.inTransaction;
  if (want > 1 && fileBacked && table.buffer instanceof SharedArrayBuffer) {
    // Links stored without a fetch (seq < 0) go with the first range; the fetches split evenly.
    const bounds = [-Number.MAX_VALUE];
    for (let t = 1; t < want; t++) bounds.push(1 + Math.floor((Math.max(0, seq) * t) / want));
    bounds.push(Number.MAX_VALUE);
    const parts = readOnThreads(db.name, bounds, table, seq);
    if (parts) return { targets: csrFromRuns(parts, outdeg), threads: parts.length };
  }
  return { targets: csrFromRuns([readLinkRuns(db, -Number.MAX_VALUE, Number.MAX_VALUE, table, seq)], outdeg), threads: 1 };
}

function readOnThreads(path: string, bounds: number[], table: Int32Array, seq: number): LinkRuns[] | undefined {
  const ranges = bounds.length - 1;
  const flag = new Int32Array(new SharedArrayBuffer(4 * ranges));
  const ports = [];
  try {
    const sqlitePath = sqliteModulePath(); // the line of better-sqlite3 this Node runs (sqlite.ts)
    for (let index = 0; index < ranges; index++) {
      const { port1, port2 } = new MessageChannel();
      ports.push(port1);
      const workerData = { sqlitePath, path, lo: bounds[index]!, hi: bounds[index + 1]!, table, seq, port: port2, flag, index };
      new Worker(WORKER_SOURCE, { eval: true, workerData, transferList: [port2] }).unref();
    }
  } catch {
    return undefined; // no threads here
  }
  const parts: LinkRuns[] = [];
  let failed = false;
  for (let index = 0; index < ranges; index++) {
    // Ten minutes is far beyond any range's read: a worker that never answers has died.
    if (Atomics.wait(flag, index, 0, 600_000) === 'timed-out') return undefined;
    const reply = receiveMessageOnPort(ports[index]!)?.message as { runs?: LinkRuns; error?: string } | undefined;
    ports[index]!.close();
    if (!reply?.runs) failed = true;
    else parts.push(reply.runs);
  }
  return failed ? undefined : parts;
}
