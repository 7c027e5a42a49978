/**
 * Runs in an Electron utility process: the engine (crawls, better-sqlite3) lives here, so
 * that neither the window's renderer nor the main process ever blocks on it. Speaks the
 * same RpcMessage shape over the parent port.
 */
import { join } from 'node:path';
import { EngineApi } from '../core/api/engine-api.js';
import { dispatch, forwardEvents } from '../core/api/rpc-server.js';
import { isRpcMessage, type RpcMessage } from '../core/api/rpc.js';

interface ParentPort {
  on(event: 'message', cb: (e: { data: unknown }) => void): void;
  postMessage(msg: unknown): void;
}

const port = (process as unknown as { parentPort: ParentPort }).parentPort;
const workspace = process.argv[2] ?? 'crawls';
// Exports go where the window's save dialog said (main.ts sets the path; the page cannot).
// Dataset folders for the simulator: WORKSPACE/datasets, as `crawlbench serve` (the EngineApi default).
const api = new EngineApi(workspace, { exportAnywhere: true, simulationWorker: join(__dirname, 'simulation-worker.cjs'), analysisWorker: join(__dirname, 'analysis-worker.cjs') });
const post = (msg: RpcMessage) => port.postMessage(msg);

forwardEvents(api, post);
port.on('message', async (e) => {
  if (isRpcMessage(e.data) && e.data.kind === 'call') post(await dispatch(api, e.data));
});

// Pausing commits every running crawl's batch before the process goes.
process.on('SIGTERM', () => void api.close().finally(() => process.exit(0)));
