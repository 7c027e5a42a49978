import type { IncomingHttpHeaders } from 'node:http';
import { Client, undiciErrors, type ConnectFunction, type Dispatcher } from './undici-parts.js';
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

  async request(path: string, extra?: Record<string, string>, maxBytes?: number): Promise<FetchResponse> {
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
      return await this.fetch(path, headers, startedAt, undefined, overlapped, maxBytes);
    } finally {
      if (--this.outstanding === 0) this.current = null;
    }
  }

  /** A GET whose body goes to `sink` as it arrives (Connection.stream); the response's body is empty. */
  async stream(path: string, sink: BodySink, accept = 'application/xml,text/xml;q=0.9,*/*;q=0.5'): Promise<FetchResponse> {
    if (this.closedByPeer) throw new CrawlError(ErrorCodes.CONNECTION_RESET, `${this.origin}: connection already closed`);
    const startedAt = performance.timeOrigin + performance.now();
    if (this.requests === 0) this.connectStarted = performance.now();
    this.requests++;
    const headers = { 'user-agent': this.userAgent, accept, 'accept-encoding': 'gzip, deflate, br' };
    this.armDeadline(path);
    const overlapped = this.outstanding++ > 0 && this.depth > 1;
    try {
      return await this.fetch(path, headers, startedAt, sink, overlapped);
    } finally {
      if (--this.outstanding === 0) this.current = null;
    }
  }

  private async fetch(path: string, headers: Record<string, string>, startedAt: number, sink?: BodySink, overlapped = false, maxBytes?: number): Promise<FetchResponse> {
    const url = this.origin + path;
    const res = new ResponseReader(url, sink ? sink.maxBytes : (maxBytes ?? this.limits.maxBodyBytes), sink, this.limiter);
    try {
      // blocking: false lets undici send the next request before this one's headers (pipelining).
      this.client.dispatch({ path, method: 'GET', headers, ...(this.depth > 1 ? { blocking: false } : {}) }, res);
      await res.done;
    } catch (err) {
      this.closedByPeer = true;
      throw mapError(err, url);
    }
    // Nothing more wanted by the sink: the rest was never read, so the connection cannot be used again.
    if (res.stoppedEarly) this.closedByPeer = true;
    const headersAt = res.headersAt;
    let raw: FetchResponse['raw'];
    let parsed = res.headers;
    // Raw headers only when captured: the crawl's hot path keeps undici's parsed object.
    if (this.limits.captureRaw) {
      raw = { statusText: res.statusText, headers: rawHeaderStrings(res.rawHeaders) };
      parsed = headerObject(raw.headers);
    }
    const body = res.takeBody();
    const endedAt = performance.timeOrigin + performance.now();
    if (this.said.answer(parsed, overlapped)) this.closedByPeer = true;
    // The transfer on the wire: from the request (after the connection was made, for the first)
    // or the end of the response before it, whichever is later, to the last byte.
    const from = Math.max(startedAt + (this.said.answered === 1 ? (this.connectMs ?? 0) : 0), this.lastEndedAt);
    this.lastEndedAt = endedAt;
    const contentType = parsed['content-type'];
    const host = this.hostHeader;
    return {
      status: res.status,
      headers: parsed,
      ...(raw ? { raw } : {}),
      body,
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

/** What a sink's "nothing more wanted" aborts the response with: not an error of the fetch. */
const STOPPED = new Error('the body was not wanted further');

/**
 * One response, read through undici's dispatch API (Dispatcher.dispatch with a handler): the
 * head, then the body's chunks as they come, kept in order (or handed to a sink). A page's
 * response through client.request() went through a Readable stream and an async iterator,
 * with promises and ticks per chunk: about 6% of the crawl thread's time on bench/throughput
 * and a fifth of what it allocates. Back-pressure (a sink's chunk, the bandwidth limiter) pauses
 * the parser until the step is done, except on what may be the body's last piece (see
 * onResponseData); `done` settles once, with the body read or an error.
 */
class ResponseReader implements Dispatcher.DispatchHandler {
  status = 0;
  statusText = '';
  headers: Record<string, string | string[] | undefined> = {};
  rawHeaders: readonly unknown[] = [];
  headersAt = 0;
  readonly chunks: Buffer[] = [];
  size = 0;
  /** The sink said it wanted no more, or the body was cut at its most: the response ends here, its connection with it. */
  stoppedEarly = false;
  /** The body passed a cutting sink's most (BodySink.onCut): the pieces after are not read. */
  private cutAtMax = false;
  readonly done: Promise<void>;
  private settle!: (err?: unknown) => void;
  private settled = false;
  /** The body's length as the head says (Content-Length), or null. */
  private expected: number | null = null;
  /** The body ends when the server closes the connection (neither a length nor chunks). */
  private closeDelimited = false;
  /** Pieces waiting for their step (the sink's, the limiter's), in order. */
  private readonly queue: Buffer[] = [];
  private draining = false;
  /** The parser is paused by this reader (resumed once the queue is done). */
  private paused = false;
  private ended = false;

  constructor(
    private readonly url: string,
    private readonly max: number,
    private sink: BodySink | undefined,
    private readonly limiter: BandwidthLimiter | null,
  ) {
    this.done = new Promise<void>((resolve, reject) => {
      this.settle = (err) => (err === undefined ? resolve() : reject(err));
    });
  }

  /**
   * The body read (empty for a sink's response), and the reader lets go of its pieces, the
   * head's lines and its sink: readers stayed reachable after their responses, and with them
   * the bytes of every response (ArrayBuffers peaked at 56-61 MB against 16-18 on
   * bench/throughput, 16-17 once the pieces are let go here).
   */
  takeBody(): Buffer {
    const { chunks } = this;
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.sink !== undefined ? 0 : this.size);
    chunks.length = 0;
    this.rawHeaders = [];
    this.sink = undefined;
    return body;
  }

  /** Marks the handler as of undici's controller API (Dispatcher.dispatch wraps it by this method). */
  onRequestStart(): void {}

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders, statusMessage?: string): void {
    if (statusCode < 200) return; // 1xx: informational, the response follows
    this.headersAt = performance.timeOrigin + performance.now();
    this.status = statusCode;
    this.statusText = statusMessage ?? '';
    this.headers = headers;
    this.rawHeaders = (controller.rawHeaders as unknown[] | null | undefined) ?? [];
    const length = headers['content-length'];
    this.expected = typeof length === 'string' && /^\d+$/.test(length) ? Number(length) : null;
    this.closeDelimited = this.expected === null && !/chunked/i.test(String(headers['transfer-encoding'] ?? ''));
    this.sink?.head(statusCode, headers);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    // undici's parser, resumed after a pause in the body, hands over an empty piece first:
    // paused for it too, each resume would bring another, forever.
    if (this.settled || this.cutAtMax || chunk.length === 0) return;
    this.size += chunk.length;
    if (this.size > this.max) {
      // Thrown, undici aborts the request (its socket with it) and answers onResponseError with it.
      if (this.sink?.onCut === undefined) throw new CrawlError(ErrorCodes.BODY_TOO_LARGE, `${this.url}: body exceeds ${this.max} bytes`);
      // A sink that takes a prefix: the body ends before this piece, once the queued ones are handed over.
      this.size -= chunk.length;
      this.cutAtMax = true;
      // Not within undici's callback: as a sink's "no more", which comes after an await.
      if (!this.draining) queueMicrotask(() => this.stopEarly(controller));
      return;
    }
    if (this.sink === undefined) {
      this.chunks.push(chunk);
      if (this.limiter === null) return;
    }
    this.queue.push(chunk);
    // Back-pressure: undici's parser paused until the step is done. Never on what may be the
    // body's last piece: paused there, a server closing the connection after it (Connection:
    // close, a body delimited by the close) makes undici fail an assertion in its socket's
    // 'end' handler, which nothing can catch, and the crawl's process dies. Such pieces wait
    // in the queue (at most `max` bytes) while the parser reads on.
    const last = this.closeDelimited || (this.expected !== null && this.size >= this.expected);
    if (!last && !this.paused) {
      controller.pause();
      this.paused = true;
    }
    if (!this.draining) void this.drain(controller);
  }

  onResponseEnd(): void {
    if (this.draining) this.ended = true;
    else this.finish();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.queue.length = 0;
    this.settle(error);
  }

  /** Runs the queued pieces' steps one after another; resumes the parser once none is left. */
  private async drain(controller: Dispatcher.DispatchController): Promise<void> {
    this.draining = true;
    try {
      for (let chunk = this.queue.shift(); chunk !== undefined && !this.settled; chunk = this.queue.shift()) {
        if (this.sink !== undefined && !(await this.sink.chunk(chunk))) {
          this.stopEarly(controller);
          return;
        }
        if (this.limiter !== null) await this.limiter.take(chunk.length);
      }
    } catch (err) {
      this.fail(controller, err as Error);
      return;
    } finally {
      this.draining = false;
    }
    if (this.settled) return;
    if (this.cutAtMax) this.stopEarly(controller);
    else if (this.ended) this.finish();
    else if (this.paused) {
      this.paused = false;
      controller.resume();
    }
  }

  /** The body ends here, unread past this point (the sink wants no more, or it was cut at the sink's most): the connection goes with it. */
  private stopEarly(controller: Dispatcher.DispatchController): void {
    if (this.settled) return;
    if (this.cutAtMax) this.sink?.onCut?.();
    this.stoppedEarly = true;
    this.queue.length = 0;
    this.finish();
    controller.abort(STOPPED);
  }

  private finish(): void {
    if (this.settled) return;
    this.settled = true;
    this.settle();
  }

  /** Ends the response with `err` from an asynchronous step: the socket goes with it (the rest of the body is never read). */
  private fail(controller: Dispatcher.DispatchController, err: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.queue.length = 0;
    this.settle(err);
    controller.abort(err);
  }
}

/** The head's lines as received, as strings (as client.request's responseHeaders: 'raw' gave them: names utf8, values latin1). */
function rawHeaderStrings(raw: readonly unknown[]): string[] {
  return raw.map((v, i) => (typeof v === 'string' ? v : (v as Buffer).toString(i % 2 === 0 ? 'utf8' : 'latin1')));
}

const CLOSED = new undiciErrors.ClientDestroyedError();

/**
 * A connect function that makes one socket and refuses a second: undici sends requests left
 * queued behind a closed connection over a new one, which would be a second connection to
 * the site without w. Refused, they fail (their pages go back to the scheduler).
 */
function oneSocket(connect: ConnectFunction, origin: string): ConnectFunction {
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
