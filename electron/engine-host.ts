/**
 * Runs in an Electron utility process: the engine (better-sqlite3, the crawls' processes)
 * lives here, so that neither the window's renderer nor the main process ever blocks on it.
 * Speaks the same RpcMessage shape over the parent port (core/api/engine-host.ts).
 */
import { join } from 'node:path';
import { hostEngine } from '../core/api/engine-host.js';
import type { RpcMessage } from '../core/api/rpc.js';

interface ParentPort {
  on(event: 'message', cb: (e: { data: unknown }) => void): void;
  postMessage(msg: unknown): void;
}

const port = (process as unknown as { parentPort: ParentPort }).parentPort;
const workspace = process.argv[2] ?? 'crawls';
// Exports go where the window's save dialog says: the engine asks main.ts's host capability.
// Dataset folders for the simulator: WORKSPACE/datasets, as `crawlbench serve` (the EngineApi default).
hostEngine({ onMessage: (cb) => port.on('message', (e) => cb(e.data)), post: (msg: RpcMessage) => port.postMessage(msg) }, workspace, {
  simulationWorker: join(__dirname, 'simulation-worker.cjs'),
  jobWorker: join(__dirname, 'job-worker.cjs'),
  readWorker: join(__dirname, 'read-worker.cjs'),
  crawlRunner: join(__dirname, 'crawl-runner.cjs'),
});
