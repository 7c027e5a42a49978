/**
 * Browser-mode transport, server half: the contract over WebSocket at /api, on an existing
 * HTTP server. Before any frame is exchanged the upgrade must name this server in its Host
 * header (else 403: DNS rebinding), come from one of its origins or from a client that sends
 * no Origin (else 403: another page, another port included), and carry the token (query
 * ?token= or the session cookie; else 401). A refused upgrade gets a status and a closed socket.
 *
 * No message can take the server down, nor any socket but its own (issue 23):
 * - a message over API_LIMITS.messageBytes closes its socket with 1009 and a reason naming
 *   the limit. ws itself is given a higher cap (hardMessageBytes) so that crawlbench reads
 *   such a message and can say why; a message declared past that hard cap is refused by ws
 *   unread (no memory spent on it): ws closes the socket with 1009 and no reason, then emits
 *   'error', which is logged here (the client still knows the limit from the code);
 * - a binary frame closes its socket with 1003, text that is not JSON with 1007;
 * - JSON that is not a call is answered with CRAWL_BAD_OPTION (rpc-server.ts), and a method
 *   that fails in a way it did not mean is answered with CRAWL_INTERNAL and logged;
 * - every socket has an 'error' handler (a broken frame, a reset), which logs and lets ws
 *   close that socket only.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { CrawlbenchApi } from './contract.js';
import { API_LIMITS, tooLargeReason } from './limits.js';
import { answerError, dispatch, forwardEvents } from './rpc-server.js';
import type { RpcMessage } from './rpc.js';
import { foreignRequest, requestAuthorized } from './token.js';

export interface WsApiOptions {
  token: string;
  /** Origins allowed to open the socket (browsers send Origin; other clients may omit it). */
  allowedOrigins: () => string[];
  /** Host header values that name this server (host:port). */
  allowedHosts: () => string[];
  /** Told of internal errors and socket errors, one line each (default: console.error). */
  log?: (line: string) => void;
  /** API_LIMITS.eventBacklogBytes unless given (tests lower it). */
  eventBacklogBytes?: number;
}

/** Close codes (RFC 6455 7.4.1). */
export const CLOSE_UNSUPPORTED = 1003;
export const CLOSE_NOT_JSON = 1007;
export const CLOSE_TOO_LARGE = 1009;

export function attachWebSocketApi(server: Server, api: CrawlbenchApi, opts: WsApiOptions): { close(): void } {
  const log = opts.log ?? ((line: string) => console.error(line));
  const wss = new WebSocketServer({ noServer: true, maxPayload: API_LIMITS.hardMessageBytes });
  wss.on('error', (err) => log(`WebSocket server error: ${err.message}`));
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node's HTTP server lets go of an upgraded socket: a reset while it is refused must not
    // reach the process as an unhandled 'error'.
    socket.on('error', () => socket.destroy());
    const path = (req.url ?? '').split('?')[0];
    if (!opts.allowedHosts().includes(req.headers.host ?? '') || foreignRequest(req, opts.allowedOrigins()) !== null) {
      return refuse(socket, '403 Forbidden');
    }
    if (path !== '/api' || !requestAuthorized(req, opts.token)) return refuse(socket, '401 Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws, api, log, opts.eventBacklogBytes ?? API_LIMITS.eventBacklogBytes));
  };
  server.on('upgrade', onUpgrade);
  return {
    close() {
      server.off('upgrade', onUpgrade);
      for (const c of wss.clients) c.terminate();
      wss.close();
    },
  };
}

function refuse(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

function byteLength(raw: RawData): number {
  if (Array.isArray(raw)) return raw.reduce((n, b) => n + b.length, 0);
  return (raw as Buffer | ArrayBuffer).byteLength;
}

function serveSocket(ws: WebSocket, api: CrawlbenchApi, log: (line: string) => void, eventBacklogBytes: number): void {
  /** Events skipped since the client last read enough (told in the log once per stretch). */
  let skipped = 0;
  /** `method`: what the message answers, named in the log if JSON cannot hold it. */
  const send = (msg: RpcMessage, method = 'an event') => {
    if (ws.readyState !== ws.OPEN) return;
    if (msg.kind === 'event') {
      // A client that does not read: its events wait in this server's memory. Each is
      // superseded by the next (stats, progress), so they are skipped until it catches up.
      if (ws.bufferedAmount > eventBacklogBytes) {
        if (skipped++ === 0) log(`a WebSocket client has ${ws.bufferedAmount} bytes unread: its events are skipped until it reads them`);
        return;
      }
      if (skipped > 0) log(`a WebSocket client caught up: ${skipped} events were skipped`);
      skipped = 0;
    }
    let text: string;
    try {
      text = JSON.stringify(msg);
    } catch (err) {
      // A result that JSON cannot hold (a BigInt, a cycle): the caller gets an answer all the same.
      const error = answerError(err, method, log);
      if (msg.kind === 'event') return;
      text = JSON.stringify({ kind: 'error', ...(msg.id === undefined ? {} : { id: msg.id }), error } satisfies RpcMessage);
    }
    ws.send(text);
  };
  const stop = forwardEvents(api, send);
  ws.on('close', stop);
  ws.on('error', (err: Error & { code?: string }) => {
    // ws closes the socket itself (1009 for a message past the hard cap, 1002 for a broken frame).
    const what = err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' ? `a message over ${API_LIMITS.hardMessageBytes / 1024 ** 2} MiB was refused unread` : err.message;
    log(`WebSocket error (${err.code ?? 'no code'}): ${what}; that socket is closed, the others carry on`);
  });
  ws.on('message', (raw, isBinary) => {
    void answer(raw, isBinary).catch((err: unknown) => log(`internal error in the WebSocket handler: ${(err as Error)?.message ?? String(err)}`));
  });

  async function answer(raw: RawData, isBinary: boolean): Promise<void> {
    const size = byteLength(raw);
    if (size > API_LIMITS.messageBytes) return ws.close(CLOSE_TOO_LARGE, tooLargeReason(size));
    if (isBinary) return ws.close(CLOSE_UNSUPPORTED, 'binary frames are not API calls: send JSON text');
    let msg: unknown;
    try {
      msg = JSON.parse(raw.toString());
    } catch {
      return ws.close(CLOSE_NOT_JSON, 'not JSON');
    }
    // Any JSON is answered: a call with its result or error, anything else with why it is not a call.
    const name = (msg as { name?: unknown } | null)?.name;
    send(await dispatch(api, msg as RpcMessage, { log }), typeof name === 'string' ? name.slice(0, 64) : 'a call');
  }
}
