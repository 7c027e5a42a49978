import type { CrawlSettings } from '../config/settings.js';
import type { Fetcher } from '../fetch/interfaces.js';
import type { ParsePool } from '../parse/parse-pool.js';
import type { Policy } from '../scheduler/policy.js';
import type { Scheduler } from '../scheduler/scheduler.js';
import type { ContentStore } from '../store/content-store.js';
import type { CrawlStore } from '../store/crawl-store.js';
import type { Scope } from '../url/scope.js';
import type { HistoryPages } from '../store/history-pages.js';
import type { RobotsCache } from './robots-cache.js';
import type { SiteRegistry } from './site-registry.js';

/** Running totals kept in memory for the live line; the database holds the same in its tables. */
export class CrawlCounters {
  pagesFetched = 0;
  bytes = 0;
  links = 0;
  requests = 0;
  readonly errors = new Map<string, number>();
  /** Counts not yet written to the counters table. */
  private readonly unsaved = new Map<string, number>();

  error(code: string): void {
    this.errors.set(code, (this.errors.get(code) ?? 0) + 1);
    this.bump(`error:${code}`);
  }
  bump(name: string, n = 1): void {
    this.unsaved.set(name, (this.unsaved.get(name) ?? 0) + n);
  }
  flush(store: CrawlStore): void {
    for (const [name, n] of this.unsaved) store.addCounter(name, n);
    this.unsaved.clear();
  }
  errorTotal(): number {
    let n = 0;
    for (const v of this.errors.values()) n += v;
    return n;
  }
}

/** A link or a seed as discover() is given it (engine/discovery.ts). */
export interface Discovery {
  url: string;
  depth: number;
  parentId: number | null;
  redirects: number;
  anchor: string | null;
  /** Known through nofollow links only: stored, not fetched. */
  nofollow: boolean;
}

/** A link found for a page another worker owns, as discover() was given it. */
export type ForeignLink = Discovery;

/**
 * A worker of a parallel crawl (core/parallel): which URLs it owns, and where the links it
 * finds for other parts go. The engine stores a foreign URL as a skipped page (so the link
 * is recorded) and hands it here; the worker sends it to its owner.
 */
export interface PartHook {
  /** True when this worker fetches the URL (`seed`: a seed, which every worker is given). */
  mine(url: string, seed: boolean): boolean;
  /** A URL of another part, found on page `d.parentId` (null: a seed, which its owner has too). */
  foreign(d: ForeignLink): void;
  /**
   * The page's links are all discovered (inside the write batch): send what foreign() collected
   * from it. `attempt`: a sitemap read again after a failed read (its URLs go again, as another
   * message: the first read's was sent).
   */
  pageDone(pageId: number, url: string, attempt?: number): void;
  /** True while the crawl must wait for URLs from other workers instead of finishing when its frontier is empty. */
  holdOpen(): boolean;
  /**
   * Fetched page `pageId` was found by a shorter path (inside the write batch): `links` are its
   * links to other parts at their lower depths, for their owners to lower theirs
   * (engine/discovery.ts, shorterPath).
   */
  shorterPath?(pageId: number, url: string, links: ForeignLink[]): void;
  /**
   * --sitemaps: whether this worker reads the origin's sitemaps (engine/sitemaps.ts), asked
   * before they are planned. With a site assignment the site's owner does; with a page
   * assignment, where several workers open connections to a site, one of them
   * (core/parallel/sitemap-claims.ts). Absent: this worker does.
   */
  readsSitemaps?(origin: string): Promise<boolean>;
}

/**
 * Politeness across workers (core/parallel/site-leases.ts): with a page assignment a site's
 * pages lie on several workers, and a connection to a site is asked of the gate first.
 */
export interface SiteGate {
  /** Asks once: null when the site is now held for one connection, else ms to wait before asking again. */
  tryAcquire(site: string, gapMs: number): Promise<number | null>;
  /** The connection ended; the next, on any worker, may start `gapMs` later. */
  release(site: string, gapMs: number): Promise<void>;
  /** True once the held site can no longer be trusted: the session stops before its next request. */
  isLost(site: string): boolean;
}

/** Everything one crawl's parts share; built by the Crawler. */
export interface CrawlContext {
  readonly settings: CrawlSettings;
  readonly store: CrawlStore;
  readonly sites: SiteRegistry;
  readonly scheduler: Scheduler;
  readonly policy: Policy;
  readonly scope: Scope;
  readonly fetcher: Fetcher;
  readonly robots: RobotsCache;
  readonly counters: CrawlCounters;
  readonly content: ContentStore | null;
  /** The history crawl's pages, for conditional requests (null: no history, or --unconditional). */
  readonly history: HistoryPages | null;
  /** Set in a parallel crawl's worker: the part it owns. */
  readonly parts?: PartHook;
  /** HTML pages parsed on threads beside the crawl's (parse-pool.ts), while the crawl runs with one. */
  parser?: ParsePool | null;
}
