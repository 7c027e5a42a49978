/**
 * What the test web saw, for tests and benchmarks to check a crawler's politeness and
 * keep-alive use against: one record per request (kept in memory and/or appended as NDJSON)
 * and one per connection.
 */
import { createWriteStream, type WriteStream } from 'node:fs';

/**
 * Epoch milliseconds with sub-millisecond resolution. The crawler's RealClock uses the same
 * formula, so times from both ends can be compared directly.
 */
export function now(): number {
  return performance.timeOrigin + performance.now();
}

export interface ServedRequest {
  /** When the request arrived. */
  t: number;
  /** When the server wrote the response's last byte (res.end called), or when it was cut off ('close'). */
  tEnd: number;
  /** Host header without port, lower-case. */
  host: string;
  connId: number;
  /** Path and query as requested. */
  path: string;
  method: string;
  /** 0 when the connection closed before headers were sent (stalls, resets). */
  status: number;
  /** Body bytes written. */
  bytes: number;
  /** 'https' for a request over TLS (absent for plain HTTP); method 'TLS' marks a handshake that never reached HTTP. */
  scheme?: 'https';
}

export interface ConnRecord {
  connId: number;
  /** Host of the connection's first request ('' until one arrives). */
  host: string;
  openedAt: number;
  closedAt: number | null;
  requests: number;
  /** Requests that arrived before the response to an earlier one on this connection had finished: pipelined. */
  overlapped: number;
  /** Responses under way (internal: started and not yet finished). */
  unfinished: number;
}

export class RequestLog {
  readonly requests: ServedRequest[] = [];
  private file: WriteStream | undefined;

  constructor(
    private readonly memory: boolean,
    logFile?: string,
  ) {
    if (logFile) this.file = createWriteStream(logFile, { flags: 'a' });
  }

  add(r: ServedRequest): void {
    if (this.memory) this.requests.push(r);
    this.file?.write(JSON.stringify(r) + '\n');
  }

  async close(): Promise<void> {
    const f = this.file;
    this.file = undefined;
    if (f) await new Promise<void>((resolve) => f.end(resolve));
  }
}
