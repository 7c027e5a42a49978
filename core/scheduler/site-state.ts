import { IndexedHeap } from './indexed-heap.js';
import { ewma } from './ewma.js';

/**
 * Where a site is in the scheduler's life cycle (style.md: ready / in flight / snoozed /
 * exhausted). `parked` sites failed too often and are not contacted again this crawl.
 */
export type SiteStatus = 'idle' | 'ready' | 'in-flight' | 'snoozed' | 'parked';

/** What the scheduler and the policies know about one site. Measurements are EWMAs. */
export class SiteState {
  status: SiteStatus = 'idle';
  /** Pending pages of this site, in the policy's page order. */
  readonly queue = new IndexedHeap();
  /** Earliest time the next connection may start (politeness w, Crawl-delay, backoff). */
  readyAt = 0;
  crawlDelayMs: number | null = null;
  connectMs: number | null = null;
  responseMs: number | null = null;
  requestsPerConn: number | null = null;
  /** Pages ever admitted for this site (the per-site cap counts these). */
  pagesKnown = 0;
  pagesFetched = 0;
  consecutiveErrors = 0;
  ip: string | null = null;
  /** EWMA weight of the old estimate (crawl-ability paper: 0.8); a policy may set it. */
  ewmaAlpha = 0.8;

  constructor(
    readonly id: number,
    readonly host: string,
  ) {}

  get pending(): number {
    return this.queue.size;
  }

  measureConnection(connectMs: number | null, requests: number): void {
    if (connectMs !== null) this.connectMs = ewma(this.connectMs, connectMs, this.ewmaAlpha);
    if (requests > 0) this.requestsPerConn = ewma(this.requestsPerConn, requests, this.ewmaAlpha);
  }
  measureResponse(responseMs: number): void {
    this.responseMs = ewma(this.responseMs, responseMs, this.ewmaAlpha);
  }
}
