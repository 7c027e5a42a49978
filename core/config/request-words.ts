/**
 * A request checked against its schema (zod), its refusal in a researcher's words with the
 * field it is about: the same words whether the CLI, the API or a form asks (issue 24). The
 * engine turns a refusal into a CrawlError (api/request-check.ts), the CLI names the field's
 * flag, a form shows the words at the field. Browser-safe: imports zod and nothing of Node or
 * the engine (the renderer's forms import it; Electron's preload does not).
 */
import type { z } from 'zod';

/** One refusal: the request field ('w', 'parts', 'policyParams.alpha') and the problem in words. */
export interface RequestRefusal {
  field: string;
  problem: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; refusals: RequestRefusal[] };

/** Checks a request; on refusal every problem, in words, by field (the first one first). */
export function checkWith<S extends z.ZodType>(schema: S, value: unknown, what: string): Checked<z.output<S>> {
  const parsed = schema.safeParse(value, { error: inWords });
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, refusals: parsed.error.issues.map((issue) => refusalOf(issue, what)) };
}

/** A form's field errors: field -> problem (the first problem of each field). */
export function fieldErrors<S extends z.ZodType>(schema: S, value: unknown, what: string): Record<string, string> {
  const checked = checkWith(schema, value, what);
  const out: Record<string, string> = {};
  if (!checked.ok) for (const r of checked.refusals) out[r.field] ??= r.problem;
  return out;
}

/** The field an issue is about: its path ('policyParams.alpha'), a list's item by its list ('parts'), a source by itself. */
function refusalOf(issue: z.core.$ZodIssue, what: string): RequestRefusal {
  const unknown = issue.code === 'unrecognized_keys';
  const full = unknown ? [...issue.path, issue.keys[0]!] : issue.path;
  // An item of a list of values is the list's field ('parts', 'seeds'); a field of an item in a list keeps its place ('resolve.0.pattern').
  const path = (typeof full[full.length - 1] === 'number' ? full.slice(0, -1) : full).map(String);
  // A field whose parts are one value in a form (a source's kind and id) is named as a whole.
  const whole = path.length > 1 && WHOLE.has(path[0]!);
  const field = whole ? path[0]! : path.join('.');
  const problem = unknown ? (whole ? `"${issue.keys[0]}" is not part of it` : `is not a field of ${what}`) : issue.message;
  return { field: field || '(request)', problem };
}

/** Fields whose parts a form shows as one value. */
const WHOLE = new Set(['source']);

const count = (n: unknown) => (typeof n === 'number' || typeof n === 'bigint' ? n.toLocaleString('en-US') : String(n));

/**
 * A validator's issue as a form says it ("must be at most 100 characters (this one has 300)"),
 * never in the validator's own words ("Too big: expected string to have <=100 characters").
 * Issues with words of their own (a schema's message) keep them.
 */
export function inWords(issue: z.core.$ZodRawIssue): string {
  const i = issue as z.core.$ZodRawIssue & { origin?: string; maximum?: unknown; minimum?: unknown; inclusive?: boolean; expected?: string; values?: unknown[] };
  const input = i.input;
  switch (i.code) {
    case 'too_big':
      if (i.origin === 'string') return `must be at most ${count(i.maximum)} characters${typeof input === 'string' ? ` (this one has ${count(input.length)})` : ''}`;
      if (i.origin === 'array') return `must hold at most ${count(i.maximum)}`;
      return i.inclusive === false ? `must be less than ${count(i.maximum)}` : `must be at most ${count(i.maximum)}`;
    case 'too_small':
      if (i.origin === 'string') return Number(i.minimum) <= 1 ? 'must not be empty' : `must be at least ${count(i.minimum)} characters`;
      if (i.origin === 'array') return `must hold at least ${count(i.minimum)}`;
      return i.inclusive === false ? `must be more than ${count(i.minimum)}` : `must be at least ${count(i.minimum)}`;
    case 'invalid_value':
      return Array.isArray(i.values) ? `must be one of ${i.values.map(String).join(', ')}` : 'is not a value this field takes';
    case 'invalid_type':
      return typeWords(i.expected);
    default:
      return 'is not a value this field takes';
  }
}

function typeWords(expected: string | undefined): string {
  switch (expected) {
    case 'string':
      return 'must be text';
    case 'number':
      return 'must be a number';
    case 'int':
      return 'must be a whole number';
    case 'boolean':
      return 'must be true or false';
    case 'array':
      return 'must be a list';
    case 'object':
    case 'record':
      return 'must be a set of named values';
    default:
      return 'is not a value this field takes';
  }
}
