/**
 * Errors from the engine, in a researcher's words: the field a problem is about (so a form
 * can show it there) and the problem alone, without the field's or a CLI flag's name in
 * front and without the stable code (kept for tests and logs, not for people).
 */
export interface UserError {
  /** The request field ('w', 'policyParams.alpha', 'seedText'), when the error is about one. */
  field: string | null;
  code: string | null;
  text: string;
}

export function userError(err: unknown): UserError {
  const e = err as { message?: string; code?: string; field?: string };
  const message = e?.message ?? String(err);
  const field = typeof e?.field === 'string' ? e.field : null;
  // "w: must be ..." or "--alpha: 1.5 is not ...": the part after the name is the problem.
  const text = field !== null ? message.replace(/^[^:\s]+:\s*/, '') : message;
  return { field, code: typeof e?.code === 'string' ? e.code : null, text: capitalise(text) };
}

function capitalise(s: string): string {
  return s.length > 0 ? s[0]!.toUpperCase() + s.slice(1) : s;
}

/** The error said after the name its field has on screen: "Max depth: must be …". */
export function atField(e: UserError, label: string): UserError {
  return { ...e, text: `${label}: ${lowerFirst(e.text)}` };
}

/** "Must be ..." as the rest of a sentence ("must be ..."); "HTTP ..." stays as it is. */
function lowerFirst(text: string): string {
  return /^[A-Z](?![A-Z0-9])/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;
}
