/**
 * Browser-mode transport, server half: the contract over WebSocket at /api, on an existing
 * HTTP server. Before any frame is exchanged the upgrade must name this server in its Host
 * header (else 403: DNS rebinding), come from one of its origins or from a client that sends
 * no Origin (else 403: another page, another port included), and carry the token (query
 * ?token= or the session cookie; else 401). A refused upgrade gets a status and a closed socket.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { CrawlbenchApi } from './contract.js';
import { dispatch, forwardEvents } from './rpc-server.js';
import { isRpcMessage, type RpcMessage } from './rpc.js';
import { foreignRequest, requestAuthorized } from './token.js';

export interface WsApiOptions {
  token: string;
  /** Origins allowed to open the socket (browsers send Origin; other clients may omit it). */
  allowedOrigins: () => string[];
  /** Host header values that name this server (host:port). */
  allowedHosts: () => string[];
}

export function attachWebSocketApi(server: Server, api: CrawlbenchApi, opts: WsApiOptions): { close(): void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 * 1024 });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0];
    if (!opts.allowedHosts().includes(req.headers.host ?? '') || foreignRequest(req, opts.allowedOrigins()) !== null) {
      return refuse(socket, '403 Forbidden');
    }
    if (path !== '/api' || !requestAuthorized(req, opts.token)) return refuse(socket, '401 Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => serveSocket(ws, api));
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

function serveSocket(ws: WebSocket, api: CrawlbenchApi): void {
  const send = (msg: RpcMessage) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(msg));
  };
  const stop = forwardEvents(api, send);
  ws.on('close', stop);
  ws.on('message', async (raw) => {
    let msg: unknown;
    try {
      msg = JSON.parse(raw.toString());
    } catch {
      return ws.close(1003, 'not JSON');
    }
    if (!isRpcMessage(msg) || msg.kind !== 'call') return;
    send(await dispatch(api, msg));
  });
}
