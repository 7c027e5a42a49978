/**
 * Electron transport: the contract over ipcMain/ipcRenderer, written against minimal
 * interfaces so that tests can run it with a fake pair (Electron cannot run here) and core
 * never imports Electron. Every channel starts with `crawlbench:`. Calls return the result
 * or error message as a value, never a thrown error: Electron would drop the error's code.
 */
import type { CrawlbenchApi } from './contract.js';
import { createApiClient, type ClientLink } from './rpc-client.js';
import { dispatch, forwardEvents, type DispatchOptions } from './rpc-server.js';
import type { RpcMessage } from './rpc.js';
import { API_LIMITS } from './limits.js';

export const IPC_PREFIX = 'crawlbench:';
export const IPC_CALL = `${IPC_PREFIX}call`;
export const IPC_EVENT = `${IPC_PREFIX}event`;
/** The window says which event it read last (`data`: the number, `seq`, each event is sent with). */
export const IPC_EVENTS_READ = `${IPC_PREFIX}events-read`;

export interface IpcSenderLike {
  send(channel: string, msg: RpcMessage): void;
  isDestroyed?(): boolean;
  once?(event: 'destroyed', cb: () => void): unknown;
}
export interface IpcMainLike {
  handle(channel: string, listener: (event: { sender: IpcSenderLike }, msg: RpcMessage) => Promise<RpcMessage>): void;
  removeHandler(channel: string): void;
}
export interface IpcRendererLike {
  invoke(channel: string, msg: RpcMessage): Promise<RpcMessage>;
  on(channel: string, listener: (event: unknown, msg: RpcMessage) => void): unknown;
}

/**
 * Serves `api` to every window that calls it; events go to each window that has called once.
 * Every call is answered (rpc-server.ts); `opts.log` is told of internal errors. A window with
 * `eventBacklog` events unread (API_LIMITS.eventBacklogEvents) has the next skipped until it
 * reads them, as a WebSocket client past its backlog (ws-server.ts): answers always go.
 */
export function serveIpc(api: CrawlbenchApi, ipcMain: IpcMainLike, opts: DispatchOptions & { eventBacklog?: number } = {}): { close(): void } {
  const backlog = opts.eventBacklog ?? API_LIMITS.eventBacklogEvents;
  const log = opts.log ?? ((line: string) => console.error(line));
  const windows = new Map<IpcSenderLike, { sent: number; read: number; skipped: number }>();
  const stop = forwardEvents(api, (msg) => {
    for (const [s, w] of windows) {
      if (s.isDestroyed?.()) windows.delete(s);
      else if (w.sent - w.read >= backlog) {
        if (w.skipped++ === 0) log(`a window has ${w.sent - w.read} events unread: its events are skipped until it reads them`);
      } else {
        if (w.skipped > 0) log(`a window caught up: ${w.skipped} events were skipped`);
        w.skipped = 0;
        s.send(IPC_EVENT, { ...msg, seq: ++w.sent });
      }
    }
  });
  ipcMain.handle(IPC_CALL, async (event, msg) => {
    if (!windows.has(event.sender)) {
      windows.set(event.sender, { sent: 0, read: 0, skipped: 0 });
      event.sender.once?.('destroyed', () => windows.delete(event.sender));
    }
    return dispatch(api, msg, opts);
  });
  ipcMain.handle(IPC_EVENTS_READ, async (event, msg) => {
    const w = windows.get(event.sender);
    // The number of the last event it read: a page loaded again in the window goes on from the
    // numbers it is sent. Never past what was sent: a page that says more cannot lift its backlog.
    if (w && Number.isSafeInteger(msg.data)) w.read = Math.min(w.sent, Math.max(w.read, msg.data as number));
    // A page loaded (again) in the window: what was sent to the one before is gone, none unread.
    // Else a window reloaded while past its backlog would be sent nothing, and say nothing, for good.
    if (w && msg.name === 'loaded') w.read = w.sent;
    return { kind: 'result' };
  });
  return {
    close() {
      stop();
      ipcMain.removeHandler(IPC_CALL);
      ipcMain.removeHandler(IPC_EVENTS_READ);
      windows.clear();
    },
  };
}

/** The renderer half (used by the preload). Call `ready()` once so that events start flowing. */
export function ipcClient(ipcRenderer: IpcRendererLike): CrawlbenchApi {
  let read = 0;
  let saying = false;
  const link: ClientLink = {
    call: (msg) => ipcRenderer.invoke(IPC_CALL, msg),
    onEvent: (cb) =>
      void ipcRenderer.on(IPC_EVENT, (_e, msg) => {
        if (typeof msg.seq === 'number') read = msg.seq;
        cb(msg);
        // Once a turn of the event loop, however many came in it: how many this window has read.
        if (saying) return;
        saying = true;
        setTimeout(() => {
          saying = false;
          void ipcRenderer.invoke(IPC_EVENTS_READ, { kind: 'event', name: 'read', data: read }).catch(() => {});
        }, 0);
      }),
  };
  void ipcRenderer.invoke(IPC_EVENTS_READ, { kind: 'event', name: 'loaded' }).catch(() => {});
  const api = createApiClient(link);
  // Registers this window for events without waiting for the UI's first call.
  void api.listPolicies().catch(() => {});
  return api;
}
