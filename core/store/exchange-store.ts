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

export class ExchangeStore {
  private readonly st: Record<string, Database.Statement>;
  private lastSample = '';

  /** Creates the tables if missing (call outside a write batch, or inside: DDL joins it). */
  constructor(
    private readonly db: Database.Database,
    private readonly worker: number,
  ) {
    db.exec(SCHEMA);
    createExchangeCounts(db);
    this.st = {
      put: db.prepare('INSERT INTO exchange_outbox(msg_id, part, payload) VALUES (?, ?, ?)'),
      take: db.prepare('SELECT id, msg_id AS msgId, part, payload FROM exchange_outbox WHERE id > ? AND id <= ? ORDER BY id LIMIT ?'),
      top: db.prepare('SELECT coalesce(max(id), 0) FROM exchange_outbox').pluck(),
      done: db.prepare('DELETE FROM exchange_outbox WHERE id = ?'),
      pending: db.prepare('SELECT count(*) FROM exchange_outbox').pluck(),
      hold: db.prepare('INSERT INTO exchange_held(part, at, links, urls, url_bytes) VALUES (?, ?, ?, ?, ?)'),
      heldCount: db.prepare('SELECT count(*) FROM exchange_held').pluck(),
      due: db.prepare('SELECT part FROM exchange_held GROUP BY part HAVING min(at) <= ? ORDER BY part').pluck(),
      held: db.prepare('SELECT id, at, links, urls, url_bytes AS urlBytes FROM exchange_held WHERE part = ? ORDER BY id'),
      unhold: db.prepare('DELETE FROM exchange_held WHERE part = ? AND id <= ?'),
      seen: db.prepare('INSERT OR IGNORE INTO exchange_seen(msg_id) VALUES (?)'),
      count: db.prepare(`INSERT INTO exchange_counts(${COUNT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (worker, part, direction) DO UPDATE SET messages = messages + excluded.messages, urls = urls + excluded.urls,
        url_bytes = url_bytes + excluded.url_bytes, wire_bytes = wire_bytes + excluded.wire_bytes,
        page_messages = page_messages + excluded.page_messages, page_urls = page_urls + excluded.page_urls,
        page_url_bytes = page_url_bytes + excluded.page_url_bytes, held_ms = held_ms + excluded.held_ms`),
      counts: db.prepare(COUNT_SELECT),
      sampleCounts: db.prepare(`INSERT OR REPLACE INTO exchange_timeline(worker, t, at, part, direction, messages, wire_bytes)
        SELECT worker, ?, ?, part, direction, messages, wire_bytes FROM exchange_counts WHERE worker = ?`),
      sampleLeases: db.prepare(`INSERT OR REPLACE INTO exchange_timeline(worker, t, at, part, direction, messages, wire_bytes) VALUES (?, ?, ?, ?, 'lease', ?, ?)`),
      signature: db.prepare('SELECT group_concat(messages || \',\' || wire_bytes, \';\') FROM exchange_counts WHERE worker = ?').pluck(),
    };
  }

  /** A page message published alone (no --exchange-batch), counted as sent (inside the batch that stores its page). */
  send(msgId: string, part: number, payload: string, urls: number, urlBytes: number): void {
    this.st.put!.run(msgId, part, payload);
    this.st.count!.run(this.worker, part, 'sent', 1, urls, urlBytes, Buffer.byteLength(payload), 1, urls, urlBytes, 0);
  }

  /** A page message's URLs held for a batch to `part` (--exchange-batch), counted in the thesis's units. */
  hold(part: number, at: number, links: string, urls: number, urlBytes: number): void {
    this.st.hold!.run(part, at, links, urls, urlBytes);
    this.st.count!.run(this.worker, part, 'sent', 0, 0, 0, 0, 1, urls, urlBytes, 0);
  }

  /** Parts whose oldest held URLs were held at `before` or earlier. */
  dueParts(before: number): number[] {
    return this.st.due!.all(before) as number[];
  }

  heldRows(part: number): HeldRow[] {
    return this.st.held!.all(part) as HeldRow[];
  }

  /** The held rows of `part` up to `lastId` sealed into one message to publish, counted as sent on the wire. */
  seal(part: number, lastId: number, msgId: string, payload: string, urls: number, urlBytes: number, heldMs: number): void {
    const run = () => {
      this.st.put!.run(msgId, part, payload);
      this.st.unhold!.run(part, lastId);
      this.st.count!.run(this.worker, part, 'sent', 1, urls, urlBytes, Buffer.byteLength(payload), 0, 0, 0, heldMs);
    };
    // In the crawler's open write batch; outside one (the run has ended) its own transaction: all three or none.
    if (this.db.inTransaction) run();
    else this.db.transaction(run)();
  }

  heldSize(): number {
    return this.st.heldCount!.get() as number;
  }

  /** The last outbox row's id: called right after a commit, every row up to it is committed. */
  outboxTop(): number {
    return this.st.top!.get() as number;
  }

  /** Outbox rows after `afterId` and at most `upTo`, oldest first. */
  outbox(afterId: number, upTo: number, limit: number): OutboxRow[] {
    return this.st.take!.all(afterId, upTo, limit) as OutboxRow[];
  }

  /** JetStream acknowledged the message: it leaves the outbox with the next commit. */
  published(id: number): void {
    this.st.done!.run(id);
  }

  outboxSize(): number {
    return this.st.pending!.get() as number;
  }

  /** A message outside the thesis's count (a shorter path's links, engine/discovery.ts): published as the others are, counted apart by the caller. */
  sendApart(msgId: string, part: number, payload: string): void {
    this.st.put!.run(msgId, part, payload);
  }

  /** Such a message taken in: false when it was taken in before (a redelivery). */
  receiveApart(msgId: string): boolean {
    return this.st.seen!.run(msgId).changes > 0;
  }

  /**
   * A message taken in: false when it was taken in before (a redelivery), else counted; `pages`
   * and the page figures are the batch's (a page message alone: 1 and its own).
   */
  receive(msgId: string, from: number, wire: { urls: number; urlBytes: number; bytes: number }, page: { messages: number; urls: number; urlBytes: number }): boolean {
    if (this.st.seen!.run(msgId).changes === 0) return false;
    this.st.count!.run(this.worker, from, 'received', 1, wire.urls, wire.urlBytes, wire.bytes, page.messages, page.urls, page.urlBytes, 0);
    return true;
  }

  /** The timeline's sample at running time t (s): the counts per part and the lease traffic, if they changed since the last. */
  sample(t: number, at: number, leases: LeaseTrafficCount | null): void {
    const sig = `${this.st.signature!.get(this.worker) ?? ''}|${leases?.requests ?? ''}`;
    if (sig === this.lastSample) return;
    this.lastSample = sig;
    const tt = Math.round(t * 10) / 10;
    this.st.sampleCounts!.run(tt, at, this.worker);
    if (leases) this.st.sampleLeases!.run(this.worker, tt, at, this.worker, leases.requests, leases.bytes);
  }

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
