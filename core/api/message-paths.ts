/**
 * Messages a user of the workbench sees name no absolute path of the engine's machine (issue
 * 23): the workspace is "the workspace", a file in it is named from there (`a.db`,
 * `exports/x/pages.csv`), any other absolute path by its last part. The CLI keeps its paths
 * (its user typed them); the workbench's API (engine-api.ts) passes every answer, refusal
 * and event through here.
 */
import type { CrawlbenchApi } from './contract.js';
import { API_METHODS } from './contract.js';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A POSIX path of two parts or more (not the `//` of a URL), or a Windows one, after a space, quote, bracket or the start. */
const ABSOLUTE = /(^|[\s"'“‘(=[])((?:\/(?!\/)[^\s"'”’)\]/,;:]+){2,}|[A-Za-z]:\\[^\s"'”’)\]]+)/g;

export function withoutPaths(message: string, workspace: string): string {
  const ws = workspace.replace(/[\\/]+$/, '');
  let m = message;
  if (ws) {
    // A file under the workspace, named from it; then the workspace itself.
    m = m.replace(new RegExp(`${escape(ws)}[\\\\/]([^\\s"'”’)\\]]+)`, 'g'), (_all, rest: string) => rest.replace(/\\/g, '/'));
    m = m.replace(new RegExp(escape(ws), 'g'), 'the workspace');
  }
  return m.replace(ABSOLUTE, (_all, before: string, path: string) => before + (path.split(/[\\/]/).filter(Boolean).pop() ?? path));
}

/** The message of an error, or of a value's `error`/`problem`, without paths; other values as they are. */
export function errorWithoutPaths<T>(err: T, workspace: string): T {
  const e = err as { message?: unknown };
  if (e && typeof e === 'object' && typeof e.message === 'string') {
    try {
      e.message = withoutPaths(e.message, workspace);
    } catch {
      // a frozen error keeps its words
    }
  }
  return err;
}

/**
 * What a call answers or an event carries, with the messages in it without paths: a job's
 * `error`, an unreadable crawl's `problem`, a run's `endReason` and a state event's `reason`,
 * an export's `warnings` (copies: the engine's own objects are left as they are).
 */
export function resultWithoutPaths<T>(value: T, workspace: string): T {
  if (Array.isArray(value)) return value.map((v) => resultWithoutPaths(v, workspace)) as T;
  if (!value || typeof value !== 'object') return value;
  const v = value as Record<string, unknown>;
  const say = (m: unknown) => (typeof m === 'string' ? withoutPaths(m, workspace) : m);
  const out: Record<string, unknown> = { ...v };
  let changed = false;
  for (const key of ['problem', 'reason'] as const) {
    if (typeof v[key] === 'string') (out[key] = say(v[key])), (changed = true);
  }
  for (const key of ['error', 'endReason'] as const) {
    const e = v[key] as { message?: unknown } | null | undefined;
    if (e && typeof e === 'object' && typeof e.message === 'string') (out[key] = { ...e, message: say(e.message) }), (changed = true);
  }
  if (Array.isArray(v.warnings)) (out.warnings = v.warnings.map(say)), (changed = true);
  return (changed ? out : value) as T;
}

/**
 * Wraps every method of the contract on `api` so that what it answers or refuses says no
 * absolute path. The methods stay on the object, so transports dispatch to them as before.
 */
export function messagesWithoutPaths(api: CrawlbenchApi, workspace: string): void {
  const target = api as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  for (const name of API_METHODS) {
    const method = target[name];
    if (typeof method !== 'function') continue;
    target[name] = async (...args: unknown[]) => {
      try {
        return resultWithoutPaths(await method.apply(api, args), workspace);
      } catch (err) {
        throw errorWithoutPaths(err, workspace);
      }
    };
  }
}
