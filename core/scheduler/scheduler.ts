import { int32Pages } from '../page-array.js';
import type { Clock } from './clock.js';
import { IndexedHeap } from './indexed-heap.js';
import type { SiteState } from './site-state.js';
import type { Policy, PolicyHost } from './policy.js';

export interface SchedulerOptions {
  clock: Clock;
  policy: Policy;
  /** Maximum simultaneous connections (docs/design.md section 2.5: r). */
  r: number;
  /** Maximum requests over one connection (docs/design.md section 2.4: c). */
  c: number;
  /** Wait between connections to one site, in ms (docs/design.md section 2.3: w). */
  w: number;
  /** A site's own w, where it depends on the site (site-wait.ts: w for small sites); default w for every site. */
  waitFor?: (site: SiteState) => number;
  /** Batches of K pages (thesis: K = 100,000); null = one continuous crawl. */
  batch?: number | null;
  /** Batch mode: told of each page a batch admits, with the batch's number (1, 2, ...): the simulator's batch series. */
  onAdmit?: (pageId: number, site: SiteState, batch: number) => void;
}

export interface QueuedPage {
  id: number;
  priority: number;
}

/** One connection's worth of work: a site and up to c of its pages, in policy order. */
export interface Session {
  site: SiteState;
  pages: QueuedPage[];
  startedAt: number;
}

/**
 * The two-level scheduler of docs/design.md section 2: a priority queue of sites, each holding
 * a priority queue of its pages. It decides *when* (politeness: one connection per site,
 * w between connections, Crawl-delay, backoff, at most r open) and *what* (the policy's
 * order); the fetcher decides how. It does no I/O and reads time only from its clock, so
 * the simulator drives it unchanged.
 */
export class Scheduler implements PolicyHost {
  readonly clock: Clock;
  readonly c: number;
  private readonly policy: Policy;
  private readonly r: number;
  private readonly w: number;
  private readonly waitFor: ((site: SiteState) => number) | null;
  private readonly batch: number | null;
  private readonly onAdmit: SchedulerOptions['onAdmit'] | null;
  private readonly byId = new Map<number, SiteState>();
  /** Sites allowed to be contacted now, by site rank. */
  private readonly ready = new IndexedHeap();
  /** Sites with pending pages waiting for politeness or backoff, by wake time. */
  private readonly snoozed = new IndexedHeap();
  private inFlight = 0;
  private queued = 0;
  private withPending = 0;
  /**
   * Where each pending page sits in its heap (its site's queue, or the backlog), by page id:
   * one array for all of them (indexed-heap.ts), as a page waits in one heap at a time.
   */
  private readonly pagePositions = int32Pages(-1);
  /** Batch mode: discovered pages wait here until a batch admits them. */
  private readonly backlog = new IndexedHeap();
  /** Batch mode: the site of each page in the backlog (its id + 1, by page id), and those sites by id. */
  private readonly backlogSiteOf = int32Pages();
  private readonly backlogSites = new Map<number, SiteState>();
  private sinceBatch = 0;
  /** Priorities of pages out in a session, kept current so a returned page keeps its rank. */
  private readonly outPriority = new Map<number, number>();
  batchesFormed = 0;

  constructor(opts: SchedulerOptions) {
    this.clock = opts.clock;
    this.policy = opts.policy;
    this.r = opts.r;
    this.c = opts.c;
    this.w = opts.w;
    this.waitFor = opts.waitFor ?? null;
    this.batch = opts.batch ?? null;
    this.onAdmit = opts.onAdmit ?? null;
    this.backlog.usePositions(this.pagePositions);
    this.policy.attach?.(this);
  }

  // ---- sites ------------------------------------------------------------------------
  addSite(site: SiteState): void {
    this.byId.set(site.id, site);
  }
  site(id: number): SiteState | undefined {
    return this.byId.get(id);
  }
  sites(): Iterable<SiteState> {
    return this.byId.values();
  }

  // ---- pages ------------------------------------------------------------------------
  /** A page becomes pending (newly discovered, loaded on resume, or returned for retry). */
  enqueue(site: SiteState, pageId: number, priority: number): void {
    if (site.status === 'parked') return;
    if (this.batch !== null && !site.queue.has(pageId)) {
      this.backlog.set(pageId, priority);
      this.backlogSiteOf.set(pageId, site.id + 1);
      this.backlogSites.set(site.id, site);
      this.admitIfLow();
      return;
    }
    this.pushToSite(site, pageId, priority);
  }

  setPagePriority(pageId: number, site: SiteState, priority: number): void {
    if (this.outPriority.has(pageId)) {
      this.outPriority.set(pageId, priority);
    } else if (this.backlog.has(pageId)) {
      this.backlog.set(pageId, priority);
    } else if (site.queue.has(pageId)) {
      site.queue.set(pageId, priority);
      this.refreshSite(site);
    }
  }

  /** Recomputes a site's rank in the ready queue (after its pages or measurements changed). */
  refreshSite(site: SiteState): void {
    if (site.status === 'ready') this.ready.set(site.id, this.rank(site), site.queue.peek() ?? 0);
  }

  private pushToSite(site: SiteState, pageId: number, priority: number): void {
    site.queue.usePositions(this.pagePositions);
    const had = site.queue.size;
    site.queue.set(pageId, priority);
    if (site.queue.size === had) return this.refreshSite(site);
    this.queued++;
    if (had === 0) this.withPending++;
    if (site.status === 'idle') this.wakeOrSnooze(site);
    else this.refreshSite(site);
  }

  private rank(site: SiteState): number {
    return this.policy.sitePriority ? this.policy.sitePriority(site) : (site.queue.peekPriority() ?? 0);
  }

  private wakeOrSnooze(site: SiteState): void {
    if (site.queue.size === 0) {
      site.status = 'idle';
      return;
    }
    if (site.readyAt <= this.clock.now()) {
      site.status = 'ready';
      this.ready.set(site.id, this.rank(site), site.queue.peek() ?? 0);
    } else {
      site.status = 'snoozed';
      this.snoozed.set(site.id, -site.readyAt);
    }
  }

  private wakeDue(): void {
    const now = this.clock.now();
    for (let id = this.snoozed.peek(); id !== undefined; id = this.snoozed.peek()) {
      const site = this.byId.get(id)!;
      if (site.readyAt > now) break;
      this.snoozed.pop();
      site.status = 'idle';
      this.wakeOrSnooze(site);
    }
  }

  // ---- sessions ---------------------------------------------------------------------
  /**
   * The next connection to open, or null if r is reached or no site may be contacted now.
   * `limit` caps the pages taken (e.g. what --max-pages still allows).
   */
  take(limit = Infinity): Session | null {
    if (this.inFlight >= this.r) return null;
    this.wakeDue();
    const id = this.ready.pop();
    if (id === undefined) return null;
    const site = this.byId.get(id)!;
    const wanted = this.policy.pagesPerConnection ? this.policy.pagesPerConnection(site, this.c) : this.c;
    const k = Math.max(1, Math.min(this.c, wanted, site.queue.size, limit));
    const pages: QueuedPage[] = [];
    for (let i = 0; i < k; i++) {
      const priority = site.queue.peekPriority()!;
      const id = site.queue.pop()!;
      pages.push({ id, priority });
      this.outPriority.set(id, priority);
    }
    this.queued -= pages.length;
    if (site.queue.size === 0) this.withPending--;
    site.status = 'in-flight';
    this.inFlight++;
    this.admitIfLow();
    return { site, pages, startedAt: this.clock.now() };
  }

  /**
   * A session is over. The next connection to the site may start w (or the site's
   * Crawl-delay, or a backoff) after `endedAt`, the end of its last response.
   * Pages not fetched go back to the site's queue with their priority.
   */
  /** The wait between two connections to this site: w, or its Crawl-delay when longer. */
  connectionGap(site: SiteState): number {
    return Math.max(this.waitFor ? this.waitFor(site) : this.w, site.crawlDelayMs ?? 0);
  }

  finish(session: Session, endedAt: number, returned: readonly QueuedPage[] = [], extraDelayMs = 0): void {
    const site = session.site;
    this.inFlight--;
    const latest = new Map<number, number>();
    for (const p of session.pages) {
      latest.set(p.id, this.outPriority.get(p.id) ?? p.priority);
      this.outPriority.delete(p.id);
    }
    const wait = this.connectionGap(site) + extraDelayMs;
    site.readyAt = Math.max(site.readyAt, endedAt + wait);
    if (site.status === 'parked') return;
    site.status = 'idle';
    for (const p of returned) this.pushToSite(site, p.id, latest.get(p.id) ?? p.priority);
    this.wakeOrSnooze(site);
  }

  /** Counts a fetched page; in batch mode, every K pages the policy may reprioritise. */
  pageDone(): void {
    if (this.batch === null) return;
    if (++this.sinceBatch >= this.batch) {
      this.sinceBatch = 0;
      this.policy.onBatch?.();
    }
  }

  /** Stops contacting a site; returns the ids of the pages it still had pending. */
  park(site: SiteState): number[] {
    const pending: number[] = [];
    if (site.queue.size > 0) {
      this.queued -= site.queue.size;
      this.withPending--;
    }
    for (let id = site.queue.pop(); id !== undefined; id = site.queue.pop()) pending.push(id);
    if (this.backlogSites.get(site.id) === site) {
      const waiting: number[] = [];
      for (const [pageId] of this.backlog.entries()) if (this.backlogSiteOf.get(pageId) === site.id + 1) waiting.push(pageId);
      for (const pageId of waiting.sort((a, b) => a - b)) {
        this.backlog.delete(pageId);
        this.backlogSiteOf.delete(pageId);
        pending.push(pageId);
      }
    }
    if (site.status === 'ready') this.ready.delete(site.id);
    if (site.status === 'snoozed') this.snoozed.delete(site.id);
    site.status = 'parked';
    return pending;
  }

  /** Batch mode: admits the next K pages (by policy priority) once the current batch runs low. */
  private admitIfLow(): void {
    if (this.batch === null || this.backlog.size === 0) return;
    const lowWater = Math.max(1, Math.floor(this.batch / 10));
    if (this.queued >= lowWater) return;
    this.batchesFormed++;
    for (let i = 0; i < this.batch && this.backlog.size > 0; i++) {
      const priority = this.backlog.peekPriority()!;
      const pageId = this.backlog.pop()!;
      const site = this.backlogSites.get(this.backlogSiteOf.get(pageId) - 1)!;
      this.backlogSiteOf.delete(pageId);
      this.pushToSite(site, pageId, priority);
      this.onAdmit?.(pageId, site, this.batchesFormed);
    }
  }

  // ---- state ------------------------------------------------------------------------
  /** When the next snoozed site wakes (null if none is waiting). */
  nextWakeAt(): number | null {
    const id = this.snoozed.peek();
    return id === undefined ? null : this.byId.get(id)!.readyAt;
  }
  get openConnections(): number {
    return this.inFlight;
  }
  /** Pages waiting in site queues (and in the batch backlog). */
  get queuedPages(): number {
    return this.queued + this.backlog.size;
  }
  get sitesWithPending(): number {
    return this.withPending;
  }
  /** Bytes its heaps hold: the site queues, the positions of their pages, the backlog (bench/frontier's accounting). */
  get memoryBytes(): number {
    let n = this.pagePositions.bytes + this.backlog.bytes + this.backlogSiteOf.bytes + this.ready.bytes + this.snoozed.bytes;
    for (const site of this.byId.values()) n += site.queue.bytes;
    return n;
  }
  /** Nothing pending and nothing in flight: the crawl is complete. */
  get drained(): boolean {
    return this.inFlight === 0 && this.queued === 0 && this.backlog.size === 0;
  }
}
