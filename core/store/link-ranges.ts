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
 * Reads the links whose src lies in [lo, hi) as CSR pieces: counts out-links per source
 * node into outdeg (nodes via `table`, page id -> node or -1; links to or from other ids
 * and self-links are dropped) and returns the target nodes in (src, dst) order.
 *
 * As of the snapshot `seq` (a fetch sequence number): a page's links are stored with its
 * fetch, so the links of a page fetched after it are left out. Each range is read by one
 * statement (its own short read transaction, never one for the whole read, which would stop
 * a running crawl's WAL from being checkpointed); the pages fetched after `seq` are asked
 * after the range was read, so a page fetched in between is excluded too.
 *
 * Why like this: better-sqlite3 crosses from C++ to JS once per row (~0.8 s per million
 * rows), so SQLite instead concatenates a range of rows into two comma-separated strings
 * (group_concat over one scan, so src and dst stay aligned), parsed here in lockstep.
 * Ranges adapt to hold 0.5-4 million rows. The links table is WITHOUT ROWID, so the scan
 * is in (src, dst) order; with a monotone remap the targets come grouped by source and
 * sorted, and (src, dst) is unique by the primary key.
 *
 * The function refers to nothing outside itself: worker threads receive its source text.
 */
export function readLinkRange(db: Database.Database, lo: number, hi: number, table: Int32Array, outdeg: Uint32Array, seq: number): Uint32Array {
  const first = db.prepare('SELECT min(src) FROM links WHERE src >= ? AND src < ?').pluck();
  // `+id`: walk the fetch_seq index (the few pages fetched after the snapshot), not the id range.
  const late = db.prepare('SELECT id FROM pages WHERE fetch_seq > ? AND +id >= ? AND +id < ?').pluck();
  // The CAST matters: better-sqlite3 binds JS numbers as REAL, and src - 1.0 prints "1.0".
  const read = db
    .prepare('SELECT count(*), group_concat(src - CAST(? AS INTEGER)), group_concat(dst) FROM links WHERE src >= ? AND src < ?')
    .raw();
  const maxId = table.length - 1;
  let targets = new Uint32Array(1 << 16);
  let m = 0;
  let prevA = -1;
  let prevB = -1;
  let width = 1 << 16;
  let start = first.get(lo, hi) as number | null;
  while (start !== null) {
    const end = Math.min(start + width, hi);
    const [count, srcText, dstText] = read.get(start, start, end) as [number, string | null, string | null];
    const lateIds = count > 0 ? (late.all(seq, start, end) as number[]) : [];
    const skip = lateIds.length > 0 ? new Set(lateIds) : null;
    if (count > 0) {
      if (m + count > targets.length) {
        const grown = new Uint32Array(Math.max(m + count, targets.length * 2));
        grown.set(targets.subarray(0, m));
        targets = grown;
      }
      const S = srcText!;
      const D = dstText!;
      let i = 0;
      let j = 0;
      for (let row = 0; row < count; row++) {
        let s = 0;
        let c = S.charCodeAt(i++);
        for (; c >= 48; c = S.charCodeAt(i++)) s = s * 10 + (c - 48); // stops at ',' or the end (NaN)
        let t = 0;
        let negative = false;
        c = D.charCodeAt(j++);
        if (c === 45) (negative = true), (c = D.charCodeAt(j++));
        for (; c >= 48; c = D.charCodeAt(j++)) t = t * 10 + (c - 48);
        s += start;
        if (skip !== null && skip.has(s)) continue;
        const a = s >= 0 && s <= maxId ? table[s]! : -1;
        const b = !negative && t <= maxId ? table[t]! : -1;
        if (a < 0 || b < 0 || a === b) continue;
        if (a < prevA || (a === prevA && b <= prevB)) throw new Error('links not in (src, dst) order or not unique');
        targets[m++] = b;
        outdeg[a]!++;
        prevA = a;
        prevB = b;
      }
      if (i !== S.length + 1 || j !== D.length + 1) throw new Error(`links range at ${start}: rows and text disagree`);
    }
    if (count > 4_000_000 && width > 1) width = Math.max(1, width >> 1);
    else if (count < 500_000 && width < 2 ** 40) width *= 2;
    start = end < hi ? (first.get(end, hi) as number | null) : null;
  }
  return targets.slice(0, m);
}

/**
 * Worker body: opens its own read-only connection, reads one range, answers on its port.
 * The one connection not made by openDatabase: a worker runs this text, not our modules;
 * the reader that starts it has already checked the file.
 */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { sqlitePath, path, lo, hi, table, outdeg, seq, port, flag, index } = workerData;
const readLinkRange = ${readLinkRange.toString()};
try {
  const Database = require(sqlitePath);
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const targets = readLinkRange(db, lo, hi, table, outdeg, seq);
  db.close();
  port.postMessage({ targets }, [targets.buffer]);
} catch (err) {
  port.postMessage({ error: String(err && err.stack || err) });
}
Atomics.store(flag, index, 1);
Atomics.notify(flag, index);
`;

/** From this many pages a second thread pays for its start-up (~50 ms). */
const THREADS_MIN_PAGES = 200_000;

/**
 * Reads every link into CSR pieces, on several threads when the crawl is large (SQLite
 * scanning is CPU-bound, so two threads nearly halve the time). Threads need the database
 * as a file and no open transaction on `db` (a worker's connection would not see it);
 * otherwise, or if a worker fails, everything is read here. Ranges split the pages evenly.
 * `seq`: the snapshot's fetch sequence number (see readLinkRange).
 */
export function readAllLinks(db: Database.Database, pageIds: Int32Array, table: Int32Array, outdeg: Uint32Array, seq: number, threads?: number): Uint32Array[] {
  const n = pageIds.length;
  const want = threads ?? (n >= THREADS_MIN_PAGES ? Math.min(4, availableParallelism()) : 1);
  const fileBacked = !db.memory && db.name !== '' && !db.inTransaction;
  const bounds = [-Infinity];
  for (let t = 1; t < want; t++) bounds.push(pageIds[Math.floor((n * t) / want)]!);
  bounds.push(Infinity);
  if (want > 1 && fileBacked && n >= want && table.buffer instanceof SharedArrayBuffer && outdeg.buffer instanceof SharedArrayBuffer) {
    const parts = readOnThreads(db.name, bounds, table, outdeg, seq);
    if (parts) return parts;
    outdeg.fill(0); // a failed attempt may have counted part of the links
  }
  return [readLinkRange(db, -Number.MAX_VALUE, Number.MAX_VALUE, table, outdeg, seq)];
}

function readOnThreads(path: string, bounds: number[], table: Int32Array, outdeg: Uint32Array, seq: number): Uint32Array[] | undefined {
  const ranges = bounds.length - 1;
  const flag = new Int32Array(new SharedArrayBuffer(4 * ranges));
  const ports = [];
  try {
    const sqlitePath = sqliteModulePath(); // the line of better-sqlite3 this Node runs (sqlite.ts)
    for (let index = 0; index < ranges; index++) {
      const { port1, port2 } = new MessageChannel();
      ports.push(port1);
      const lo = Math.max(bounds[index]!, -Number.MAX_VALUE);
      const hi = Math.min(bounds[index + 1]!, Number.MAX_VALUE);
      const workerData = { sqlitePath, path, lo, hi, table, outdeg, seq, port: port2, flag, index };
      new Worker(WORKER_SOURCE, { eval: true, workerData, transferList: [port2] }).unref();
    }
  } catch {
    return undefined; // no threads here
  }
  const parts: Uint32Array[] = [];
  let failed = false;
  for (let index = 0; index < ranges; index++) {
    // Ten minutes is far beyond any range's read: a worker that never answers has died.
    if (Atomics.wait(flag, index, 0, 600_000) === 'timed-out') return undefined;
    const reply = receiveMessageOnPort(ports[index]!)?.message as { targets?: Uint32Array; error?: string } | undefined;
    ports[index]!.close();
    if (!reply?.targets) failed = true;
    else parts.push(reply.targets);
  }
  return failed ? undefined : parts;
}
