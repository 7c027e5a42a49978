/**
 * How a crawl's connections are opened: one undici connector for the whole crawl (so TLS
 * sessions are resumed across a site's connections, as a browser does), told per connection
 * which address to reach, and watching a TLS connection to name what went wrong with it.
 *
 * --tls verify: a certificate that fails verification ends the connection with its code
 * (CRAWL_TLS_EXPIRED, _UNTRUSTED, _WRONG_NAME). --tls record (the default, as archival
 * crawlers do): the connection goes on and the certificate's state is reported beside it.
 * A handshake that fails or times out is its own code in both modes (trust.ts).
 */
import type { Socket } from 'node:net';
import type { SecureContext, TLSSocket } from 'node:tls';
import { buildConnector, type ConnectCallback, type ConnectFunction, type ConnectOptions } from './undici-parts.js';
import { CrawlError, ErrorCodes, type ErrorCode } from '../errors.js';
import { certificateCode, tlsFailureCode, trustContext } from './trust.js';

export type TlsMode = 'verify' | 'record';

/** A TLS connection's certificate as found when it was established. */
export interface TlsOutcome {
  /** 'ok', or what is wrong with it (record mode: the connection was used all the same). */
  certificate: 'ok' | ErrorCode;
  /** A resumed session: the host name was not checked again (Node checks it on a full handshake only). */
  reused: boolean;
}

export interface ConnectorOptions {
  connectTimeout: number;
  tls: TlsMode;
  /** The crawl's own CAs, PEM (--ca), trusted beside the defaults. */
  ca: readonly string[];
}

/** Sessions kept for resumption, one per host name (undici's default is 100). */
const MAX_SESSIONS = 4096;

type Connect = (options: ConnectOptions, callback: ConnectCallback) => Socket | TLSSocket | undefined;

export class Connector {
  private inner: Connect | null = null;
  private context: SecureContext | null = null;

  constructor(private readonly opts: ConnectorOptions) {}

  /** undici's connector, its secure context made on first use (a crawl of http only never reads the roots). */
  private connectFn(https: boolean): Connect {
    if (this.inner) return this.inner;
    if (!https) return (this.plain ??= buildConnector({ timeout: this.opts.connectTimeout }) as unknown as Connect);
    this.context = trustContext(this.opts.ca);
    this.inner = buildConnector({
      timeout: this.opts.connectTimeout,
      secureContext: this.context,
      rejectUnauthorized: this.opts.tls === 'verify',
      maxCachedSessions: MAX_SESSIONS,
    }) as unknown as Connect;
    return this.inner;
  }
  private plain: Connect | null = null;

  /**
   * A connect function for one undici Client: to `address` whatever the host name resolves
   * to, its TLS outcome passed to `onTls`, its TLS failures as the crawl's codes.
   */
  to(address: string, onTls: (outcome: TlsOutcome) => void): ConnectFunction {
    return (options, callback) => {
      const https = options.protocol === 'https:';
      let tcpUp = false;
      const socket = this.connectFn(https)({ ...options, hostname: address }, (err, sock) => {
        if (err) {
          const code = https ? tlsFailureCode(err as { code?: string }, tcpUp) : null;
          if (code === null) return callback(err, null);
          const reason = (err as { code?: string }).code ?? err.message;
          return callback(new CrawlError(code, `${options.protocol}//${options.host ?? options.hostname}: ${err.message} (${reason})`, { cause: err }), null);
        }
        if (https) onTls(outcomeOf(sock as TLSSocket));
        callback(null, sock!);
      });
      socket?.once('connect', () => {
        tcpUp = true;
      });
    };
  }
}

function outcomeOf(socket: TLSSocket): TlsOutcome {
  const reused = socket.isSessionReused();
  if (socket.authorized) return { certificate: 'ok', reused };
  const error = socket.authorizationError as unknown;
  const code = typeof error === 'string' ? error : (error as { code?: string } | null)?.code;
  return { certificate: certificateCode(code) ?? ErrorCodes.TLS_UNTRUSTED, reused };
}
