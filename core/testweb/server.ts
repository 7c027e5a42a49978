/**
 * TestWebServer: one node:http server on loopback serving every virtual host of a Web by its
 * Host header. It behaves like a population of real servers: per-site latency before the
 * headers, per-site bandwidth, per-site keep-alive limits (the Nth request on a connection is
 * answered with Connection: close), robots.txt variety and the fault sites; and it records
 * every request and connection so tests can check a crawler's politeness precisely.
 * Pages are rendered on demand; nothing per page is cached.
 *
 * A web with sites on TLS is served on the same port over both schemes (tls-front.ts), with
 * certificates from a test CA (tls-certs.ts; `ca`): a site on https only answers plain HTTP
 * with 400, as nginx does on its TLS port; a site on both redirects every http request to https.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { FaultState, serveFault } from './faults.js';
import { renderPage } from './html.js';
import { notModified, PageValidators } from './validators.js';
import { now, RequestLog, type ConnRecord, type ServedRequest } from './request-log.js';
import { later, notFound, redirect, scaled, send, type Ctx } from './respond.js';
import { robotsAnswer } from './robots.js';
import { serveSitemap, sitemapRobots } from './sitemaps.js';
import { isTlsFault } from './fault-kinds.js';
import { TestCa } from './tls-certs.js';
import { TlsFront } from './tls-front.js';
import { isTlsSite, pageUrl, type SiteInfo, type TlsFaultKind, type Web } from './web.js';

export type { ConnRecord, ServedRequest } from './request-log.js';

export interface TestWebServerOptions {
  /** Interface to listen on; default '127.0.0.1'. */
  host?: string;
  /** 0 = ephemeral (default). */
  port?: number;
  /** Multiplies latencies and transfer times; 0 = no waiting; default 1. */
  timeFactor?: number;
  /** Appends one NDJSON ServedRequest per request. */
  logFile?: string;
  /**
   * Keep `requests` and closed `connections` in memory (default true); turn off for huge
   * benchmarks (then `connections` holds open connections only; use logFile instead).
   */
  memoryLog?: boolean;
  /**
   * Send each page's validators (ETag, Last-Modified) and answer conditional requests honestly:
   * 304 only for a page that did not change (validators.ts). Default false (a hash per page).
   */
  validators?: boolean;
  /**
   * A connection's first request waits its site's latency once more before it is answered, as
   * the TCP handshake costs a round trip before the first request (the crawl-ability paper's
   * HTTP/1.0 against keep-alive, its section 3.1). Default false.
   */
  handshakeRtt?: boolean;
  /** Idle keep-alive timeout; default 15000 ms (Apache's default). */
  keepAliveTimeoutMs?: number;
  /**
   * Give every site its own loopback address and listen on each (same port): a site whose
   * host is already a 127.x.y.z literal keeps it, the others get 127.1.x.y in site order
   * (see siteAddresses). Crawlers then reach a site by its address, and per-IP rules apply.
   */
  bindPerSite?: boolean;
  /** The CA whose certificates the TLS sites serve; default: a new one made by start(). */
  ca?: TestCa;
}

export class TestWebServer {
  readonly connections = new Map<number, ConnRecord>();
  private readonly server: http.Server;
  private readonly log: RequestLog;
  /** Every open connection (its TCP socket) with its record. */
  private readonly sockets = new Map<Socket, ConnRecord>();
  /** The record of every connection by its TCP socket, and by its TLS socket over TLS. */
  private readonly connOf = new WeakMap<Socket, ConnRecord>();
  private front: TlsFront | null = null;
  /** The CA of the TLS sites (null for a web without any). */
  ca: TestCa | null = null;
  private readonly siteByHost = new Map<string, SiteInfo>();
  private readonly faults = new FaultState();
  private readonly validators: PageValidators | null;
  private timeFactor = 1;
  private nextConnId = 1;
  private listenPort = 0;
  /** Host -> listening address when bindPerSite; empty otherwise. */
  readonly addresses: Map<string, string>;
  private readonly listeners: net.Server[] = [];

  constructor(
    readonly web: Web,
    private readonly opts: TestWebServerOptions = {},
  ) {
    this.setTimeFactor(opts.timeFactor ?? 1);
    this.log = new RequestLog(opts.memoryLog !== false, opts.logFile);
    this.validators = opts.validators ? new PageValidators(web, () => this.listenPort) : null;
    for (const s of web.sites) this.siteByHost.set(s.host.toLowerCase(), s);
    this.addresses = opts.bindPerSite ? siteAddresses(web.sites.map((s) => s.host)) : new Map();
    this.server = http.createServer({ keepAliveTimeout: opts.keepAliveTimeoutMs ?? 15_000, requestTimeout: 0 }, (req, res) =>
      this.onRequest(req, res),
    );
    this.server.keepAliveTimeout = opts.keepAliveTimeoutMs ?? 15_000;
    // A client that vanishes mid-request must not take the server down.
    this.server.on('clientError', (_err, socket: Socket) => socket.destroy());
  }

  /** Changes the server's timeFactor for the requests that arrive from now on (0: no waiting); returns the one before. */
  setTimeFactor(f: number): number {
    if (!(f >= 0)) throw new RangeError('timeFactor must be >= 0');
    const before = this.timeFactor;
    this.timeFactor = f;
    return before;
  }

  /** In-memory request log, in order of completion (empty when memoryLog is false). */
  get requests(): ServedRequest[] {
    return this.log.requests;
  }

  /** Whether any site answers over TLS. */
  get hasTls(): boolean {
    return this.web.sites.some(isTlsSite);
  }

  async start(): Promise<number> {
    if (this.hasTls) {
      this.ca = this.opts.ca ?? (await TestCa.create());
      // The fault sites' certificates (a chain of 110 among them) are made now, not during a client's handshake.
      const ca = this.ca;
      await Promise.all(this.web.sites.filter((s) => isTlsFault(s.fault)).map((s) => ca.context(s.host, s.fault as TlsFaultKind)));
      const hostByAddress = new Map([...this.addresses].map(([host, address]) => [address, host]));
      this.front = new TlsFront(this.ca, {
        siteByHost: (host) => this.siteByHost.get(host),
        hostByAddress: (address) => hostByAddress.get(address),
        serve: (socket, raw) => {
          const conn = raw && this.connOf.get(raw);
          if (conn) this.connOf.set(socket, conn);
          this.server.emit('connection', socket);
        },
        closed: (raw, host) => this.logUnused(raw, host),
      });
    }
    return this.listen(this.opts.bindPerSite ? [...new Set(this.addresses.values())] : [this.opts.host ?? '127.0.0.1']);
  }

  /**
   * One plain TCP listener per address (one, or one per site with bindPerSite), all on the
   * port the first one got, each handing its sockets to the one HTTP server (so keep-alive,
   * logging and routing stay shared), through the TLS front when sites are on TLS.
   */
  private async listen(addresses: string[]): Promise<number> {
    let port = this.opts.port ?? 0;
    for (const address of addresses) {
      const listener = net.createServer((socket) => this.accept(socket));
      await new Promise<void>((resolve, reject) => {
        listener.once('error', reject);
        listener.listen(port, address, () => {
          listener.off('error', reject);
          resolve();
        });
      });
      this.listeners.push(listener);
      if (port === 0) port = (listener.address() as net.AddressInfo).port;
    }
    this.listenPort = port;
    return port;
  }

  /** The port it listens on (0 before start). */
  get port(): number {
    return this.listenPort;
  }

  /** Closes the listener and every socket (stalled responses and handshakes included), then the log file. */
  async stop(): Promise<void> {
    const closed = Promise.all(this.listeners.map((l) => new Promise<void>((resolve) => l.close(() => resolve())))).then(() => {});
    const sockets = [...this.sockets.keys()].map((s) => new Promise((resolve) => s.once('close', resolve)));
    this.server.closeAllConnections();
    for (const socket of this.sockets.keys()) socket.destroy();
    await Promise.all([closed, ...sockets]);
    await this.log.close();
  }

  url(id: number): string {
    return pageUrl(this.web, id, this.listenPort);
  }

  homeUrls(): string[] {
    return this.web.sites.filter((s) => s.count > 0).map((s) => this.url(s.first));
  }

  openConnections(): number {
    return this.sockets.size;
  }

  private newConn(): ConnRecord {
    const conn: ConnRecord = { connId: this.nextConnId++, host: '', openedAt: now(), closedAt: null, requests: 0, overlapped: 0, unfinished: 0 };
    this.connections.set(conn.connId, conn);
    return conn;
  }

  /** A new TCP connection: recorded, then served over HTTP, or through the TLS front. */
  private accept(socket: Socket): void {
    const conn = this.newConn();
    this.sockets.set(socket, conn);
    this.connOf.set(socket, conn);
    socket.once('close', () => {
      conn.closedAt = now();
      this.sockets.delete(socket);
      // Without the in-memory log, keep only open connections: a million-page crawl with
      // one request per connection would otherwise hold a million records.
      if (this.opts.memoryLog === false) this.connections.delete(conn.connId);
    });
    if (this.front) this.front.accept(socket);
    else this.server.emit('connection', socket);
  }

  /** A TLS connection that never got to HTTP, as one log entry (method 'TLS', status 0). */
  private logUnused(raw: Socket, host: string): void {
    const conn = this.connOf.get(raw);
    if (conn && conn.requests > 0) return;
    if (conn && conn.host === '') conn.host = host;
    const t = now();
    this.log.add({ t: conn?.openedAt ?? t, tEnd: t, host, connId: conn?.connId ?? 0, path: '', method: 'TLS', status: 0, bytes: 0, scheme: 'https' });
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const t = now();
    const encrypted = (req.socket as TLSSocket).encrypted === true;
    const conn = this.connOf.get(req.socket);
    let path = req.url ?? '/';
    let hostHeader = req.headers.host ?? '';
    if (/^https?:\/\//i.test(path)) {
      // Absolute-form request target (as sent to a proxy): the URL names the host.
      const u = new URL(path);
      hostHeader = u.host;
      path = u.pathname + u.search;
    }
    const host = stripPort(hostHeader).toLowerCase();
    const entry: ServedRequest = { t, tEnd: NaN, host, connId: conn?.connId ?? 0, path, method: req.method ?? 'GET', status: 0, bytes: 0 };
    if (encrypted) entry.scheme = 'https';
    let n = 1;
    if (conn) {
      if (conn.requests === 0) conn.host = host;
      n = ++conn.requests;
      if (conn.unfinished++ > 0) conn.overlapped++;
    }
    let logged = false;
    const done = () => {
      if (logged) return;
      logged = true;
      if (conn) conn.unfinished--;
      if (Number.isNaN(entry.tEnd)) entry.tEnd = now();
      entry.status = res.headersSent ? res.statusCode : 0;
      this.log.add(entry);
    };
    stampLastWrite(res, entry);
    res.once('finish', done);
    res.once('close', done);

    const site = this.siteByHost.get(host);
    if (site) sayKeepAlive(res, site, n, this.opts.keepAliveTimeoutMs ?? 15_000);
    const ctx: Ctx = {
      req,
      res,
      site: site ?? UNKNOWN_SITE,
      host,
      path,
      port: this.listenPort,
      timeFactor: this.timeFactor,
      entry,
      head: req.method === 'HEAD',
    };
    if (!site) return notFound(ctx);
    // A new connection's first answer waits one more latency: the round trip of the TCP handshake.
    if (n === 1 && this.opts.handshakeRtt && site.latencyMs > 0) return later(ctx, scaled(ctx, site.latencyMs), () => this.route(ctx, site, encrypted));
    this.route(ctx, site, encrypted);
  }

  /** Answers a request for a known site. */
  private route(ctx: Ctx, site: SiteInfo, encrypted: boolean): void {
    const { req, host, path } = ctx;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return send(ctx, 405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }, 'Method not allowed\n');
    }
    // Drain any request body so the connection stays usable.
    req.resume();
    if (!encrypted && site.scheme === 'https') {
      return send(ctx, 400, { 'content-type': 'text/plain; charset=utf-8' }, 'The plain HTTP request was sent to an HTTPS-only site\n');
    }
    if (!encrypted && site.scheme === 'both') return redirect(ctx, 301, `https://${host}:${this.listenPort}${path}`);
    const robots = sitemapRobots(robotsAnswer(site, path.split('?')[0]!), ctx);
    if (robots) {
      return later(ctx, scaled(ctx, site.latencyMs), () => {
        if (robots.location) return redirect(ctx, robots.status, robots.location);
        send(ctx, robots.status, { 'content-type': 'text/plain; charset=utf-8' }, robots.body);
      });
    }
    if (site.fault) return serveFault(site.fault, ctx, this.faults);
    if (serveSitemap(ctx)) return;
    const id = this.web.id(host, path);
    const latency = (id !== undefined ? this.web.pageLatencyMs?.(id) : undefined) ?? site.latencyMs;
    later(ctx, scaled(ctx, latency), () => {
      if (id === undefined) return notFound(ctx);
      const body = renderPage(this.web, id, this.listenPort);
      const v = this.validators?.headers(id, body);
      if (v && ctx.req.method === 'GET' && notModified(ctx.req, v)) {
        ctx.res.writeHead(304, { ...v });
        return void ctx.res.end();
      }
      send(ctx, 200, { 'content-type': this.web.contentType(id), ...v }, body);
    });
  }
}

const UNKNOWN_SITE: SiteInfo = {
  host: '',
  first: 0,
  count: 0,
  latencyMs: 0,
  bytesPerSec: 0,
  keepAliveMax: 100,
  robots: 'not-found',
};

/**
 * The n-th response of a connection: Connection: close at the site's keepAliveMax; before it,
 * with keepAliveHeader, Keep-Alive: max=(requests left after this one), as Apache says it.
 */
/**
 * The response's end is when the server wrote its last byte (res.end called), not when Node
 * reported 'finish': on a loaded machine that event can run milliseconds after the crawler has
 * read the last byte (3 to 5 ms seen with four workers and a broker on two cores), which made a
 * crawler that waited w look as if it had not. The last write comes before the crawler can read
 * it, so a gap measured from it is never longer than the crawler's own.
 */
function stampLastWrite(res: ServerResponse, entry: ServedRequest): void {
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  (res as { end: (...args: unknown[]) => ServerResponse }).end = (...args: unknown[]) => {
    if (Number.isNaN(entry.tEnd)) entry.tEnd = now();
    return end(...args);
  };
}

function sayKeepAlive(res: ServerResponse, site: SiteInfo, n: number, timeoutMs: number): void {
  if (n >= site.keepAliveMax) return void res.setHeader('Connection', 'close');
  if (!site.keepAliveHeader) return;
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('Keep-Alive', `timeout=${Math.round(timeoutMs / 1000)}, max=${site.keepAliveMax - n}`);
}

const LOOPBACK_V4 = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * A loopback address per host: a host that is a 127.x.y.z literal listens on itself; the
 * others get 127.1.0.1, 127.1.0.2, ... in order (last octet 1..254, skipping literals
 * already taken). Linux routes all of 127.0.0.0/8 to the loopback interface, so no setup.
 */
export function siteAddresses(hosts: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<string>();
  for (const h of hosts) {
    const m = LOOPBACK_V4.exec(h);
    if (m && [m[1], m[2], m[3]].every((x) => Number(x) <= 255)) {
      out.set(h.toLowerCase(), h);
      taken.add(h);
    }
  }
  let k = 0;
  const next = (): string => {
    for (;;) {
      const n = k++;
      const a = `127.${1 + Math.floor(n / (256 * 254))}.${Math.floor(n / 254) % 256}.${(n % 254) + 1}`;
      if (!taken.has(a)) return a;
    }
  };
  for (const h of hosts) if (!out.has(h.toLowerCase())) out.set(h.toLowerCase(), next());
  return out;
}

function stripPort(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1);
  const colon = hostHeader.lastIndexOf(':');
  return colon < 0 ? hostHeader : hostHeader.slice(0, colon);
}
