/**
 * Keeps the engine's process alive for a host (Electron's main process; a test forks a Node
 * child in its place), and answers the engine's questions to its host (HostCapabilities). When the process exits without being asked to, the calls it had not
 * answered fail with CRAWL_INTERNAL, a new process is started, and the one API object the
 * host handed out goes on working with it. The crawls do not notice: each runs in a process
 * of its own, and the new engine attaches to them (EngineApi.ready).
 *
 * A process that dies again and again is not restarted forever: more than `maxRestarts`
 * restarts within `windowMs` and the supervisor gives up, failing every later call.
 */
import type { CrawlbenchApi, HostCapabilities } from './contract.js';
import { answerHostCall } from './host.js';
import { createApiClient, messageLink, type ClientLink } from './rpc-client.js';
import { isRpcMessage, type RpcMessage } from './rpc.js';

/** What the supervisor needs of a child process (Electron's UtilityProcess, Node's ChildProcess). */
export interface EngineChild {
  send(msg: RpcMessage): void;
  onMessage(cb: (msg: unknown) => void): void;
  onExit(cb: (code: number | null) => void): void;
  kill(): void;
}

export interface SupervisorOptions {
  /** The host's answers to the engine's questions (Electron: the save dialog). */
  host: HostCapabilities;
  maxRestarts?: number;
  windowMs?: number;
  /** Told of every restart (the host logs it). */
  onRestart?(restarts: number, exitCode: number | null): void;
  /** Told when it gives up. */
  onGiveUp?(exitCode: number | null): void;
}

export interface SupervisedEngine {
  api: CrawlbenchApi;
  /** How many times the process was started again. */
  restarts(): number;
  /** Ends the current process on purpose (it pauses its crawls) and starts no other. */
  close(): void;
}

const internal = (message: string) => Object.assign(new Error(message), { name: 'CrawlError', code: 'CRAWL_INTERNAL' });

export function superviseEngine(start: () => EngineChild, opts: SupervisorOptions): SupervisedEngine {
  const maxRestarts = opts.maxRestarts ?? 5;
  const windowMs = opts.windowMs ?? 60_000;
  let onEvent: (msg: RpcMessage) => void = () => undefined;
  let closing = false;
  let gaveUp: Error | null = null;
  let restarts = 0;
  const recent: number[] = [];
  let child: EngineChild;
  let link: ReturnType<typeof messageLink>;

  const launch = () => {
    const c = start();
    const l = messageLink((msg) => c.send(msg));
    l.onEvent((msg) => onEvent(msg));
    c.onMessage((msg) => {
      if (!isRpcMessage(msg)) return;
      if (msg.kind === 'host-call') void answerHostCall(opts.host, msg).then((reply) => c.send(reply));
      else l.receive(msg);
    });
    c.onExit((code) => {
      l.fail(internal(`the engine's process ended (${code ?? 'killed'}); ${closing ? 'the workbench is closing' : 'it is being started again'}`));
      if (closing || c !== child) return;
      const now = Date.now();
      recent.push(now);
      while (recent.length && recent[0]! < now - windowMs) recent.shift();
      if (recent.length > maxRestarts) {
        gaveUp = internal(`the engine's process ended ${recent.length} times within ${Math.round(windowMs / 1000)} s; it is not started again`);
        opts.onGiveUp?.(code);
        return;
      }
      restarts++;
      opts.onRestart?.(restarts, code);
      launch();
    });
    child = c;
    link = l;
  };
  launch();

  const supervised: ClientLink = {
    call: (msg) => (gaveUp ? Promise.reject(gaveUp) : link.call(msg)),
    onEvent: (cb) => {
      onEvent = cb;
    },
  };
  return {
    api: createApiClient(supervised),
    restarts: () => restarts,
    close() {
      closing = true;
      child.kill();
    },
  };
}
