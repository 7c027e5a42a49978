/**
 * What a parallel crawl reads off its broker (the exchange's messages, the crawl's definition,
 * the workers' statuses, the site leases) is input: another version of crawlbench, a killed or
 * buggy worker, or anyone who reaches the broker may have written it. Each is read through a
 * schema before any of it reaches the crawl.
 */
import type { z } from 'zod';

/** `text` as `schema` reads it, or why not (not JSON, or its first problem with where). */
export function readJson<T>(schema: z.ZodType<T>, text: string): { ok: T } | { problem: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { problem: `not JSON (${(err as Error).message})` };
  }
  const r = schema.safeParse(raw);
  if (r.success) return { ok: r.data };
  const issue = r.error.issues[0];
  return { problem: issue ? `${issue.path.join('.') || 'the value'}: ${issue.message}` : 'not of its shape' };
}
