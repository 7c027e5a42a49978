import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineApi } from '../../core/api/engine-api.js';
import type { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { IPC_CALL, IPC_EVENT, IPC_EVENTS_READ, ipcClient, serveIpc } from '../../core/api/ipc.js';
import { fakeIpcPair } from './fake-ipc.js';
import { contractSuite } from './contract-suite.js';
import { shapeSuite } from './shape-suite.js';

const harness = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cb-ipc-'));
  const engine = new EngineApi(dir);
  const { ipcMain, ipcRenderer } = fakeIpcPair();
  const served = serveIpc(engine, ipcMain);
  return {
    api: ipcClient(ipcRenderer),
    close: async () => {
      served.close();
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
shapeSuite('IPC (fake ipcMain/ipcRenderer pair)', harness);
contractSuite('IPC (fake ipcMain/ipcRenderer pair)', harness);

describe('a window that stops reading its events', () => {
  /** An engine and serveIpc on a fake pair, its events emitted by hand. */
  async function served(eventBacklog: number) {
    const dir = mkdtempSync(join(tmpdir(), 'cb-ipc-backlog-'));
    const engine = new EngineApi(dir);
    const { ipcMain, ipcRenderer } = fakeIpcPair();
    const lines: string[] = [];
    const server = serveIpc(engine, ipcMain, { log: (l) => lines.push(l), eventBacklog });
    const emit = (n: number) => {
      for (let i = 0; i < n; i++) (engine as unknown as { events: EventEmitter }).events.emit('stats', { crawlId: 'x', i });
    };
    const close = async () => {
      server.close();
      await engine.close();
      rmSync(dir, { recursive: true, force: true });
    };
    return { ipcRenderer, lines, emit, close };
  }
  const settle = () => new Promise((r) => setTimeout(r, 50));

  it('has its events skipped past the backlog instead of queued without end, and gets them again once it says it read them', async () => {
    // Before: every event was sent to a window that hung (Electron's IPC queues without a bound).
    const { ipcRenderer, lines, emit, close } = await served(1000);
    try {
      let events = 0;
      ipcRenderer.on(IPC_EVENT, () => events++);
      await ipcRenderer.invoke(IPC_CALL, { kind: 'call', id: 1, name: 'listPolicies', data: [] }); // the window registers, then reads nothing
      emit(3000);
      await settle();
      expect(events).toBe(1000);
      expect(lines).toEqual(['a window has 1000 events unread: its events are skipped until it reads them']);
      // It reads them: each event came with its number.
      await ipcRenderer.invoke(IPC_EVENTS_READ, { kind: 'event', name: 'read', data: 1000 });
      emit(1);
      await settle();
      expect(events).toBe(1001);
      expect(lines[1]).toBe('a window caught up: 2000 events were skipped');
      // A window that says it read more than it was sent lifts nothing.
      await ipcRenderer.invoke(IPC_EVENTS_READ, { kind: 'event', name: 'read', data: 1e9 });
      emit(5000);
      await settle();
      expect(events).toBe(2001);
      // Answers still go.
      expect(await ipcRenderer.invoke(IPC_CALL, { kind: 'call', id: 2, name: 'listPolicies', data: [] })).toMatchObject({ kind: 'result', id: 2 });
      // The page is loaded again in the same window (Ctrl+R) while past its backlog: the new page gets events.
      const page = ipcClient(ipcRenderer);
      const seen: number[] = [];
      page.onStats((s) => seen.push((s as unknown as { i: number }).i));
      await page.listPolicies();
      emit(3);
      await settle();
      expect(seen).toEqual([0, 1, 2]);
    } finally {
      await close();
    }
  });

  it('a window that reads (the preload\'s client) gets every event however many come', async () => {
    const { ipcRenderer, lines, emit, close } = await served(100);
    try {
      const api = ipcClient(ipcRenderer);
      let events = 0;
      api.onStats(() => events++);
      await api.listPolicies();
      for (let i = 0; i < 30; i++) {
        emit(50);
        await settle();
      }
      expect(events).toBe(1500);
      expect(lines).toEqual([]);
    } finally {
      await close();
    }
  });
});
