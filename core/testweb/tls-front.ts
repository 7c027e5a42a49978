/**
 * The test web's front door when some of its sites are on TLS: one port answers both schemes.
 * A connection's first byte says which (22, a TLS handshake record, or the first letter of an
 * HTTP request line); plain HTTP goes straight to the HTTP server, TLS through a handshake
 * first, its certificate chosen by SNI (or, for a client that names no host, by the address
 * it connected to), and the decrypted socket then to the same HTTP server, so that routing,
 * keep-alive and the request log are shared by both schemes.
 *
 * The TLS fault sites go wrong here: tls-handshake-fail refuses the handshake (an alert),
 * tls-handshake-stall never answers the ClientHello; the certificate faults are only other
 * certificates (tls-certs.ts). A TLS connection that never gets to HTTP (a handshake that
 * failed, or a client that refused the certificate) is still logged (method 'TLS', status 0),
 * so politeness checks count its connection.
 */
import type { Socket } from 'node:net';
import tls from 'node:tls';
import { isTlsFault } from './fault-kinds.js';
import type { TestCa } from './tls-certs.js';
import { isTlsSite, type SiteInfo } from './web.js';

/** A handshake not done by then is cut (a client's connect timeout is far shorter). */
const HANDSHAKE_LIMIT_MS = 60_000;
/** The TLS record type of a handshake: a ClientHello's first byte. */
const HANDSHAKE_RECORD = 0x16;

export interface TlsFrontHooks {
  siteByHost(host: string): SiteInfo | undefined;
  /** The host a connection to this local address is for, when sites are bound per address. */
  hostByAddress(address: string): string | undefined;
  /** Hands a plain socket, or a decrypted one (with the TCP socket under it), to the HTTP server. */
  serve(socket: Socket, raw: Socket | null): void;
  /** A TLS connection closed (its TCP socket, and the host it named or was for): logged if it never got to HTTP. */
  closed(raw: Socket, host: string): void;
}

export class TlsFront {
  constructor(
    private readonly ca: TestCa,
    private readonly hooks: TlsFrontHooks,
  ) {}

  /** Reads a new connection's first byte, puts it back, and sends the connection on by scheme. */
  accept(socket: Socket): void {
    socket.once('data', (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      if (first[0] === HANDSHAKE_RECORD) this.handshake(socket);
      else {
        this.hooks.serve(socket, null);
        socket.resume();
      }
    });
  }

  private handshake(raw: Socket): void {
    const local = (raw.localAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
    const fallback = this.hooks.hostByAddress(local) ?? local;
    let host = fallback;
    void this.ca.context(fallback).then(
      (secureContext) => {
        if (raw.destroyed) return;
        const socket = new tls.TLSSocket(raw, {
          isServer: true,
          secureContext,
          ALPNProtocols: ['http/1.1'],
          SNICallback: (name, cb) => {
            host = name.toLowerCase();
            this.sni(host, cb);
          },
        });
        const limit = setTimeout(() => socket.destroy(), HANDSHAKE_LIMIT_MS);
        limit.unref();
        socket.once('secure', () => {
          clearTimeout(limit);
          this.hooks.serve(socket, raw);
        });
        socket.on('error', () => socket.destroy());
        socket.once('close', () => {
          clearTimeout(limit);
          this.hooks.closed(raw, host);
          raw.destroy();
        });
      },
      () => raw.destroy(),
    );
  }

  /** The certificate for a named host: refused for a host not on TLS, never answered for the stall. */
  private sni(host: string, cb: (err: Error | null, ctx?: tls.SecureContext) => void): void {
    const site = this.hooks.siteByHost(host);
    if (!site || !isTlsSite(site)) return cb(new Error(`${host} is not served over TLS`));
    const fault = isTlsFault(site.fault) ? site.fault : undefined;
    if (fault === 'tls-handshake-stall') return;
    if (fault === 'tls-handshake-fail') return cb(new Error(`${host} refuses every handshake`));
    this.ca.context(host, fault).then(
      (ctx) => cb(null, ctx),
      (err: Error) => cb(err),
    );
  }
}
