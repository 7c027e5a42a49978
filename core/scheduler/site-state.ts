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
  /**
   * Requests the server allows per connection, as it said (Keep-Alive: max, Connection: close;
   * fetch/keep-alive.ts), EWMA over its connections; null until it says: the crawl-ability
   * paper's RequestsPerConnection (docs/design.md section 3.4).
   */
  requestsPerConn: number | null = null;
  /** A pipelined exchange succeeded with this server (the paper's p applies to it). */
  pipelines = false;
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

  /** One connection's measurements: its set-up time, what the server said it allows, whether it pipelined. */
  measureConnection(connectMs: number | null, stated: number | null, pipelined = false): void {
    if (connectMs !== null) this.connectMs = ewma(this.connectMs, connectMs, this.ewmaAlpha);
    if (stated !== null && stated > 0) this.requestsPerConn = ewma(this.requestsPerConn, stated, this.ewmaAlpha);
    if (pipelined) this.pipelines = true;
  }
  measureResponse(responseMs: number): void {
    this.responseMs = ewma(this.responseMs, responseMs, this.ewmaAlpha);
  }
}
