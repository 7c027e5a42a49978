/**
 * The resolve hook registered by core-redirect.ts: URLs under `from` resolved under `to`, when
 * `to` has that module. A module the other checkout does not have (one added after it, such as
 * core/store/sqlite.js, the loader of better-sqlite3) is this checkout's own.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let from = '';
let to = '';

export function initialize(data: { from: string; to: string }): void {
  from = data.from;
  to = data.to;
}

type Resolved = { url: string; format?: string | null; shortCircuit?: boolean };
export async function resolve(specifier: string, context: unknown, next: (s: string, c: unknown) => Promise<Resolved>): Promise<Resolved> {
  const r = await next(specifier, context);
  if (!r.url.startsWith(from)) return r;
  const url = to + r.url.slice(from.length);
  return existsSync(fileURLToPath(url)) ? { ...r, url } : r;
}
