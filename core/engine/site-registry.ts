import { SiteState } from '../scheduler/site-state.js';
import type { CrawlStore, SiteRow } from '../store/crawl-store.js';

/**
 * Site key -> SiteState, backed by the sites table. Counters and measurements live in
 * memory while crawling and are written back for the sites that changed at each commit.
 */
export class SiteRegistry {
  private readonly byKey = new Map<string, SiteState>();
  private readonly rows = new Map<number, SiteRow>();
  private readonly dirty = new Set<SiteState>();

  constructor(private readonly store: CrawlStore) {
    for (const row of store.loadSites()) {
      const site = new SiteState(row.id, row.host);
      site.pagesKnown = row.pages_known;
      site.pagesFetched = row.pages_fetched;
      site.connectMs = row.connect_ms;
      site.responseMs = row.response_ms;
      site.requestsPerConn = row.requests_per_conn;
      site.consecutiveErrors = row.consecutive_errors;
      site.crawlDelayMs = row.crawl_delay_ms;
      site.readyAt = row.not_before ?? 0;
      site.ip = row.ip;
      if (row.parked) site.status = 'parked';
      this.byKey.set(row.host, site);
      this.rows.set(row.id, row);
    }
  }

  get(key: string): SiteState | undefined {
    return this.byKey.get(key);
  }
  getOrCreate(key: string): { site: SiteState; created: boolean } {
    const found = this.byKey.get(key);
    if (found) return { site: found, created: false };
    const id = this.store.insertSite(key);
    const site = new SiteState(id, key);
    this.byKey.set(key, site);
    this.rows.set(id, {
      id, host: key, ip: null, pages_known: 0, pages_fetched: 0, pages_failed: 0, bytes: 0, connections: 0,
      requests: 0, connect_ms: null, response_ms: null, requests_per_conn: null, consecutive_errors: 0, errors: 0,
      crawl_delay_ms: null, not_before: null, parked: null, schemes: 0, tls: null,
    });
    return { site, created: true };
  }
  all(): IterableIterator<SiteState> {
    return this.byKey.values();
  }
  get size(): number {
    return this.byKey.size;
  }

  /** The stored row of a site, for counters the scheduler does not need. */
  row(site: SiteState): SiteRow {
    this.dirty.add(site);
    return this.rows.get(site.id)!;
  }
  touch(site: SiteState): void {
    this.dirty.add(site);
  }

  /** Writes the changed sites (inside the current batch). */
  flush(): void {
    for (const site of this.dirty) {
      const row = this.rows.get(site.id)!;
      row.pages_known = site.pagesKnown;
      row.pages_fetched = site.pagesFetched;
      row.connect_ms = site.connectMs;
      row.response_ms = site.responseMs;
      row.requests_per_conn = site.requestsPerConn;
      row.consecutive_errors = site.consecutiveErrors;
      row.crawl_delay_ms = site.crawlDelayMs;
      row.not_before = site.readyAt > 0 ? site.readyAt : null;
      row.ip = site.ip;
      this.store.saveSite(row);
    }
    this.dirty.clear();
  }
}
