/**
 * The host's side of the contract (HostCapabilities): what browser mode answers itself, and
 * the two halves of the question the engine asks a host in another process (Electron's main
 * process, over the utility process's port): the engine's proxy, and the host's answer.
 */
import { HOST_CAPABILITIES, type ExportTarget, type ExportTargetRequest, type HostCapabilities } from './contract.js';
import { toWireError, type RpcMessage } from './rpc.js';

/** Browser mode: every export goes to the workspace's exports folder, where it is offered for download. */
export const workspaceHost: HostCapabilities = {
  async chooseExportTarget(req: ExportTargetRequest): Promise<ExportTarget> {
    return { out: req.defaultOut, replace: false };
  },
};

const CAPABILITIES: ReadonlySet<string> = new Set(HOST_CAPABILITIES);

/**
 * The engine's view of a host in another process: each capability is a host-call message
 * sent out, answered by a host-result or host-error; `receive` takes those answers (and says
 * whether a message was one).
 */
export function remoteHost(send: (msg: RpcMessage) => void): HostCapabilities & { receive(msg: RpcMessage): boolean } {
  let next = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const ask = (name: string, data: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      send({ kind: 'host-call', id, name, data });
    });
  return {
    chooseExportTarget: (req) => ask('chooseExportTarget', [req]) as Promise<ExportTarget | null>,
    receive(msg) {
      if (msg.kind !== 'host-result' && msg.kind !== 'host-error') return false;
      const p = pending.get(msg.id ?? -1);
      pending.delete(msg.id ?? -1);
      if (msg.kind === 'host-result') p?.resolve(msg.data ?? null);
      else p?.reject(Object.assign(new Error(msg.error?.message ?? 'the host failed'), { name: msg.error?.name ?? 'Error', code: msg.error?.code ?? 'CRAWL_INTERNAL' }));
      return true;
    },
  };
}

/** The host answering one host-call message (a capability it does not have is an error, never a call). */
export async function answerHostCall(host: HostCapabilities, msg: RpcMessage): Promise<RpcMessage> {
  try {
    if (typeof msg.name !== 'string' || !CAPABILITIES.has(msg.name)) throw Object.assign(new Error(`no host capability ${String(msg.name)}`), { code: 'CRAWL_BAD_OPTION' });
    const fn = (host as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[msg.name]!;
    const data = await fn.apply(host, Array.isArray(msg.data) ? msg.data : []);
    return { kind: 'host-result', id: msg.id, data: data ?? null };
  } catch (err) {
    return { kind: 'host-error', id: msg.id, error: toWireError(err) };
  }
}
