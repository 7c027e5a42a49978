/**
 * The crawl's timeline (schema 4): the stats sample written about once a second inside the
 * crawler's write batch, and read back, evenly thinned to what a chart can show, for a
 * reopened crawl, a reloaded window or a comparison of two crawls.
 *
 * Bounded for week-long crawls: when the table passes MAX_SAMPLES, every second sample of
 * its older half is deleted, so recent history stays at one-second resolution and older
 * history gets sparser (a week at 1/s is 600,000 samples; the table stays under 20,000).
 */
import type { Db } from './database.js';
import { StoreWrites } from './store-writes.js';
import type { TimelinePoint } from './timeline-point.js';

/** One sample (the browser-safe type of timeline-point.ts). */
export type TimelineSample = TimelinePoint;

export const MAX_SAMPLES = 20_000;
/** Check the bound every this many samples (a count over 20,000 rows is cheap, not free). */
const THIN_EVERY = 1000;

/**
 * Writes the samples through the crawl store's writes (store-writes.ts): on the store's
 * connection, or, while a crawl runs with a writer thread, in the writer's batches; so the
 * thinning is one statement that reads and deletes on the writer's side.
 */
export class TimelineWriter {
  private readonly out: StoreWrites;
  private readonly insert: number;
  private readonly thinning: number;
  private sinceCheck = 0;

  constructor(target: StoreWrites | Db) {
    this.out = target instanceof StoreWrites ? target : new StoreWrites(target);
    this.insert = this.out.statement(
      `INSERT OR REPLACE INTO timeline (t, at, pages, bytes, pages_per_s, bytes_per_s, open_conns, r, sites_pending, queued, errors, pagerank)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // Every second sample of the older half (by t), when the table holds more than ?.
    this.thinning = this.out.statement(
      `DELETE FROM timeline WHERE (SELECT count(*) FROM timeline) > ? AND t IN (
         SELECT t FROM (SELECT t, row_number() OVER (ORDER BY t) AS n FROM timeline ORDER BY t LIMIT (SELECT count(*) FROM timeline) / 2)
         WHERE n % 2 = 0)`,
    );
  }

  /** Appends a sample to the open write batch (the crawler commits it with the rest). */
  append(s: TimelineSample): void {
    this.out.run(this.insert, [s.t, s.at, s.pages, s.bytes, s.pagesPerSecond, s.bytesPerSecond, s.openConnections, s.r, s.sitesWithPending, s.queued, s.errors, s.pagerankEstimate]);
    if (++this.sinceCheck >= THIN_EVERY) {
      this.sinceCheck = 0;
      this.thin(MAX_SAMPLES);
    }
  }

  /** Drops every second sample of the older half when the table holds more than `max`. */
  thin(max: number): void {
    this.out.run(this.thinning, [max]);
  }
}

/** A timeline row as stored (a worker's part file is read with it too: part-file.ts). */
export interface TimelineRow {
  t: number;
  at: number;
  pages: number;
  bytes: number;
  pages_per_s: number;
  bytes_per_s: number;
  open_conns: number;
  r: number;
  sites_pending: number;
  queued: number;
  errors: number;
  pagerank: number | null;
}

/**
 * The stored timeline, at most `maxPoints` samples evenly spread over it (always the first and
 * the last), or null for a crawl made before schema 4 (it has none).
 */
export function readTimeline(db: Db, maxPoints = 2000): TimelineSample[] | null {
  const has = db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'timeline'").pluck().get() as number;
  if (has === 0) return null;
  const n = db.prepare('SELECT count(*) FROM timeline').pluck().get() as number;
  const step = Math.max(1, Math.ceil(n / Math.max(2, maxPoints)));
  const out: TimelineSample[] = [];
  let i = 0;
  let last: TimelineRow | null = null;
  for (const r of db.prepare('SELECT * FROM timeline ORDER BY t').iterate() as Iterable<TimelineRow>) {
    if (i++ % step === 0) out.push(sample(r));
    last = r;
  }
  if (last && out[out.length - 1]?.t !== last.t) out.push(sample(last));
  return out;
}

function sample(r: TimelineRow): TimelineSample {
  return {
    t: r.t,
    at: r.at,
    pages: r.pages,
    bytes: r.bytes,
    pagesPerSecond: r.pages_per_s,
    bytesPerSecond: r.bytes_per_s,
    openConnections: r.open_conns,
    r: r.r,
    sitesWithPending: r.sites_pending,
    queued: r.queued,
    errors: r.errors,
    pagerankEstimate: r.pagerank,
  };
}
