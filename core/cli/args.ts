import { parseArgs, type ParseArgsConfig } from 'node:util';
import { badOption } from '../errors.js';

/** A command's options in parseArgs form: `{ db: { type: 'string' }, seed: { type: 'string', multiple: true } }`. */
export type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

type StrictConfig<O extends OptionsConfig> = { args: string[]; options: O; allowPositionals: true; strict: true };

/**
 * The flags parseArgs makes of these options, typed by node:util itself: a string option is
 * `string | undefined`, a boolean one `boolean | undefined`, `multiple: true` an array of them.
 */
export type FlagsOf<O extends OptionsConfig> = ReturnType<typeof parseArgs<StrictConfig<O>>>['values'];

export type Flags = Record<string, string | boolean | string[] | undefined>;

/** Strict flag parsing: an unknown flag or a missing value is a one-line error (exit 2). */
export function parseFlags<O extends OptionsConfig>(argv: string[], options: O): { flags: FlagsOf<O>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs<StrictConfig<O>>({ args: argv, options, allowPositionals: true, strict: true });
    return { flags: values, positionals };
  } catch (err) {
    const msg = (err as Error).message
      .replace(/\. To specify a positional.*$/s, '')
      .replace(/\s*\n\s*/g, ' ');
    throw badOption('arguments', msg);
  }
}

export function intFlag(flags: Flags, name: string, min = 0): number | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw badOption(`--${name}`, `"${String(v)}" is not a whole number >= ${min}`);
  return n;
}

export function numberFlag(flags: Flags, name: string, min = 0): number | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min) throw badOption(`--${name}`, `"${String(v)}" is not a number >= ${min}`);
  return n;
}

export function listFlag(flags: Flags, name: string): string[] {
  const v = flags[name];
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [String(v)]).flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean);
}
