/**
 * The Electron host, kept thin: one window with contextIsolation, sandbox and no Node; the
 * engine in a utility process; the API relayed between them over IPC channels that share
 * the `crawlbench:` prefix. Nothing remote is ever loaded into the window.
 */
import { app, BrowserWindow, dialog, ipcMain, session, utilityProcess, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveIpc, type IpcMainLike, type IpcSenderLike } from '../core/api/ipc.js';
import { superviseEngine, type SupervisedEngine } from '../core/api/engine-supervisor.js';
import type { ExportTarget, ExportTargetRequest, HostCapabilities } from '../core/api/contract.js';
import { isRpcMessage } from '../core/api/rpc.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const RENDERER = join(here, '..', 'renderer', 'index.html');

/**
 * The engine in a utility process, started again if it crashes (core/api/engine-supervisor.ts);
 * the crawls run in processes of their own and carry on meanwhile.
 */
function startEngine(win: () => BrowserWindow | null): SupervisedEngine {
  return superviseEngine(
    () => {
      const child = utilityProcess.fork(join(here, 'engine-host.cjs'), [join(app.getPath('userData'), 'crawls')], { serviceName: 'crawlbench engine' });
      return {
        send: (msg) => child.postMessage(msg),
        onMessage: (cb) => child.on('message', cb),
        onExit: (cb) => child.on('exit', cb),
        kill: () => void child.kill(),
      };
    },
    {
      host: desktopHost(win),
      onRestart: (n, code) => console.error(`crawlbench: the engine's process ended (${code}); started again (${n})`),
    },
  );
}

/**
 * What only the desktop can answer for the engine (core/api/contract.ts HostCapabilities): an
 * export's destination comes from a save dialog, never from the page. Closing the dialog
 * answers null, and the engine cancels the export.
 */
function desktopHost(win: () => BrowserWindow | null): HostCapabilities {
  return {
    async chooseExportTarget(req: ExportTargetRequest): Promise<ExportTarget | null> {
      const parent = win();
      if (!parent) return null;
      if (req.folder) {
        const r = await dialog.showOpenDialog(parent, { title: 'Export into…', properties: ['openDirectory', 'createDirectory'] });
        return r.canceled || !r.filePaths[0] ? null : { out: join(r.filePaths[0], req.suggestedName), replace: false };
      }
      const ext = extname(req.suggestedName).slice(1);
      const r = await dialog.showSaveDialog(parent, { title: 'Export to…', defaultPath: req.suggestedName, filters: [{ name: ext, extensions: [ext] }] });
      // The dialog asked before replacing a file.
      return r.canceled || !r.filePath ? null : { out: r.filePath, replace: true };
    },
  };
}

/** ipcMain, narrowed to the one window we trust: calls from any other frame are ignored. */
function ipcFor(win: BrowserWindow): IpcMainLike {
  const senders = new WeakMap<WebContents, IpcSenderLike>();
  const senderOf = (wc: WebContents): IpcSenderLike => {
    let s = senders.get(wc);
    if (!s) {
      s = { send: (ch, msg) => wc.send(ch, msg), isDestroyed: () => wc.isDestroyed(), once: (_e, cb) => wc.once('destroyed', cb) };
      senders.set(wc, s);
    }
    return s;
  };
  return {
    handle: (channel, listener) =>
      ipcMain.handle(channel, (e: IpcMainInvokeEvent, msg: unknown) => {
        if (e.sender.id !== win.webContents.id || !e.senderFrame?.url.startsWith('file://') || !isRpcMessage(msg)) return null;
        return listener({ sender: senderOf(e.sender) }, msg);
      }),
    removeHandler: (channel) => ipcMain.removeHandler(channel),
  };
}

function lockDown(): void {
  // No remote content: only the app's own files load; every permission is refused.
  session.defaultSession.webRequest.onBeforeRequest({ urls: ['http://*/*', 'https://*/*', 'ws://*/*', 'wss://*/*'] }, (_d, cb) => cb({ cancel: true }));
  session.defaultSession.setPermissionRequestHandler((_wc, _perm, cb) => cb(false));
  app.on('web-contents-created', (_e, wc) => {
    wc.on('will-navigate', (e) => e.preventDefault());
    wc.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
}

async function main(): Promise<void> {
  await app.whenReady();
  // The engine's process inherits it: where the packaged app keeps resources/ (the Zoltan driver's source).
  if (app.isPackaged) process.env.CRAWLBENCH_RESOURCES = process.resourcesPath;
  lockDown();
  let window: BrowserWindow | null = null;
  const engine = startEngine(() => window);
  const win = new BrowserWindow({
    width: 1280,
    height: 800,
    title: 'crawlbench',
    webPreferences: {
      preload: join(here, 'preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  window = win;
  const served = serveIpc(engine.api, ipcFor(win));
  await win.loadFile(RENDERER);
  app.on('window-all-closed', () => {
    served.close();
    engine.close();
    app.quit();
  });
}

void main();
