/**
 * Builds a CrawlbenchApi out of any link that can carry RpcMessages. Browser-safe, so the
 * renderer (browser mode), the Electron preload and the tests all use this same client: the
 * contract tests exercise the code that ships.
 */
import { API_EVENTS, API_METHODS, type ApiEvent, type CrawlbenchApi, type Unsubscribe } from './contract.js';
import { ApiError, type RpcMessage } from './rpc.js';

export interface ClientLink {
  /** Sends a call and resolves with its result or error message. */
  call(msg: RpcMessage): Promise<RpcMessage>;
  /** Delivers event messages pushed by the server. */
  onEvent(cb: (msg: RpcMessage) => void): void;
}

export function createApiClient(link: ClientLink): CrawlbenchApi {
  let nextId = 1;
  const listeners = new Map<ApiEvent, Set<(payload: never) => void>>();
  link.onEvent((msg) => {
    const set = listeners.get(msg.name as ApiEvent);
    if (set) for (const cb of [...set]) cb(msg.data as never);
  });
  const subscribe = (event: ApiEvent, cb: (payload: never) => void): Unsubscribe => {
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    set.add(cb);
    return () => void set.delete(cb);
  };
  // A plain object with own properties (not a Proxy): contextBridge copies own properties only.
  const api: Record<string, unknown> = {};
  for (const name of API_METHODS) {
    api[name] = async (...args: unknown[]) => {
      const reply = await link.call({ kind: 'call', id: nextId++, name, data: args });
      if (reply.kind === 'error') throw new ApiError(reply.error ?? { name: 'Error', code: 'CRAWL_INTERNAL', message: 'unknown error' });
      return reply.data;
    };
  }
  for (const [event, method] of Object.entries(API_EVENTS)) {
    api[method] = (cb: (payload: never) => void) => subscribe(event as ApiEvent, cb);
  }
  return api as unknown as CrawlbenchApi;
}

/**
 * A ClientLink over a message pipe (WebSocket, MessagePort): calls are matched to replies
 * by id. `fail` rejects every pending call, e.g. when the socket closes.
 */
export function messageLink(send: (msg: RpcMessage) => void): ClientLink & { receive(msg: RpcMessage): void; fail(err: Error): void } {
  const pending = new Map<number, { resolve: (m: RpcMessage) => void; reject: (e: Error) => void }>();
  let onEvent: (msg: RpcMessage) => void = () => {};
  let closed: Error | null = null;
  return {
    call(msg) {
      if (closed) return Promise.reject(closed);
      return new Promise((resolve, reject) => {
        pending.set(msg.id!, { resolve, reject });
        try {
          send(msg);
        } catch (err) {
          pending.delete(msg.id!);
          reject(err as Error);
        }
      });
    },
    onEvent(cb) {
      onEvent = cb;
    },
    receive(msg) {
      if (msg.kind === 'event') return onEvent(msg);
      const p = pending.get(msg.id ?? -1);
      if (!p) return;
      pending.delete(msg.id!);
      p.resolve(msg);
    },
    fail(err) {
      closed = err;
      for (const p of pending.values()) p.reject(err);
      pending.clear();
    },
  };
}
