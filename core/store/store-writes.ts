import type { Statement } from 'better-sqlite3';
import { Numbering } from '../numbering.js';
import type { Db } from './database.js';
import { PendingRows, type Settles } from './pending-rows.js';
import { rowsShape } from './row-groups.js';
import type { StoreWriter } from './store-writer.js';
import type { SqlValue } from './write-log.js';

/**
 * Where a crawl store's writes go: run at once on the store's own connection (direct: a crawl
 * that is not running, a test, bench/frontier), or, while a crawl runs with a writer thread,
 * written into the writer's open batch. Statements are named once by their SQL and keep their
 * number in both modes, so a store switches between them without preparing anything again;
 * the writer is told each statement's SQL before the first batch that runs it.
 */
export class StoreWrites {
  private readonly sql = new Numbering();
  /** Statements declared rows statements (row-groups.ts), by number. */
  private readonly rows = new Set<number>();
  private readonly direct: Array<Statement | undefined> = [];
  private to: StoreWriter | null = null;
  /** What the stores keep of writes not yet committed (pending-rows.ts). */
  private readonly pending: Settles[] = [];
  private readonly onCommitted = (batch: number) => {
    for (const p of this.pending) p.settle(batch);
  };

  constructor(private readonly db: Db) {}

  /** The number of the statement with this SQL (the same number each time it is asked). */
  statement(sql: string): number {
    return this.sql.of(sql);
  }
  /**
   * The number of a single-row INSERT that a writer thread may run with other rows of its
   * statement as one multi-row INSERT: only for inserts no other rows statement's rows depend on
   * (row-groups.ts says what may move). Run on the store's connection, it runs at once as any other.
   */
  rowsStatement(sql: string): number {
    rowsShape(sql);
    const id = this.sql.of(sql);
    this.rows.add(id);
    return id;
  }

  run(id: number, args: readonly SqlValue[]): void {
    const w = this.to;
    if (w === null) {
      (this.direct[id] ??= this.db.prepare(this.sql.names[id]!)).run(...args);
      return;
    }
    while (w.definedCount <= id) w.define(w.definedCount, this.sql.names[w.definedCount]!, this.rows.has(w.definedCount));
    w.run(id, args);
  }

  /** The writer that takes the writes now, or null: they run on the store's connection. */
  get writer(): StoreWriter | null {
    return this.to;
  }

  /** The open batch's number (with a writer): writes made now commit with it. */
  get batch(): number {
    return this.to!.openBatch;
  }

  /** From now on writes go to `writer` (or, with null, run on the store's connection again). */
  use(writer: StoreWriter | null): void {
    this.to?.off('committed', this.onCommitted);
    this.clearPending();
    this.to = writer;
    writer?.on('committed', this.onCommitted);
  }

  /** Rows a store keeps of its writes until they commit, settled as batches do. */
  pendingRows<K, V>(): PendingRows<K, V> {
    return this.track(new PendingRows<K, V>());
  }
  track<T extends Settles>(p: T): T {
    this.pending.push(p);
    return p;
  }
  /** Every batch not committed was given up. */
  clearPending(): void {
    for (const p of this.pending) p.clear();
  }
}
