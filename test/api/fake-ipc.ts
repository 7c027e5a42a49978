/**
 * A stand-in for Electron's ipcMain/ipcRenderer: messages are structured-cloned as Electron
 * does, so anything that would not survive the real IPC (functions, class instances'
 * methods, thrown error codes) does not survive here either.
 */
import type { IpcMainLike, IpcRendererLike, IpcSenderLike } from '../../core/api/ipc.js';
import type { RpcMessage } from '../../core/api/rpc.js';

export function fakeIpcPair(): { ipcMain: IpcMainLike; ipcRenderer: IpcRendererLike } {
  const handlers = new Map<string, (event: { sender: IpcSenderLike }, msg: RpcMessage) => Promise<RpcMessage>>();
  const listeners = new Map<string, Array<(event: unknown, msg: RpcMessage) => void>>();
  const sender: IpcSenderLike = {
    send(channel, msg) {
      const copy = structuredClone(msg);
      setImmediate(() => (listeners.get(channel) ?? []).forEach((l) => l({}, copy)));
    },
  };
  return {
    ipcMain: {
      handle: (channel, listener) => void handlers.set(channel, listener),
      removeHandler: (channel) => void handlers.delete(channel),
    },
    ipcRenderer: {
      async invoke(channel, msg) {
        const h = handlers.get(channel);
        if (!h) throw new Error(`No handler registered for '${channel}'`);
        return structuredClone(await h({ sender }, structuredClone(msg)));
      },
      on(channel, listener) {
        listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
      },
    },
  };
}
