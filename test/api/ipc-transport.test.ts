import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineApi } from '../../core/api/engine-api.js';
import { ipcClient, serveIpc } from '../../core/api/ipc.js';
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
