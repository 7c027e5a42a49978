/**
 * The serving half of every transport: dispatches a call message to an implementation of
 * the contract (the engine, or a client of the engine in another process), and forwards its
 * events. Only names listed in API_METHODS are ever called.
 */
import { API_EVENTS, API_METHODS, type CrawlbenchApi } from './contract.js';
import { toWireError, type RpcMessage } from './rpc.js';

const METHODS: ReadonlySet<string> = new Set(API_METHODS);

export async function dispatch(api: CrawlbenchApi, msg: RpcMessage): Promise<RpcMessage> {
  const id = msg.id;
  try {
    if (msg.kind !== 'call' || typeof msg.name !== 'string' || !METHODS.has(msg.name)) {
      throw Object.assign(new Error(`unknown method ${String(msg.name)}`), { name: 'CrawlError', code: 'CRAWL_BAD_OPTION' });
    }
    const args = Array.isArray(msg.data) ? msg.data : [];
    const fn = (api as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[msg.name]!;
    const value = await fn.apply(api, args);
    return { kind: 'result', id, data: value === undefined ? null : value };
  } catch (err) {
    return { kind: 'error', id, error: toWireError(err) };
  }
}

/** Forwards every event of `api` as an event message; returns the function that stops it. */
export function forwardEvents(api: CrawlbenchApi, push: (msg: RpcMessage) => void): () => void {
  const offs: Array<() => void> = [];
  // Every event is part of the contract: an implementation without one fails here, not silently.
  for (const [event, method] of Object.entries(API_EVENTS)) {
    const subscribe = (api as unknown as Record<string, (cb: (d: unknown) => void) => () => void>)[method]!;
    offs.push(subscribe.call(api, (data) => push({ kind: 'event', name: event, data })));
  }
  return () => offs.forEach((off) => off());
}
