/**
 * The fetch layer's contract, in a file of its own so that the fetcher, the connection that
 * implements it and the engine that uses both depend on it and not on each other (the fetcher
 * builds HttpConnections, which once imported these types back from the fetcher: a cycle).
 */

import type { TlsOutcome } from './connector.js';

/** What came back for one request. Times are epoch ms (performance clock). */
export interface FetchResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as received (still content-encoded). */
  body: Buffer;
  contentType: string | null;
  startedAt: number;
  headersAt: number;
  endedAt: number;
  /**
   * Time on the wire for this response alone, in ms: to its last byte from its request (after
   * the connection was made) or from the end of the response before it on a pipelined
   * connection, whichever is later. The crawl-ability paper's ResponseTime (docs/design.md
   * section 3.4). Absent: endedAt - startedAt.
   */
  transferMs?: number;
  rawRequest?: string;
  /**
   * The response head as received, only when the connection captures it (a crawl that
   * stores content): the reason phrase and the header lines in their order, case and
   * repeats, as [name, value, name, value...] (values latin1, byte for byte).
   */
  raw?: { statusText: string; headers: string[] };
}

/**
 * One connection to one origin; requests go over it back to back, or pipelined (sent before
 * the previous response is complete, answered in order) when the crawl asks for it.
 */
export interface Connection {
  readonly origin: string;
  /** False once the server ended keep-alive: no further request may use this connection. */
  readonly open: boolean;
  /** Requests the server said it allows over this connection (Keep-Alive: max, Connection: close), null if it said neither. */
  readonly stated?: number | null;
  /** A pipelined request was answered in full over this connection. */
  readonly pipelined?: boolean;
  /** Time to establish the connection, once it is established. */
  readonly connectMs: number | null;
  /** Over https, the certificate as found when the connection was established (absent or null otherwise). */
  readonly tls?: TlsOutcome | null;
  /**
   * `headers`: more request headers (a conditional recrawl's If-None-Match, If-Modified-Since).
   * `maxBytes`: most bytes of the body to read for this request in place of the crawl's limit
   * (robots.txt: read up to its own, whatever --max-body-size says).
   */
  request(pathAndQuery: string, headers?: Record<string, string>, maxBytes?: number): Promise<FetchResponse>;
  /**
   * A GET whose body goes to `sink` piece by piece as it arrives instead of being kept (the
   * response's body is empty): for bodies read as a stream (sitemaps, up to 50 MB). When the
   * sink stops reading, the rest of the body is not read and the connection is closed. A
   * connection without it: request(), its body handed to the sink whole. `accept`: the
   * Accept header (default: XML first, as a sitemap is).
   */
  stream?(pathAndQuery: string, sink: BodySink, accept?: string): Promise<FetchResponse>;
  close(): Promise<void>;
}

/** Takes a body as it arrives (Connection.stream). */
export interface BodySink {
  /** Most bytes to read: past it the request fails with CRAWL_BODY_TOO_LARGE (unless the sink has cut). */
  readonly maxBytes: number;
  /**
   * With it, a body longer than maxBytes is cut there instead of refused: the piece that passes
   * it and the rest are not read (the connection is closed), and this is told once the pieces
   * before have been handed over.
   */
  onCut?(): void;
  /** The status and headers, before the body. */
  head(status: number, headers: Record<string, string | string[] | undefined>): void;
  /** One piece of the body as received (still content-encoded); resolves false to read no more. */
  chunk(data: Buffer): Promise<boolean>;
}

/**
 * How the crawl reaches the network. The scheduler decides when to connect and how many
 * pages to take; the fetcher decides how. Injected, so that the simulator can replace it
 * with a simulated network on a virtual clock.
 */
export interface Fetcher {
  /** Resolves the host and prepares a connection (the socket opens with the first request). */
  connect(origin: string): Promise<Connection>;
  /** The address the host resolves to (for per-IP politeness). */
  address(host: string): Promise<string>;
}

export interface FetchLimits {
  /** Keep each response's head as received (FetchResponse.raw); costs a little per request, so only when content is stored. */
  captureRaw?: boolean;
  /** Requests sent over a connection before their responses (HTTP/1.1 pipelining); default 1, none. */
  pipeliningDepth?: number;
  connectTimeout: number;
  headersTimeout: number;
  bodyTimeout: number;
  requestTimeout: number;
  maxBodyBytes: number;
}
