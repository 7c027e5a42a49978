/** The resolve hook registered by core-redirect.ts: URLs under `from` resolved under `to`. */
let from = '';
let to = '';

export function initialize(data: { from: string; to: string }): void {
  from = data.from;
  to = data.to;
}

type Resolved = { url: string; format?: string | null; shortCircuit?: boolean };
export async function resolve(specifier: string, context: unknown, next: (s: string, c: unknown) => Promise<Resolved>): Promise<Resolved> {
  const r = await next(specifier, context);
  return r.url.startsWith(from) ? { ...r, url: to + r.url.slice(from.length) } : r;
}
