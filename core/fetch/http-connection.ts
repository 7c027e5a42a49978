import { Client, errors as undiciErrors, type buildConnector } from 'undici';
import { CrawlError, ErrorCodes, type ErrorCode } from '../errors.js';
import type { BandwidthLimiter } from './bandwidth.js';
import { Connector, type TlsOutcome } from './connector.js';
import type { BodySink, Connection, FetchLimits, FetchResponse } from './interfaces.js';
import { ConnectionStatement } from './keep-alive.js';

/**
 * One HTTP/1.1 connection to one origin: an undici Client limited to a single socket, so
 * "at most one open connection per site" holds by construction. Requests are pipelined up to
 * `limits.pipeliningDepth` (default 1: none, each sent after the last response). When the
 * server ends keep-alive (Connection: close, or closes the socket) the connection reports
 * `open = false` and the caller stops using it; undici's attempt to send what was queued
 * behind over a second socket is refused (that would bypass w), those requests failing as
 * CRAWL_CONNECTION_RESET. What the server says about the connection is kept (`stated`,
 * `pipelined`: docs/design.md section 3.4).
 */
export class HttpConnection implements Connection {
  private readonly client: Client;
  private connectStarted = 0;
  private closedByPeer = false;
  private connected = false;
  connectMs: number | null = null;
  requests = 0;
  /** Over https, the certificate as found when the connection was established (null before, and for http). */
  tls: TlsOutcome | null = null;
  /**
   * The whole-request deadline (requestTimeout): one timer per connection, re-armed per
   * request, that destroys the client when it fires. An AbortSignal.timeout per request (a
   * timer, a signal and its listeners each time) cost ~3% of a fast crawl.
   */
  private deadline: NodeJS.Timeout | null = null;
  /** Path of the request in progress, null between requests. */
  private current: string | null = null;
  private readonly hostHeader: string;
  private readonly said = new ConnectionStatement();
  /** Requests sent and not yet answered in full. */
  private outstanding = 0;
  /** Epoch ms when the last complete response ended (responses come in order). */
  private lastEndedAt = 0;
  private readonly depth: number;

  constructor(
    readonly origin: string,
    address: string,
    private readonly limits: FetchLimits,
    private readonly userAgent: string,
    private readonly limiter: BandwidthLimiter | null,
    /** The crawl's connector (shared: TLS sessions resume across connections); default: one of its own, --tls record. */
    connector: Connector = new Connector({ connectTimeout: limits.connectTimeout, tls: 'record', ca: [] }),
  ) {
    this.depth = limits.pipeliningDepth ?? 1;
    this.client = new Client(origin, {
      // To the resolved address whatever the host name, the TLS outcome kept for the site.
      connect: oneSocket(
        connector.to(address, (outcome) => {
          this.tls = outcome;
        }),
        origin,
      ),
      headersTimeout: limits.headersTimeout,
      bodyTimeout: limits.bodyTimeout,
      keepAliveTimeout: 15_000,
      pipelining: this.depth,
    });
    this.client.on('connect', () => {
      this.connected = true;
      if (this.connectMs === null) this.connectMs = performance.now() - this.connectStarted;
    });
    this.client.on('disconnect', () => {
      if (this.connected) this.closedByPeer = true;
    });
    this.hostHeader = new URL(origin).host;
  }

  private armDeadline(path: string): void {
    this.current = path;
    if (this.deadline) {
      this.deadline.refresh();
      return;
    }
    this.deadline = setTimeout(() => {
      if (this.current === null) return;
      this.closedByPeer = true;
      const err = new CrawlError(ErrorCodes.FETCH_TIMEOUT, `${this.origin}${this.current}: no complete response in ${this.limits.requestTimeout} ms`);
      this.client.destroy(err).catch(() => {});
    }, this.limits.requestTimeout);
    this.deadline.unref();
  }

  get open(): boolean {
    return !this.closedByPeer;
  }

  /** Requests the server said it allows over this connection (Keep-Alive: max, Connection: close); null if it said neither. */
  get stated(): number | null {
    return this.said.allowed;
  }

  /** A request sent before the previous response was complete was answered in full: the server pipelines. */
  get pipelined(): boolean {
    return this.said.pipelined;
  }

  async request(path: string, extra?: Record<string, string>): Promise<FetchResponse> {
    if (this.closedByPeer) throw new CrawlError(ErrorCodes.CONNECTION_RESET, `${this.origin}: connection already closed`);
    const startedAt = performance.timeOrigin + performance.now();
    if (this.requests === 0) this.connectStarted = performance.now();
    this.requests++;
    const base = {
      'user-agent': this.userAgent,
      accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
      'accept-encoding': 'gzip, deflate, br',
    };
    const headers = extra ? { ...base, ...extra } : base;
    this.armDeadline(path);
    const overlapped = this.outstanding++ > 0 && this.depth > 1;
    try {
      return await this.fetch(path, headers, startedAt, undefined, overlapped);
    } finally {
      if (--this.outstanding === 0) this.current = null;
    }
  }

  /** A GET whose body goes to `sink` as it arrives (Connection.stream); the response's body is empty. */
  async stream(path: string, sink: BodySink): Promise<FetchResponse> {
    if (this.closedByPeer) throw new CrawlError(ErrorCodes.CONNECTION_RESET, `${this.origin}: connection already closed`);
    const startedAt = performance.timeOrigin + performance.now();
    if (this.requests === 0) this.connectStarted = performance.now();
    this.requests++;
    const headers = { 'user-agent': this.userAgent, accept: 'application/xml,text/xml;q=0.9,*/*;q=0.5', 'accept-encoding': 'gzip, deflate, br' };
    this.armDeadline(path);
    const overlapped = this.outstanding++ > 0 && this.depth > 1;
    try {
      return await this.fetch(path, headers, startedAt, sink, overlapped);
    } finally {
      if (--this.outstanding === 0) this.current = null;
    }
  }

  private async fetch(path: string, headers: Record<string, string>, startedAt: number, sink?: BodySink, overlapped = false): Promise<FetchResponse> {
    let res;
    try {
      // Raw headers only when captured: the crawl's hot path keeps undici's parsed object.
      // blocking: false lets undici send the next request before this one's headers (pipelining).
      const req = { path, method: 'GET' as const, headers, ...(this.depth > 1 ? { blocking: false } : {}) };
      res = await this.client.request(this.limits.captureRaw ? { ...req, responseHeaders: 'raw' as const } : req);
    } catch (err) {
      this.closedByPeer = true;
      throw mapError(err, this.origin + path);
    }
    const headersAt = performance.timeOrigin + performance.now();
    let raw: FetchResponse['raw'];
    let parsed = res.headers as Record<string, string | string[] | undefined>;
    if (Array.isArray(res.headers)) {
      raw = { statusText: res.statusText ?? '', headers: res.headers as unknown as string[] };
      parsed = headerObject(raw.headers);
    }
    sink?.head(res.statusCode, parsed);
    const chunks: Buffer[] = [];
    let size = 0;
    const max = sink ? sink.maxBytes : this.limits.maxBodyBytes;
    try {
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > max) {
          res.body.destroy();
          this.closedByPeer = true;
          throw new CrawlError(ErrorCodes.BODY_TOO_LARGE, `${this.origin}${path}: body exceeds ${max} bytes`);
        }
        if (!sink) chunks.push(chunk as Buffer);
        else if (!(await sink.chunk(chunk as Buffer))) {
          // Nothing more wanted: the rest is never read, so the connection cannot be used again.
          res.body.destroy();
          this.closedByPeer = true;
          break;
        }
        if (this.limiter) await this.limiter.take((chunk as Buffer).length);
      }
    } catch (err) {
      this.closedByPeer = true;
      throw mapError(err, this.origin + path);
    }
    const endedAt = performance.timeOrigin + performance.now();
    if (this.said.answer(parsed, overlapped)) this.closedByPeer = true;
    // The transfer on the wire: from the request (after the connection was made, for the first)
    // or the end of the response before it, whichever is later, to the last byte.
    const from = Math.max(startedAt + (this.said.answered === 1 ? (this.connectMs ?? 0) : 0), this.lastEndedAt);
    this.lastEndedAt = endedAt;
    const contentType = parsed['content-type'];
    const host = this.hostHeader;
    return {
      status: res.statusCode,
      headers: parsed,
      ...(raw ? { raw } : {}),
      body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, sink ? 0 : size),
      contentType: typeof contentType === 'string' ? contentType : null,
      startedAt,
      headersAt,
      endedAt,
      transferMs: Math.max(0, endedAt - from),
      // Built only when asked for (the content store): most crawls never read it. The lines
      // undici 7 writes for a GET over a kept-alive connection (client-h1.js writeH1): host,
      // connection, then ours in order; test/export checks it against what a server received.
      get rawRequest() {
        return `GET ${path} HTTP/1.1\r\nhost: ${host}\r\nconnection: keep-alive\r\n` + Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('') + '\r\n';
      },
    };
  }

  async close(): Promise<void> {
    if (this.deadline) clearTimeout(this.deadline);
    this.closedByPeer = true; // not open any more, to whoever still holds it
    try {
      // One shared error: undici otherwise makes a new one (and formats its stack) per close.
      await this.client.destroy(CLOSED);
    } catch {
      /* already closed */
    }
  }
}

const CLOSED = new undiciErrors.ClientDestroyedError();

/**
 * A connect function that makes one socket and refuses a second: undici sends requests left
 * queued behind a closed connection over a new one, which would be a second connection to
 * the site without w. Refused, they fail (their pages go back to the scheduler).
 */
function oneSocket(connect: buildConnector.connector, origin: string): buildConnector.connector {
  let made = false;
  return (options, callback) => {
    if (made) return callback(new CrawlError(ErrorCodes.CONNECTION_RESET, `${origin}: the server closed the connection before answering`), null);
    made = true;
    return connect(options, callback);
  };
}

/** undici's parsed header object (lower-case names, repeats as arrays) from raw [name, value...] pairs. */
function headerObject(raw: string[]): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = Object.create(null) as Record<string, string | string[] | undefined>;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = raw[i + 1]!;
    const prev = out[name];
    if (prev === undefined) out[name] = value;
    else if (Array.isArray(prev)) prev.push(value);
    else out[name] = [prev, value];
  }
  return out;
}

function mapError(err: unknown, url: string): CrawlError {
  if (err instanceof CrawlError) return err;
  const e = err as { code?: string; name?: string; message?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code ?? '';
  const map: Record<string, ErrorCode> = {
    UND_ERR_CONNECT_TIMEOUT: ErrorCodes.CONNECT_TIMEOUT,
    UND_ERR_HEADERS_TIMEOUT: ErrorCodes.HEADERS_TIMEOUT,
    UND_ERR_BODY_TIMEOUT: ErrorCodes.BODY_TIMEOUT,
    UND_ERR_SOCKET: ErrorCodes.CONNECTION_RESET,
    UND_ERR_CLOSED: ErrorCodes.CONNECTION_RESET,
    UND_ERR_RES_EXCEEDED_MAX_SIZE: ErrorCodes.BODY_TOO_LARGE,
    ECONNREFUSED: ErrorCodes.CONNECT_REFUSED,
    ECONNRESET: ErrorCodes.CONNECTION_RESET,
    EPIPE: ErrorCodes.CONNECTION_RESET,
    ETIMEDOUT: ErrorCodes.CONNECT_TIMEOUT,
    ENOTFOUND: ErrorCodes.DNS_FAILURE,
    EAI_AGAIN: ErrorCodes.DNS_FAILURE,
    EHOSTUNREACH: ErrorCodes.CONNECT_REFUSED,
    ENETUNREACH: ErrorCodes.CONNECT_REFUSED,
  };
  let mapped = map[code];
  if (!mapped && (e.name === 'AbortError' || e.name === 'TimeoutError' || err instanceof undiciErrors.RequestAbortedError)) {
    mapped = ErrorCodes.FETCH_TIMEOUT;
  }
  return new CrawlError(mapped ?? ErrorCodes.CONNECTION_RESET, `${url}: ${e.message ?? String(err)}${code ? ` (${code})` : ''}`, {
    cause: err,
  });
}
