/**
 * A parallel crawl's link exchange, kept in each worker's crawl database (docs/architecture.md,
 * "The path of a URL that crosses parts"): tables beside the crawl schema, written in the
 * crawl's own write batches so that they commit with the pages they come from.
 *
 * - exchange_outbox: the messages a worker must still publish. Without --exchange-batch one per
 *   (fetched page, remote part), inserted in the batch that stores the page; with it one per
 *   batch, sealed from exchange_held. Deleted once JetStream acknowledged them: a worker killed
 *   between the two publishes them again (JetStream drops the copy by its message id), and one
 *   killed before the commit fetches the page again and writes them again. Only committed rows
 *   are published. So no URL is lost between the commit and the publish.
 * - exchange_held (--exchange-batch): the URLs of one (fetched page, remote part) held for a
 *   batch, committed with the page; a batch is sealed into the outbox from committed rows in one
 *   write batch, its message id named by the ids of the rows it holds (never reused:
 *   AUTOINCREMENT), so a batch republished after a kill carries the same id.
 * - exchange_seen: the message ids a worker took in, so that a redelivered message is counted
 *   once (its URLs are absorbed by the URL-seen test anyway).
 * - exchange_counts: sent to and received from each part, as on the wire (messages, URLs, URL
 *   bytes, bytes) and in the thesis's units before batching (page messages, their URLs and URL
 *   bytes: the prediction's messages and volume), with the time URLs were held for a batch.
 * - exchange_timeline: those counts (messages and bytes on the wire per part and direction) and
 *   the lease traffic (direction 'lease'), as they stood at each second they changed.
 * The merge carries the counts and timelines of every worker.
 */
import type Database from 'better-sqlite3';
import type { PendingRows } from './pending-rows.js';
import { StoreWrites } from './store-writes.js';

export interface OutboxRow {
  id: number;
  msgId: string;
  part: number;
  payload: string;
}

/** URLs of one (page, remote part) held for a batch. */
export interface HeldRow {
  id: number;
  at: number;
  /** JSON: the message's links, as exchange.ts writes them. */
  links: string;
  urls: number;
  urlBytes: number;
}

export interface ExchangeCount {
  /** The worker (part) that counted. */
  worker: number;
  /** The other part. */
  part: number;
  direction: 'sent' | 'received';
  /** On the wire: messages, the URLs they carried, those URLs' bytes, the messages' bytes. */
  messages: number;
  urls: number;
  urlBytes: number;
  wireBytes: number;
  /** The thesis's units before batching: one message per (page, remote part), its URLs and their bytes. */
  pageMessages: number;
  pageUrls: number;
  pageUrlBytes: number;
  /** Sent: the milliseconds the page messages' URLs were held for a batch, summed. */
  heldMs: number;
}

const COUNT_COLUMNS = 'worker, part, direction, messages, urls, url_bytes, wire_bytes, page_messages, page_urls, page_url_bytes, held_ms';
const COUNT_SELECT = `SELECT worker, part, direction, messages, urls, url_bytes AS urlBytes, wire_bytes AS wireBytes, page_messages AS pageMessages,
  page_urls AS pageUrls, page_url_bytes AS pageUrlBytes, held_ms AS heldMs FROM exchange_counts ORDER BY worker, part, direction`;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS exchange_outbox (id INTEGER PRIMARY KEY, msg_id TEXT NOT NULL, part INTEGER NOT NULL, payload TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS exchange_held (
  id INTEGER PRIMARY KEY AUTOINCREMENT, part INTEGER NOT NULL, at INTEGER NOT NULL, links TEXT NOT NULL, urls INTEGER NOT NULL, url_bytes INTEGER NOT NULL
) STRICT;
CREATE TABLE IF NOT EXISTS exchange_seen (msg_id TEXT PRIMARY KEY) STRICT, WITHOUT ROWID;
`;

/** The tables a merged crawl holds too: the counts and the timelines. */
const COUNTS_SCHEMA = `
CREATE TABLE IF NOT EXISTS exchange_counts (
  worker INTEGER NOT NULL, part INTEGER NOT NULL, direction TEXT NOT NULL CHECK (direction IN ('sent', 'received')),
  messages INTEGER NOT NULL, urls INTEGER NOT NULL, url_bytes INTEGER NOT NULL, wire_bytes INTEGER NOT NULL,
  page_messages INTEGER NOT NULL DEFAULT 0, page_urls INTEGER NOT NULL DEFAULT 0, page_url_bytes INTEGER NOT NULL DEFAULT 0,
  held_ms INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (worker, part, direction)
) STRICT;
CREATE TABLE IF NOT EXISTS exchange_timeline (
  worker INTEGER NOT NULL, t REAL NOT NULL, at REAL NOT NULL, part INTEGER NOT NULL,
  direction TEXT NOT NULL CHECK (direction IN ('sent', 'received', 'lease')), messages INTEGER NOT NULL, wire_bytes INTEGER NOT NULL,
  PRIMARY KEY (worker, t, part, direction)
) STRICT;
`;

/**
 * Creates the counts and timeline tables if missing; a part made before the page columns
 * existed gets them, equal to the wire's (it sent every page message alone).
 */
export function createExchangeCounts(db: Database.Database, schema = 'main'): void {
  db.exec(COUNTS_SCHEMA.replace(/EXISTS exchange_/g, `EXISTS ${schema}.exchange_`));
  const cols = db.prepare(`SELECT name FROM pragma_table_info('exchange_counts', '${schema}')`).pluck().all() as string[];
  if (cols.includes('page_messages')) return;
  for (const c of ['page_messages', 'page_urls', 'page_url_bytes', 'held_ms']) {
    db.exec(`ALTER TABLE ${schema}.exchange_counts ADD COLUMN ${c} INTEGER NOT NULL DEFAULT 0`);
  }
  db.exec(`UPDATE ${schema}.exchange_counts SET page_messages = messages, page_urls = urls, page_url_bytes = url_bytes`);
}

export interface LeaseTrafficCount {
  requests: number;
  bytes: number;
}

/** A message id taken in: run at once on this connection (no writer), or in the writer's batch. */
const SEEN_SQL = 'INSERT OR IGNORE INTO exchange_seen(msg_id) VALUES (?)';

/**
 * With a writer thread (store-writer.ts) the writes go to its batches and this connection reads
 * committed rows only, so what the exchange reads back of its newer writes is kept until they
 * commit (pending-rows.ts): message ids taken in (a redelivery within the second is still
 * counted once), outbox rows published (not published again while their delete is on its
 * way), held rows sealed into a batch (not sealed twice), and how many rows are on their way
 * (a worker with a message still to publish is not idle).
 */
export class ExchangeStore {
  private readonly st: Record<string, Database.Statement>;
  private readonly w: Record<'put' | 'done' | 'hold' | 'unhold' | 'seen' | 'count' | 'sampleCounts' | 'sampleLeases', number>;
  private readonly seenSoon: PendingRows<string, true>;
  private readonly publishedSoon: PendingRows<number, true>;
  /** Per part, the last held row sealed in a batch not yet committed. */
  private readonly sealedSoon: PendingRows<number, number>;
  /** Per batch not yet committed: outbox rows and held rows it adds. */
  private readonly addedSoon: PendingRows<number, { outbox: number; held: number }>;
  /** Bumped by every write that changes a count on the wire (what the timeline samples). */
  private version = 0;
  private lastSample = '';

  /** Creates the tables if missing (call outside a write batch, or inside: DDL joins it). */
  constructor(
    private readonly db: Database.Database,
    private readonly worker: number,
    private readonly writes: StoreWrites = new StoreWrites(db),
  ) {
    db.exec(SCHEMA);
    createExchangeCounts(db);
    this.st = {
      take: db.prepare('SELECT id, msg_id AS msgId, part, payload FROM exchange_outbox WHERE id > ? AND id <= ? ORDER BY id LIMIT ?'),
      top: db.prepare('SELECT coalesce(max(id), 0) FROM exchange_outbox').pluck(),
      pending: db.prepare('SELECT count(*) FROM exchange_outbox').pluck(),
      heldCount: db.prepare('SELECT count(*) FROM exchange_held').pluck(),
      heldByPart: db.prepare('SELECT part, count(*) AS n, min(at) AS oldest FROM exchange_held WHERE part = ? AND id > ?'),
      heldUpTo: db.prepare('SELECT count(*) FROM exchange_held WHERE part = ? AND id <= ?').pluck(),
      heldParts: db.prepare('SELECT DISTINCT part FROM exchange_held ORDER BY part').pluck(),
      due: db.prepare('SELECT part FROM exchange_held GROUP BY part HAVING min(at) <= ? ORDER BY part').pluck(),
      held: db.prepare('SELECT id, at, links, urls, url_bytes AS urlBytes FROM exchange_held WHERE part = ? AND id > ? ORDER BY id'),
      claim: db.prepare(SEEN_SQL),
      wasSeen: db.prepare('SELECT 1 FROM exchange_seen WHERE msg_id = ?').pluck(),
      counts: db.prepare(COUNT_SELECT),
    };
    this.w = {
      put: writes.statement('INSERT INTO exchange_outbox(msg_id, part, payload) VALUES (?, ?, ?)'),
      done: writes.statement('DELETE FROM exchange_outbox WHERE id = ?'),
      hold: writes.statement('INSERT INTO exchange_held(part, at, links, urls, url_bytes) VALUES (?, ?, ?, ?, ?)'),
      unhold: writes.statement('DELETE FROM exchange_held WHERE part = ? AND id <= ?'),
      seen: writes.statement(SEEN_SQL),
      count: writes.statement(`INSERT INTO exchange_counts(${COUNT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (worker, part, direction) DO UPDATE SET messages = messages + excluded.messages, urls = urls + excluded.urls,
        url_bytes = url_bytes + excluded.url_bytes, wire_bytes = wire_bytes + excluded.wire_bytes,
        page_messages = page_messages + excluded.page_messages, page_urls = page_urls + excluded.page_urls,
        page_url_bytes = page_url_bytes + excluded.page_url_bytes, held_ms = held_ms + excluded.held_ms`),
      sampleCounts: writes.statement(`INSERT OR REPLACE INTO exchange_timeline(worker, t, at, part, direction, messages, wire_bytes)
        SELECT worker, ?, ?, part, direction, messages, wire_bytes FROM exchange_counts WHERE worker = ?`),
      sampleLeases: writes.statement(`INSERT OR REPLACE INTO exchange_timeline(worker, t, at, part, direction, messages, wire_bytes) VALUES (?, ?, ?, ?, 'lease', ?, ?)`),
    };
    this.seenSoon = writes.pendingRows();
    this.publishedSoon = writes.pendingRows();
    this.sealedSoon = writes.pendingRows();
    this.addedSoon = writes.pendingRows();
  }

  /** The batch a write made now commits with (0: written at once, no writer). */
  get batch(): number {
    return this.writes.writer ? this.writes.batch : 0;
  }

  private count(part: number, direction: 'sent' | 'received', n: readonly number[]): void {
    this.writes.run(this.w.count, [this.worker, part, direction, ...n]);
  }
  private added(outbox: number, held: number): void {
    if (!this.writes.writer) return;
    const a = this.addedSoon.entry(this.writes.batch, this.writes.batch, () => ({ outbox: 0, held: 0 }));
    a.outbox += outbox;
    a.held += held;
  }

  /** A page message published alone (no --exchange-batch), counted as sent (inside the batch that stores its page). */
  send(msgId: string, part: number, payload: string, urls: number, urlBytes: number): void {
    this.writes.run(this.w.put, [msgId, part, payload]);
    this.count(part, 'sent', [1, urls, urlBytes, Buffer.byteLength(payload), 1, urls, urlBytes, 0]);
    this.added(1, 0);
    this.version++;
  }

  /** A page message's URLs held for a batch to `part` (--exchange-batch), counted in the thesis's units. */
  hold(part: number, at: number, links: string, urls: number, urlBytes: number): void {
    this.writes.run(this.w.hold, [part, at, links, urls, urlBytes]);
    this.count(part, 'sent', [0, 0, 0, 0, 1, urls, urlBytes, 0]);
    this.added(0, 1);
  }

  /** Parts whose oldest held URLs (not yet sealed) were held at `before` or earlier. */
  dueParts(before: number): number[] {
    if (this.sealedSoon.size === 0) return this.st.due!.all(before) as number[];
    return (this.st.heldParts!.all() as number[]).filter((part) => {
      const r = this.st.heldByPart!.get(part, this.sealedSoon.get(part) ?? 0) as { n: number; oldest: number | null };
      return r.n > 0 && r.oldest !== null && r.oldest <= before;
    });
  }

  heldRows(part: number): HeldRow[] {
    return this.st.held!.all(part, this.sealedSoon.get(part) ?? 0) as HeldRow[];
  }

  /** The held rows of `part` up to `lastId` sealed into one message to publish, counted as sent on the wire. */
  seal(part: number, lastId: number, msgId: string, payload: string, urls: number, urlBytes: number, heldMs: number): void {
    const run = () => {
      this.writes.run(this.w.put, [msgId, part, payload]);
      this.writes.run(this.w.unhold, [part, lastId]);
      this.count(part, 'sent', [1, urls, urlBytes, Buffer.byteLength(payload), 0, 0, 0, heldMs]);
    };
    // In the crawler's open write batch; outside one (the run has ended) its own transaction: all three or none.
    if (this.writes.writer) {
      run();
      this.sealedSoon.set(part, lastId, this.writes.batch);
      this.added(1, 0);
    } else if (this.db.inTransaction) run();
    else this.db.transaction(run)();
    this.version++;
  }

  /** Held rows not yet sealed, those on their way to the file included. */
  heldSize(): number {
    let n = this.st.heldCount!.get() as number;
    if (this.sealedSoon.size > 0) {
      for (const part of this.st.heldParts!.all() as number[]) {
        const last = this.sealedSoon.get(part);
        if (last !== undefined) n -= this.st.heldUpTo!.get(part, last) as number;
      }
    }
    for (const a of this.addedSoon.values()) n += a.held;
    return n;
  }

  /** The last committed outbox row's id: every row up to it may be published. */
  outboxTop(): number {
    return this.st.top!.get() as number;
  }

  /** Outbox rows after `afterId` and at most `upTo`, oldest first (not those already published). */
  outbox(afterId: number, upTo: number, limit: number): OutboxRow[] {
    for (let after = afterId; ; ) {
      const rows = this.st.take!.all(after, upTo, limit) as OutboxRow[];
      if (rows.length === 0 || this.publishedSoon.size === 0) return rows;
      const left = rows.filter((r) => !this.publishedSoon.get(r.id));
      if (left.length > 0) return left;
      after = rows[rows.length - 1]!.id;
    }
  }

  /** JetStream acknowledged the message: it leaves the outbox with the next commit. */
  published(id: number): void {
    this.writes.run(this.w.done, [id]);
    if (this.writes.writer) this.publishedSoon.set(id, true, this.writes.batch);
  }

  /** Messages to publish, those on their way to the file included. */
  outboxSize(): number {
    let n = (this.st.pending!.get() as number) - this.publishedSoon.size;
    for (const a of this.addedSoon.values()) n += a.outbox;
    return Math.max(0, n);
  }

  /** A message outside the thesis's count (a shorter path's links, engine/discovery.ts): published as the others are, counted apart by the caller. */
  sendApart(msgId: string, part: number, payload: string): void {
    this.writes.run(this.w.put, [msgId, part, payload]);
    this.added(1, 0);
  }

  /** Such a message taken in: false when it was taken in before (a redelivery). */
  receiveApart(msgId: string): boolean {
    return this.claim(msgId);
  }

  /**
   * A message taken in: false when it was taken in before (a redelivery), else counted; `pages`
   * and the page figures are the batch's (a page message alone: 1 and its own).
   */
  receive(msgId: string, from: number, wire: { urls: number; urlBytes: number; bytes: number }, page: { messages: number; urls: number; urlBytes: number }): boolean {
    if (!this.claim(msgId)) return false;
    this.count(from, 'received', [1, wire.urls, wire.urlBytes, wire.bytes, page.messages, page.urls, page.urlBytes, 0]);
    this.version++;
    return true;
  }

  /** Records the message id as taken in; false when it was before. */
  private claim(msgId: string): boolean {
    if (!this.writes.writer) return this.st.claim!.run(msgId).changes > 0;
    if (this.seenSoon.get(msgId) || this.st.wasSeen!.get(msgId) !== undefined) return false;
    this.writes.run(this.w.seen, [msgId]);
    this.seenSoon.set(msgId, true, this.writes.batch);
    return true;
  }

  /** The timeline's sample at running time t (s): the counts per part and the lease traffic, if they changed since the last. */
  sample(t: number, at: number, leases: LeaseTrafficCount | null): void {
    const sig = `${this.version}|${leases?.requests ?? ''}`;
    if (sig === this.lastSample) return;
    this.lastSample = sig;
    const tt = Math.round(t * 10) / 10;
    this.writes.run(this.w.sampleCounts, [tt, at, this.worker]);
    if (leases) this.writes.run(this.w.sampleLeases, [this.worker, tt, at, this.worker, leases.requests, leases.bytes]);
  }

  /** The counts as committed. */
  counts(): ExchangeCount[] {
    return this.st.counts!.all() as ExchangeCount[];
  }
}

/** The exchange counts a crawl holds (a worker's own, or every worker's in a merged crawl); none if it has no table. */
export function readExchangeCounts(db: Database.Database): ExchangeCount[] {
  const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'exchange_counts'").get();
  if (!has) return [];
  return db.prepare(COUNT_SELECT).all() as ExchangeCount[];
}

/** Copies the counts and timeline of the attached part `schema` into main (a merge); a part made before the page columns gets them. */
export function copyExchangeCounts(db: Database.Database, schema: string): void {
  createExchangeCounts(db);
  const has = (t: string) => db.prepare(`SELECT 1 FROM ${schema}.sqlite_master WHERE type = 'table' AND name = ?`).get(t);
  if (has('exchange_counts')) {
    const cols = db.prepare(`SELECT name FROM pragma_table_info('exchange_counts', '${schema}')`).pluck().all() as string[];
    const page = cols.includes('page_messages') ? 'page_messages, page_urls, page_url_bytes, held_ms' : 'messages, urls, url_bytes, 0';
    db.exec(`INSERT OR REPLACE INTO main.exchange_counts(${COUNT_COLUMNS})
      SELECT worker, part, direction, messages, urls, url_bytes, wire_bytes, ${page} FROM ${schema}.exchange_counts`);
  }
  if (has('exchange_timeline')) db.exec(`INSERT OR REPLACE INTO main.exchange_timeline SELECT * FROM ${schema}.exchange_timeline`);
}
