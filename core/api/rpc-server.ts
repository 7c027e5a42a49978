/**
 * The serving half of every transport: dispatches a call message to an implementation of
 * the contract (the engine, or a client of the engine in another process), and forwards its
 * events. Only names listed in API_METHODS are ever called.
 *
 * Every call is answered, whatever it holds: a message that is not a call, an unknown method
 * or arguments over the limits (limits.ts) get CRAWL_BAD_OPTION; an error that carries one of
 * the engine's codes (CRAWL_...) goes back as it is; anything else a method throws (a
 * TypeError, a database error without a code) is an internal error: logged, one line naming
 * the method, and answered as CRAWL_INTERNAL. Nothing a caller sends can throw out of here.
 */
import { API_EVENTS, API_METHODS, type CrawlbenchApi, type WireError } from './contract.js';
import { API_LIMITS, argumentsProblem } from './limits.js';
import { toWireError, type RpcMessage } from './rpc.js';

const METHODS: ReadonlySet<string> = new Set(API_METHODS);

export interface DispatchOptions {
  /** Told of each internal error, in one line that names the method (default: console.error). */
  log?: (line: string) => void;
}

/** One of the engine's stable codes (core/errors.ts), as every error it means to give has. */
export function isStableCode(code: unknown): code is string {
  return typeof code === 'string' && /^CRAWL_[A-Z0-9_]+$/.test(code);
}

const badCall = (message: string, field?: string): WireError => ({ name: 'CrawlError', code: 'CRAWL_BAD_OPTION', message, ...(field ? { field } : {}) });

/** A call's id as it can be sent back (a number, or a short string); anything else is dropped. */
function replyId(id: unknown): number | undefined {
  if (typeof id === 'number' && Number.isFinite(id)) return id;
  if (typeof id === 'string' && id.length <= 100) return id as unknown as number;
  return undefined;
}

/** The first line of what was thrown, at most 500 characters. */
function firstLine(err: unknown): string {
  let text: string;
  try {
    text = err instanceof Error ? err.message : typeof err === 'string' ? err : String(err);
  } catch {
    text = 'an error that cannot be said';
  }
  const line = (text.split('\n', 1)[0] ?? '').trim() || (err instanceof Error ? err.name : 'an error without a message');
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}

/**
 * What a failed method answers: its error as it is when it carries a stable code, else an
 * internal error, logged with the method it served.
 */
export function answerError(err: unknown, method: string, log: (line: string) => void = (l) => console.error(l)): WireError {
  const code = (err as { code?: unknown } | null)?.code;
  if (isStableCode(code)) return toWireError(err);
  // SQLite's own words for a crawl file damaged past its header (read fine when it was opened):
  // the file is corrupt, not the engine (errors.ts sqliteFileError says it so for the CLI).
  if (typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')) {
    return { name: 'CrawlError', code: 'CRAWL_DB_CORRUPT', message: `the crawl file is corrupt (${firstLine(err)}); it was left as it is` };
  }
  const message = `internal error in ${method}: ${firstLine(err)}`;
  try {
    log(message);
  } catch {
    // A log that fails must not take the answer with it.
  }
  return { name: 'CrawlError', code: 'CRAWL_INTERNAL', message };
}

export async function dispatch(api: CrawlbenchApi, msg: RpcMessage, opts: DispatchOptions = {}): Promise<RpcMessage> {
  const id = replyId((msg as { id?: unknown } | null)?.id);
  const error = (e: WireError): RpcMessage => ({ kind: 'error', ...(id === undefined ? {} : { id }), error: e });
  // By hand, not with limit-schemas.ts: this module is browser-safe (Electron's preload bundles it) and zod is not.
  const m = (typeof msg === 'object' && msg !== null ? msg : {}) as { kind?: unknown; name?: unknown; data?: unknown };
  const name = typeof m.name === 'string' && m.name.length <= API_LIMITS.methodChars ? m.name : null;
  if (m.kind !== 'call' || name === null || (m.data !== undefined && !Array.isArray(m.data)) || (Array.isArray(m.data) && m.data.length > API_LIMITS.callArgs)) {
    return error(badCall(`not a call message: send {"kind": "call", "id": N, "name": METHOD, "data": [ARGUMENTS]} with at most ${API_LIMITS.callArgs} arguments`));
  }
  if (!METHODS.has(name)) return error(badCall(`unknown method ${name}`));
  const args = (m.data as unknown[] | undefined) ?? [];
  const problem = argumentsProblem(args);
  if (problem) return error(badCall(`${name}: ${problem}`));
  const fn = (api as unknown as Record<string, unknown>)[name];
  try {
    if (typeof fn !== 'function') throw new Error(`this implementation of the API has no method ${name}`);
    const value = await (fn as (...a: unknown[]) => Promise<unknown>).apply(api, args);
    return { kind: 'result', ...(id === undefined ? {} : { id }), data: value === undefined ? null : value };
  } catch (err) {
    return error(answerError(err, name, opts.log));
  }
}

/** Forwards every event of `api` as an event message; returns the function that stops it. */
export function forwardEvents(api: CrawlbenchApi, push: (msg: RpcMessage) => void): () => void {
  const offs: Array<() => void> = [];
  // Every event is part of the contract: an implementation without one fails here, not silently.
  for (const [event, method] of Object.entries(API_EVENTS)) {
    const subscribe = (api as unknown as Record<string, (cb: (d: unknown) => void) => () => void>)[method]!;
    offs.push(subscribe.call(api, (data) => push({ kind: 'event', name: event, data })));
  }
  return () => offs.forEach((off) => off());
}
