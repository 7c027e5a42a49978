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

export const IPC_PREFIX = 'crawlbench:';
export const IPC_CALL = `${IPC_PREFIX}call`;
export const IPC_EVENT = `${IPC_PREFIX}event`;

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
 * Every call is answered (rpc-server.ts); `opts.log` is told of internal errors.
 */
export function serveIpc(api: CrawlbenchApi, ipcMain: IpcMainLike, opts: DispatchOptions = {}): { close(): void } {
  const senders = new Set<IpcSenderLike>();
  const stop = forwardEvents(api, (msg) => {
    for (const s of senders) {
      if (s.isDestroyed?.()) senders.delete(s);
      else s.send(IPC_EVENT, msg);
    }
  });
  ipcMain.handle(IPC_CALL, async (event, msg) => {
    if (!senders.has(event.sender)) {
      senders.add(event.sender);
      event.sender.once?.('destroyed', () => senders.delete(event.sender));
    }
    return dispatch(api, msg, opts);
  });
  return {
    close() {
      stop();
      ipcMain.removeHandler(IPC_CALL);
      senders.clear();
    },
  };
}

/** The renderer half (used by the preload). Call `ready()` once so that events start flowing. */
export function ipcClient(ipcRenderer: IpcRendererLike): CrawlbenchApi {
  const link: ClientLink = {
    call: (msg) => ipcRenderer.invoke(IPC_CALL, msg),
    onEvent: (cb) => void ipcRenderer.on(IPC_EVENT, (_e, msg) => cb(msg)),
  };
  const api = createApiClient(link);
  // Registers this window for events without waiting for the UI's first call.
  void api.listPolicies().catch(() => {});
  return api;
}
