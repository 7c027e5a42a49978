/**
 * The Electron host, kept thin: one window with contextIsolation, sandbox and no Node; the
 * engine in a utility process; the API relayed between them over IPC channels that share
 * the `crawlbench:` prefix. Nothing remote is ever loaded into the window.
 */
import { app, BrowserWindow, dialog, ipcMain, session, utilityProcess, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveIpc, type IpcMainLike, type IpcSenderLike } from '../core/api/ipc.js';
import { superviseEngine, type SupervisedEngine } from '../core/api/engine-supervisor.js';
import { isRpcMessage, type RpcMessage } from '../core/api/rpc.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const RENDERER = join(here, '..', 'renderer', 'index.html');

/**
 * The engine in a utility process, started again if it crashes (core/api/engine-supervisor.ts);
 * the crawls run in processes of their own and carry on meanwhile.
 */
function startEngine(): SupervisedEngine {
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
    { onRestart: (n, code) => console.error(`crawlbench: the engine's process ended (${code}); started again (${n})`) },
  );
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
        if (msg.kind === 'call' && msg.name === 'startExport') return askWhereToExport(win, msg).then((m) => (m.kind === 'call' ? listener({ sender: senderOf(e.sender) }, m) : m));
        return listener({ sender: senderOf(e.sender) }, msg);
      }),
    removeHandler: (channel) => ipcMain.removeHandler(channel),
  };
}

const EXTENSIONS: Record<string, string> = { jsonl: 'jsonl', csv: 'csv', parquet: 'parquet' };

/**
 * An export's destination comes from a save dialog here, never from the page: whatever path
 * the call carries is replaced by the one the user chose (a folder for WARC files, a file
 * otherwise). Closing the dialog answers CRAWL_CANCELLED without calling the engine.
 */
async function askWhereToExport(win: BrowserWindow, msg: RpcMessage): Promise<RpcMessage> {
  const [crawlId, raw] = Array.isArray(msg.data) ? msg.data : [];
  const req = { ...(raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {}) };
  delete req.out;
  delete req.force;
  const format = String(req.format ?? '');
  let out: string | undefined;
  if (format === 'warc') {
    const r = await dialog.showOpenDialog(win, { title: 'Export WARC files into…', properties: ['openDirectory', 'createDirectory'] });
    out = r.canceled ? undefined : r.filePaths[0];
  } else {
    const ext = EXTENSIONS[format] ?? 'out';
    const r = await dialog.showSaveDialog(win, { title: 'Export to…', defaultPath: `${String(crawlId)}-${String(req.what ?? 'pages')}.${ext}`, filters: [{ name: format, extensions: [ext] }] });
    out = r.canceled ? undefined : r.filePath;
    // The dialog asked before replacing a file.
    req.force = true;
  }
  if (!out) return { kind: 'error', id: msg.id, error: { name: 'CrawlError', code: 'CRAWL_CANCELLED', message: 'no place was chosen for the export' } };
  return { ...msg, data: [crawlId, { ...req, out }] };
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
  lockDown();
  const engine = startEngine();
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
  const served = serveIpc(engine.api, ipcFor(win));
  await win.loadFile(RENDERER);
  app.on('window-all-closed', () => {
    served.close();
    engine.close();
    app.quit();
  });
}

void main();
