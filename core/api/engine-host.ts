/**
 * The engine served over a message port: what runs in Electron's utility process
 * (electron/engine-host.ts) and in the forked child that stands in for it in the tests. It
 * answers every call message with dispatch (an error becomes an error message, never a crash),
 * forwards every event, pauses the crawls on SIGTERM (quitting on purpose) and, on a crash,
 * leaves them running for the process started again (engine-supervisor.ts).
 */
import { EngineApi, type EngineApiOptions } from './engine-api.js';
import { dispatch, forwardEvents } from './rpc-server.js';
import { isRpcMessage, type RpcMessage } from './rpc.js';

export interface HostPort {
  onMessage(cb: (data: unknown) => void): void;
  post(msg: RpcMessage): void;
}

export function hostEngine(port: HostPort, workspace: string, opts: EngineApiOptions = {}): EngineApi {
  const api = new EngineApi(workspace, opts);
  forwardEvents(api, (msg) => port.post(msg));
  port.onMessage(async (data) => {
    if (isRpcMessage(data) && data.kind === 'call') port.post(await dispatch(api, data));
  });
  // Pausing commits every running crawl's batch before the process goes.
  process.once('SIGTERM', () => void api.close().finally(() => process.exit(0)));
  return api;
}
