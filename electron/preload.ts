/**
 * Exposes exactly one object, window.crawlbench (the CrawlbenchApi), and nothing else: no
 * raw ipcRenderer, no channels of the page's choosing. Runs sandboxed; bundled into one
 * file because sandboxed preloads cannot load modules.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { ipcClient, type IpcRendererLike } from '../core/api/ipc.js';

const link: IpcRendererLike = {
  invoke: (channel, msg) => ipcRenderer.invoke(channel, msg),
  on: (channel, listener) => ipcRenderer.on(channel, (event, msg) => listener(event, msg)),
};

contextBridge.exposeInMainWorld('crawlbench', ipcClient(link));
