import { RobotsRules } from '../robots/robots.js';
import type { CrawlStore, RobotsRow } from '../store/crawl-store.js';

/** RFC 9309 §2.4: a cached robots.txt should not be used for more than 24 hours. */
const ROBOTS_TTL_MS = 24 * 3600 * 1000;

export type RobotsStatus =
  | { kind: 'known'; rules: RobotsRules }
  | { kind: 'unknown' }
  | { kind: 'unavailable'; attempts: number };

/**
 * robots.txt per origin (scheme + host + port), parsed once and kept in memory, with the
 * raw body stored in the crawl database so that a resumed crawl obeys the same rules
 * without asking again.
 */
export class RobotsCache {
  private readonly rules = new Map<string, { rules: RobotsRules; fetchedAt: number }>();

  constructor(
    private readonly store: CrawlStore,
    private readonly userAgent: string,
  ) {}

  status(origin: string, now = Date.now()): RobotsStatus {
    const mem = this.rules.get(origin);
    if (mem && now - mem.fetchedAt < ROBOTS_TTL_MS) return { kind: 'known', rules: mem.rules };
    const row = this.store.getRobots(origin);
    if (!row) return { kind: 'unknown' };
    if (row.state === 'unavailable') return { kind: 'unavailable', attempts: row.attempts };
    if (now - row.fetched_at >= ROBOTS_TTL_MS) return { kind: 'unknown' };
    const rules = row.state === 'allow-all' ? RobotsRules.allowAll() : RobotsRules.parse(`${origin}/robots.txt`, row.body ?? '', this.userAgent);
    this.rules.set(origin, { rules, fetchedAt: row.fetched_at });
    return { kind: 'known', rules };
  }

  /** Stores the outcome of fetching robots.txt. `body` null with a 4xx means allow all. */
  record(origin: string, siteId: number, outcome: { status: number | null; body: string | null; unavailable: boolean }, now = Date.now()): RobotsStatus {
    const previous = this.store.getRobots(origin);
    const row: RobotsRow = {
      origin,
      site_id: siteId,
      state: outcome.unavailable ? 'unavailable' : outcome.body === null ? 'allow-all' : 'rules',
      http_status: outcome.status,
      body: outcome.body,
      fetched_at: now,
      attempts: outcome.unavailable ? (previous?.state === 'unavailable' ? previous.attempts : 0) + 1 : 0,
    };
    this.store.putRobots(row);
    this.rules.delete(origin);
    return this.status(origin, now);
  }
}
