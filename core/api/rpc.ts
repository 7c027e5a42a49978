/**
 * The one message shape every transport carries (WebSocket, Electron IPC, the utility
 * process's MessagePort). Browser-safe: no Node imports.
 */
import type { ApiEvent, WireError } from './contract.js';

export interface RpcMessage {
  /**
   * call, result, error: the API, page to engine; event: engine to page; host-call,
   * host-result, host-error: the engine asking its host (HostCapabilities) and the answer.
   */
  kind: 'call' | 'result' | 'error' | 'event' | 'host-call' | 'host-result' | 'host-error';
  /** Correlates a call with its result or error; absent on events. */
  id?: number;
  /** Method name (call) or event name (event). */
  name?: string;
  /** Arguments array (call), return value (result) or payload (event). */
  data?: unknown;
  error?: WireError;
  /** An event's number on the desktop's IPC (ipc.ts): the window says which it read last. */
  seq?: number;
}

/** An error that came back across a transport: same name, code and message as where it was thrown. */
export class ApiError extends Error {
  readonly code: string;
  readonly field?: string;
  constructor(wire: WireError) {
    super(wire.message);
    this.name = wire.name;
    this.code = wire.code;
    if (wire.field !== undefined) this.field = wire.field;
  }
}

export function toWireError(err: unknown): WireError {
  const e = err as { name?: unknown; code?: unknown; message?: unknown; field?: unknown };
  return {
    name: typeof e?.name === 'string' ? e.name : 'Error',
    code: typeof e?.code === 'string' ? e.code : 'CRAWL_INTERNAL',
    message: typeof e?.message === 'string' ? e.message : String(err),
    ...(typeof e?.field === 'string' ? { field: e.field } : {}),
  };
}

export function isRpcMessage(v: unknown): v is RpcMessage {
  const k = (v as RpcMessage | null)?.kind;
  return k === 'call' || k === 'result' || k === 'error' || k === 'event' || k === 'host-call' || k === 'host-result' || k === 'host-error';
}

export type { ApiEvent };
