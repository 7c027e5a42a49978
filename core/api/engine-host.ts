/**
 * The engine served over a message port: what runs in Electron's utility process
 * (electron/engine-host.ts) and in the forked child that stands in for it in the tests. It
 * asks the parent for what only the host can answer (HostCapabilities: a save dialog). It
 * answers every call message with dispatch (an error becomes an error message, never a crash),
 * forwards every event, pauses the crawls on SIGTERM (quitting on purpose) and, on a crash,
 * leaves them running for the process started again (engine-supervisor.ts).
 */
import { keepServing } from './browser-server.js';
import { EngineApi, type EngineApiOptions } from './engine-api.js';
import { remoteHost } from './host.js';
import { dispatch, forwardEvents } from './rpc-server.js';
import { isRpcMessage, type RpcMessage } from './rpc.js';

export interface HostPort {
  onMessage(cb: (data: unknown) => void): void;
  post(msg: RpcMessage): void;
}

export function hostEngine(port: HostPort, workspace: string, opts: Omit<EngineApiOptions, 'host'> = {}): EngineApi {
  // The host's capabilities (where an export goes) are asked of the parent over the same port.
  const host = remoteHost((msg) => port.post(msg));
  const api = new EngineApi(workspace, { ...opts, host });
  forwardEvents(api, (msg) => port.post(msg));
  port.onMessage(async (data) => {
    if (!isRpcMessage(data) || host.receive(data)) return;
    if (data.kind === 'call') port.post(await dispatch(api, data));
  });
  // An error outside any call is logged and the engine serves on, as `crawlbench serve` does.
  keepServing((line) => process.stderr.write(`crawlbench engine: ${line}\n`));
  // Pausing commits every running crawl's batch before the process goes.
  process.once('SIGTERM', () => void api.close().finally(() => process.exit(0)));
  return api;
}
