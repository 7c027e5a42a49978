/**
 * A parallel crawl's link exchange, kept in each worker's crawl database (docs/architecture.md,
 * "The path of a URL that crosses parts"): three tables beside the crawl schema, written in
 * the crawl's own write batches so that they commit with the pages they come from.
 *
 * - exchange_outbox: the messages a worker must still publish, one per (fetched page, remote
 *   part). Inserted in the batch that stores the page, deleted once JetStream acknowledged
 *   them: a worker killed between the two publishes them again (JetStream drops the copy by
 *   its message id), and one killed before the commit fetches the page again and writes them
 *   again. So no URL is lost between the commit and the publish.
 * - exchange_seen: the message ids a worker took in, so that a redelivered message is counted
 *   once (its URLs are absorbed by the URL-seen test anyway).
 * - exchange_counts: messages, URLs, URL bytes (the thesis's volume) and bytes on the wire, sent
 *   to and received from each part. The merge carries the rows of every worker.
 */
import type Database from 'better-sqlite3';

export interface OutboxRow {
  id: number;
  msgId: string;
  part: number;
  payload: string;
}

export interface ExchangeCount {
  /** The worker (part) that counted. */
  worker: number;
  /** The other part. */
  part: number;
  direction: 'sent' | 'received';
  messages: number;
  urls: number;
  urlBytes: number;
  wireBytes: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS exchange_outbox (id INTEGER PRIMARY KEY, msg_id TEXT NOT NULL, part INTEGER NOT NULL, payload TEXT NOT NULL) STRICT;
CREATE TABLE IF NOT EXISTS exchange_seen (msg_id TEXT PRIMARY KEY) STRICT, WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS exchange_counts (
  worker INTEGER NOT NULL, part INTEGER NOT NULL, direction TEXT NOT NULL CHECK (direction IN ('sent', 'received')),
  messages INTEGER NOT NULL, urls INTEGER NOT NULL, url_bytes INTEGER NOT NULL, wire_bytes INTEGER NOT NULL,
  PRIMARY KEY (worker, part, direction)
) STRICT;
`;

export class ExchangeStore {
  private readonly st: Record<string, Database.Statement>;

  /** Creates the tables if missing (call outside a write batch, or inside: DDL joins it). */
  constructor(
    private readonly db: Database.Database,
    private readonly worker: number,
  ) {
    db.exec(SCHEMA);
    this.st = {
      put: db.prepare('INSERT INTO exchange_outbox(msg_id, part, payload) VALUES (?, ?, ?)'),
      take: db.prepare('SELECT id, msg_id AS msgId, part, payload FROM exchange_outbox WHERE id > ? ORDER BY id LIMIT ?'),
      done: db.prepare('DELETE FROM exchange_outbox WHERE id = ?'),
      pending: db.prepare('SELECT count(*) FROM exchange_outbox').pluck(),
      seen: db.prepare('INSERT OR IGNORE INTO exchange_seen(msg_id) VALUES (?)'),
      count: db.prepare(`INSERT INTO exchange_counts(worker, part, direction, messages, urls, url_bytes, wire_bytes) VALUES (?, ?, ?, 1, ?, ?, ?)
        ON CONFLICT (worker, part, direction) DO UPDATE SET messages = messages + 1, urls = urls + excluded.urls,
        url_bytes = url_bytes + excluded.url_bytes, wire_bytes = wire_bytes + excluded.wire_bytes`),
      counts: db.prepare('SELECT worker, part, direction, messages, urls, url_bytes AS urlBytes, wire_bytes AS wireBytes FROM exchange_counts ORDER BY worker, part, direction'),
    };
  }

  /** A message to publish, counted as sent (inside the batch that stores its page). */
  send(msgId: string, part: number, payload: string, urls: number, urlBytes: number): void {
    this.st.put!.run(msgId, part, payload);
    this.st.count!.run(this.worker, part, 'sent', urls, urlBytes, Buffer.byteLength(payload));
  }

  /** Outbox rows after `afterId`, oldest first. */
  outbox(afterId: number, limit: number): OutboxRow[] {
    return this.st.take!.all(afterId, limit) as OutboxRow[];
  }

  /** JetStream acknowledged the message: it leaves the outbox with the next commit. */
  published(id: number): void {
    this.st.done!.run(id);
  }

  outboxSize(): number {
    return this.st.pending!.get() as number;
  }

  /** A message taken in: false when it was taken in before (a redelivery), else counted. */
  receive(msgId: string, from: number, urls: number, urlBytes: number, wireBytes: number): boolean {
    if (this.st.seen!.run(msgId).changes === 0) return false;
    this.st.count!.run(this.worker, from, 'received', urls, urlBytes, wireBytes);
    return true;
  }

  counts(): ExchangeCount[] {
    return this.st.counts!.all() as ExchangeCount[];
  }
}

/** The exchange counts a crawl holds (a worker's own, or every worker's in a merged crawl); none if it has no table. */
export function readExchangeCounts(db: Database.Database): ExchangeCount[] {
  const has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'exchange_counts'").get();
  if (!has) return [];
  return db.prepare('SELECT worker, part, direction, messages, urls, url_bytes AS urlBytes, wire_bytes AS wireBytes FROM exchange_counts ORDER BY worker, part, direction').all() as ExchangeCount[];
}
