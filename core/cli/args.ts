import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parseDuration, parseSize } from '../config/units.js';
import { badOption } from '../errors.js';

/** A command's options in parseArgs form: `{ db: { type: 'string' }, seed: { type: 'string', multiple: true } }`. */
export type OptionsConfig = NonNullable<ParseArgsConfig['options']>;

type StrictConfig<O extends OptionsConfig> = { args: string[]; options: O; allowPositionals: true; strict: true };

/**
 * The flags parseArgs makes of these options, typed by node:util itself: a string option is
 * `string | undefined`, a boolean one `boolean | undefined`, `multiple: true` an array of them.
 */
export type FlagsOf<O extends OptionsConfig> = ReturnType<typeof parseArgs<StrictConfig<O>>>['values'];

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

/*
 * The readers below take a command's typed flags and the name of one of them. The name is
 * checked against the flags' type: a misspelt name, or a boolean flag read as a number, does
 * not compile (the flags share no property with, or do not fit, the one-flag type asked for).
 */

/** A flag holding one string, under the name K. */
type OneString<K extends string> = NoInfer<{ readonly [k in K]?: string }>;
/** A flag given once or (with `multiple: true`) several times, under the name K. */
type OneOrMore<K extends string> = NoInfer<{ readonly [k in K]?: string | readonly string[] }>;

export function intFlag<K extends string>(flags: OneString<K>, name: K, min = 0): number | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw badOption(`--${name}`, `"${v}" is not a whole number >= ${min}`);
  return n;
}

export function numberFlag<K extends string>(flags: OneString<K>, name: K, min = 0): number | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min) throw badOption(`--${name}`, `"${v}" is not a number >= ${min}`);
  return n;
}

/** A numeric flag checked against a condition; the error names the option and says `what` it must be. */
export function rangeFlag<K extends string>(flags: OneString<K>, name: K, ok: (x: number) => boolean, what: string): number | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  const x = Number(v);
  if (v.trim() === '' || !Number.isFinite(x) || !ok(x)) throw badOption(`--${name}`, `"${v}" is not ${what}`);
  return x;
}

/** A TCP port to listen on, 0..65535 (0: any free one); an empty value is not 0. */
export function portFlag<K extends string>(flags: OneString<K>, name: K): number | undefined {
  return rangeFlag(flags, name, (x) => Number.isInteger(x) && x >= 0 && x <= 65_535, 'a port (0..65535)');
}

/** A duration with its unit (15s, 50ms), in milliseconds. */
export function durationFlag<K extends string>(flags: OneString<K>, name: K): number | undefined {
  const v = flags[name];
  return v === undefined ? undefined : parseDuration(`--${name}`, v);
}

/** A size (10MB, 512KiB, or bytes), in bytes. */
export function sizeFlag<K extends string>(flags: OneString<K>, name: K): number | undefined {
  const v = flags[name];
  return v === undefined ? undefined : parseSize(`--${name}`, v);
}

/** One of a few words, typed as that word. */
export function choiceFlag<K extends string, T extends string>(flags: OneString<K>, name: K, choices: readonly T[]): T | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  const choice = choices.find((c) => c === v);
  if (choice === undefined) throw badOption(`--${name}`, `"${v}" (use ${choices.join(' or ')})`);
  return choice;
}

/** Every value of a repeatable flag, each split at commas: `--scope .cl,.org --scope .net`. */
export function listFlag<K extends string>(flags: OneOrMore<K>, name: K): string[] {
  const v: string | readonly string[] | undefined = flags[name];
  if (v === undefined) return [];
  return (typeof v === 'string' ? [v] : v).flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean);
}
