/**
 * The writer thread of a running crawl (store-writer.ts starts it): its own connection to the
 * crawl file, which runs each write batch the crawl thread hands over (write-log.ts) in one
 * transaction, in the order they come (the rows of single-row INSERTs declared rows statements
 * gathered into multi-row ones: row-groups.ts), and says when each is committed. A batch that fails
 * (the disk is full, the file's size budget is spent) is rolled back, and every batch after it
 * is dropped unrun until the crawl thread says it has given them up too ('reset'): a later
 * batch may depend on the failed one (a fetch recorded for a page inserted there).
 *
 * It takes no lock of its own: the crawl thread holds the file's writer lock (database.ts)
 * for the process, and writes nothing itself while this thread runs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Statement } from 'better-sqlite3';
import Sqlite from './sqlite.js';
import { RowGroups } from './row-groups.js';
import { readWriteLog, releaseBuffer, type SqlValue } from './write-log.js';
import type { WriterInput, WriterMessage, WriterOptions } from './store-writer.js';

const port = parentPort!;
const opts = workerData as WriterOptions;
const db = new Sqlite(opts.path, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
for (const p of opts.pragmas) db.pragma(p);

const sql: string[] = [];
const stmts: Statement[] = [];
/** Rows statements' rows, run as multi-row INSERTs (row-groups.ts). */
const groups = new RowGroups((text) => {
  const stmt = db.prepare(text);
  return (args: SqlValue[]) => stmt.run(...args);
});
let broken = false;

/** One statement of a batch: a rows statement's row waits for its group; any other runs once the rows before it have. */
function apply(id: number, args: SqlValue[]): void {
  if (groups.take(id, args)) return;
  groups.flush();
  (stmts[id] ??= db.prepare(sql[id]!)).run(...args);
}

const send = (m: WriterMessage, transfer: ArrayBuffer[] = []) => port.postMessage(m, transfer);

port.on('message', (m: WriterInput) => {
  if (m.t === 'define') {
    sql[m.id] = m.sql;
    if (m.rows) groups.define(m.id, m.sql);
  } else if (m.t === 'reset') {
    groups.clear();
    broken = false;
  } else if (m.t === 'batch') {
    try {
      if (broken) return send({ t: 'dropped', batch: m.batch });
      db.exec('BEGIN');
      readWriteLog(m.buffer, m.length, apply);
      groups.flush();
      db.exec('COMMIT');
      send({ t: 'committed', batch: m.batch });
    } catch (err) {
      groups.clear();
      try {
        if (db.inTransaction) db.exec('ROLLBACK');
      } catch {
        /* the transaction is already gone */
      }
      broken = true;
      const e = err as { code?: string; message?: string };
      send({ t: 'failed', batch: m.batch, code: e.code ?? null, message: e.message ?? String(err) });
    } finally {
      releaseBuffer(m.buffer);
    }
  } else if (m.t === 'close') {
    db.close();
    port.close();
  }
});

