/**
 * Browser-mode transport, client half: the contract over one WebSocket. Written against the
 * standard WebSocket interface, so the browser's own and the `ws` package's both work.
 */
import type { CrawlbenchApi } from './contract.js';
import { createApiClient, messageLink } from './rpc-client.js';
import { isRpcMessage } from './rpc.js';

interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  addEventListener(type: 'open' | 'close' | 'error', cb: () => void): void;
  addEventListener(type: 'message', cb: (e: { data: unknown }) => void): void;
}
type WebSocketCtor = new (url: string) => WebSocketLike;

export interface WsConnection {
  api: CrawlbenchApi;
  close(): void;
  /** Resolves when the socket closes (server gone, token refused). */
  closed: Promise<void>;
}

export function connectWebSocket(url: string, Ctor?: WebSocketCtor): Promise<WsConnection> {
  const WS = Ctor ?? (globalThis as unknown as { WebSocket: WebSocketCtor }).WebSocket;
  const socket = new WS(url);
  const link = messageLink((msg) => socket.send(JSON.stringify(msg)));
  socket.addEventListener('message', (e) => {
    let msg: unknown;
    try {
      msg = JSON.parse(String(e.data));
    } catch {
      return; // not ours
    }
    if (isRpcMessage(msg)) link.receive(msg);
  });
  const closed = new Promise<void>((resolve) =>
    socket.addEventListener('close', () => {
      link.fail(Object.assign(new Error('connection to crawlbench closed'), { code: 'CRAWL_DISCONNECTED' }));
      resolve();
    }),
  );
  return new Promise((resolve, reject) => {
    socket.addEventListener('open', () => resolve({ api: createApiClient(link), close: () => socket.close(), closed }));
    socket.addEventListener('error', () => reject(new Error(`cannot connect to ${url.replace(/token=[^&]+/, 'token=…')}`)));
  });
}
