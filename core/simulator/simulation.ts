import type { PolicyContext } from '../policies/context.js';
import { createPolicy } from '../policies/registry.js';
import type { Clock } from '../scheduler/clock.js';
import { IpGate } from '../scheduler/ip-gate.js';
import { Scheduler, type Session } from '../scheduler/scheduler.js';
import { SiteState } from '../scheduler/site-state.js';
import { siteWait, type SmallSiteWait } from '../scheduler/site-wait.js';
import { BatchRecorder } from './batch-series.js';
import { EventQueue } from './event-queue.js';
import { pageSize, serverModel, type NetworkOptions, type ServerModel } from './network.js';
import type { BatchOutcome } from './report.js';
import { SharedLink } from './shared-link.js';
import type { SimGraph } from './sim-graph.js';

export interface SimulationOptions {
  policy: string;
  /** Policy parameters, as settings.policyParams of a crawl (history, batch, topic, ...). */
  params?: Record<string, unknown>;
  /** Maximum simultaneous connections to different sites. */
  r: number;
  /** Wait between connections to one site, ms. */
  w: number;
  /** Another w for small sites (crawl --w-small, --small-site); site keys are the graph's. */
  smallSites?: SmallSiteWait | null;
  /** Maximum requests over one connection. */
  c: number;
  /** The crawler's bandwidth B in bytes/s (Infinity: unlimited). */
  bandwidth: number;
  /** Scheduler batches of K pages (as `crawl --batch`), or null. */
  batch?: number | null;
  network: NetworkOptions;
  /** Start pages (nodes), in order; they get the first page ids. */
  seeds: readonly number[];
  maxPages?: number | null;
  maxPagesPerSite?: number | null;
  /** Old PageRank by URL, for historical policies (and quality/crawl-ability given `history`). */
  history?: ReadonlyMap<string, number>;
  /** True PageRank by URL: the oracle of the omniscient policies. */
  oracle?: ReadonlyMap<string, number>;
  /** Overrides the network model's servers (site index -> model): for cases worked out by hand. */
  servers?: (site: number) => ServerModel;
  /**
   * Politeness per IP address as well as per site (the crawler's --per-ip): sites the graph
   * gives one address are contacted one at a time, the connection gap apart. A site with no
   * recorded address is alone on its own, so without addresses this changes nothing.
   */
  perIp?: boolean;
  /** Called every `progressEvery` pages fetched (default 1,000) with the pages fetched so far: progress for a UI. */
  onFetched?: (fetched: number) => void;
  progressEvery?: number;
}

export interface SimulationResult {
  policy: string;
  pagesFetched: number;
  /** Nodes in fetch order, and when each fetch ended (virtual ms since the start). */
  order: Int32Array;
  times: Float64Array;
  durationMs: number;
  bytes: number;
  connections: number;
  /** Open connections over time: (ms, count) at each change, thinned to at most ~2,000 points. */
  openSeries: { t: number[]; open: number[] };
  /** Time-average of open connections over the crawl. */
  meanOpen: number;
  /** With batches: each batch and the one in the middle of the crawl (report.ts, BatchOutcome). */
  batches: BatchOutcome[] | null;
  middleBatch: number | null;
  wallMs: number;
}

/** Site s's address: the one the graph records, else its own key (a host alone on its address). */
export function siteAddress(g: SimGraph, s: number): string {
  return g.addresses?.[s] ?? g.sites[s]!;
}

/** The simulator's clock: virtual milliseconds, advanced only by the event loop. */
class VirtualClock implements Clock {
  t = 0;
  constructor(private readonly events: EventQueue) {}
  now(): number {
    return this.t;
  }
  setTimer(at: number, cb: () => void): () => void {
    let live = true;
    this.events.push(at, () => live && cb());
    return () => {
      live = false;
    };
  }
}

/**
 * One simulated crawl of a stored graph (docs/design.md section 5): the crawler's own Scheduler
 * and a policy from the one registry (policies/registry.ts), driven by a virtual clock and a
 * simulated network instead of undici. It knows only the links of pages it has fetched, and
 * follows the precise rules of docs/design.md section 2 as the crawler does: one connection per
 * site, w from the end of a connection's last response to the next connection, up to c
 * requests back to back per connection (fewer if the server's keep-alive allows fewer), at
 * most r connections open. Page ids are given in discovery order, as the crawl database
 * gives them, so ties break the same way as in a real crawl.
 */
export class Simulation {
  private readonly events = new EventQueue();
  private readonly clock = new VirtualClock(this.events);
  private readonly scheduler: Scheduler;
  private readonly policy;
  private readonly link: SharedLink;
  private readonly simOf: Int32Array;
  private readonly nodeOf: Int32Array;
  private readonly depth: Int32Array;
  private readonly sites: Array<SiteState | undefined>;
  private readonly servers: Array<ServerModel | undefined>;
  private readonly ipGate: IpGate | null;
  private nextPageId = 1;
  private nextSiteId = 1;
  private fetched = 0;
  private inFlightPages = 0;
  private connections = 0;
  private readonly order: Int32Array;
  private readonly times: Float64Array;
  private readonly series = new Thinned(2000);
  private openArea = 0;
  private lastOpenAt = 0;
  private readonly batchLog: BatchRecorder | null;

  constructor(
    private readonly g: SimGraph,
    private readonly o: SimulationOptions,
  ) {
    const history = o.history;
    const ctx: PolicyContext = {
      batch: o.batch ?? null,
      maxPages: o.maxPages ?? g.n,
      loadHistory: history ? () => history : undefined,
      oracle: o.oracle,
    };
    this.policy = createPolicy(o.policy, o.params ?? {}, ctx);
    const batchLog = o.batch ? new BatchRecorder(g.n) : null;
    this.batchLog = batchLog;
    const onAdmit = batchLog ? (id: number, _site: SiteState, batch: number) => batchLog.admitted(id, this.g.siteOf[this.nodeOf[id]!]!, batch, this.clock.t) : undefined;
    this.scheduler = new Scheduler({ clock: this.clock, policy: this.policy, r: o.r, c: o.c, w: o.w, waitFor: siteWait(o.w, o.smallSites), batch: o.batch ?? null, onAdmit });
    this.link = new SharedLink(o.bandwidth);
    this.ipGate = o.perIp ? new IpGate(o.w) : null;
    this.simOf = new Int32Array(g.n);
    this.nodeOf = new Int32Array(g.n + 1);
    this.depth = new Int32Array(g.n);
    this.sites = new Array(g.sites.length);
    this.servers = new Array(g.sites.length);
    this.order = new Int32Array(g.n);
    this.times = new Float64Array(g.n);
  }

  run(): SimulationResult {
    const wall = performance.now();
    for (const v of this.o.seeds) this.discover(v, 0, null);
    this.series.push(0, 0);
    for (;;) {
      this.pump();
      const tEvent = this.events.peekTime();
      const tLink = this.link.nextCompletion();
      const wake = this.canStart() ? this.scheduler.nextWakeAt() : null;
      const t = Math.max(this.clock.t, Math.min(tEvent, tLink, wake ?? Infinity));
      if (t === Infinity) break;
      this.clock.t = t;
      if (tEvent <= tLink && tEvent <= t) this.events.pop()!();
      else if (tLink <= t) this.link.completeNext(t);
      // else: only a site's politeness wait ended; the next pump() starts it.
    }
    const end = this.clock.t;
    this.noteOpen(end);
    return {
      policy: this.o.policy,
      pagesFetched: this.fetched,
      order: this.order.slice(0, this.fetched),
      times: this.times.slice(0, this.fetched),
      durationMs: end,
      bytes: this.link.bytes,
      connections: this.connections,
      openSeries: this.series.values(),
      meanOpen: end > 0 ? this.openArea / end : 0,
      batches: this.batchLog ? this.batchLog.outcomes(end) : null,
      // The batch of the page fetched halfway: the thesis's typical batch in the middle of the crawl.
      middleBatch: this.batchLog && this.fetched > 0 ? this.batchLog.batchOfPage(this.simOf[this.order[Math.floor(this.fetched / 2)]!]!) : null,
      wallMs: performance.now() - wall,
    };
  }

  private budget(): number {
    const max = this.o.maxPages ?? null;
    return max === null ? Infinity : max - this.fetched - this.inFlightPages;
  }

  private canStart(): boolean {
    return this.budget() > 0 && this.scheduler.openConnections < this.o.r;
  }

  private pump(): void {
    for (let left = this.budget(); left > 0; left = this.budget()) {
      const session = this.scheduler.take(left);
      if (!session) break;
      this.startSession(session);
    }
  }

  /** A URL met for the first time becomes a page (id in discovery order) and, unless capped, pending. */
  private discover(v: number, depth: number, parentId: number | null, anchor: string | null = null): number {
    const known = this.simOf[v]!;
    if (known !== 0) return known;
    const id = this.nextPageId++;
    this.simOf[v] = id;
    this.nodeOf[id] = v;
    this.depth[v] = depth;
    const site = this.siteState(this.g.siteOf[v]!);
    const cap = this.o.maxPagesPerSite ?? null;
    if (cap !== null && site.pagesKnown >= cap) return id;
    const priority = this.policy.pagePriority({ id, site, depth, parentId, url: this.g.urls[v]!, anchor });
    site.pagesKnown++;
    this.scheduler.enqueue(site, id, priority);
    return id;
  }

  private siteState(s: number): SiteState {
    let site = this.sites[s];
    if (!site) {
      site = new SiteState(this.nextSiteId++, this.g.sites[s]!);
      this.sites[s] = site;
      this.scheduler.addSite(site);
    }
    return site;
  }

  private server(s: number): ServerModel {
    let m = this.servers[s];
    if (!m) {
      m = this.o.servers ? this.o.servers(s) : serverModel(this.o.network, s, this.g.measured?.[s] ?? null);
      this.servers[s] = m;
    }
    return m;
  }

  private startSession(session: Session): void {
    const s = this.g.siteOf[this.nodeOf[session.pages[0]!.id]!]!;
    const site = session.site;
    const ip = this.ipGate ? siteAddress(this.g, s) : null;
    if (ip !== null) {
      // As Crawler.session: an address held by another site's connection sends the session back.
      const wait = this.ipGate!.acquire(ip, this.clock.t);
      if (wait !== null) return this.scheduler.finish(session, this.clock.t, session.pages, wait);
    }
    const server = this.server(s);
    this.connections++;
    this.inFlightPages += session.pages.length;
    this.noteOpen(this.clock.t);
    let i = 0;
    let requests = 0;
    const end = () => {
      // A simulated server states its limit on every response, as Apache's Keep-Alive: max does.
      site.measureConnection(server.connectMs, server.keepAliveMax);
      if (ip !== null) this.ipGate!.release(ip, this.clock.t, this.scheduler.connectionGap(site));
      this.inFlightPages -= session.pages.length - i;
      this.scheduler.finish(session, this.clock.t, session.pages.slice(i));
      this.noteOpen(this.clock.t);
    };
    const request = () => {
      if (i >= session.pages.length || requests >= server.keepAliveMax) return end();
      requests++;
      const page = session.pages[i]!;
      const sent = this.clock.t;
      this.events.push(this.clock.t + server.latencyMs, () => {
        const v = this.nodeOf[page.id]!;
        this.link.start(this.clock.t, pageSize(this.o.network, v, this.g.sizes?.[v]), server.bytesPerSec, () => {
          // ResponseTime over the whole transfer, as the crawler measures it.
          site.measureResponse(this.clock.t - sent);
          i++;
          this.inFlightPages--;
          this.fetchedPage(page.id, site);
          request();
        });
      });
    };
    this.events.push(this.clock.t + server.connectMs, request);
  }

  /** As page-processor.ts does for a fetched page: count it, discover its links, tell the policy. */
  private fetchedPage(id: number, site: SiteState): void {
    const v = this.nodeOf[id]!;
    this.order[this.fetched] = v;
    this.times[this.fetched] = this.clock.t;
    this.batchLog?.fetched(id, this.clock.t);
    this.fetched++;
    if (this.o.onFetched && this.fetched % (this.o.progressEvery ?? 1000) === 0) this.o.onFetched(this.fetched);
    site.pagesFetched++;
    this.scheduler.pageDone();
    const { offsets, targets } = this.g.graph;
    const out: number[] = [];
    const d = this.depth[v]! + 1;
    for (let k = offsets[v]!; k < offsets[v + 1]!; k++) out.push(this.discover(targets[k]!, d, id, this.g.anchors?.[k] ?? null));
    this.policy.onFetched?.(id, site, out);
  }

  private noteOpen(t: number): void {
    const open = this.scheduler.openConnections;
    this.openArea += this.series.last() * (t - this.lastOpenAt);
    this.lastOpenAt = t;
    this.series.push(t, open);
    this.batchLog?.open(t, open);
  }
}

/** A (t, value) series that keeps at most about `max` points by dropping every other one when full. */
class Thinned {
  private t: number[] = [];
  private v: number[] = [];
  private stride = 1;
  private seen = 0;
  constructor(private readonly max: number) {}
  last(): number {
    return this.lastValue;
  }
  private lastValue = 0;
  push(t: number, v: number): void {
    this.lastValue = v;
    if (this.seen++ % this.stride !== 0) return;
    this.t.push(t);
    this.v.push(v);
    if (this.t.length >= this.max) {
      this.t = this.t.filter((_, i) => i % 2 === 0);
      this.v = this.v.filter((_, i) => i % 2 === 0);
      this.stride *= 2;
    }
  }
  values(): { t: number[]; open: number[] } {
    return { t: this.t, open: this.v };
  }
}
