import { parseArgs, type ParseArgsConfig } from 'node:util';
import { decimal, parseDuration, parseSize, parseWait } from '../config/units.js';
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
  const n = decimal(v);
  if (!Number.isInteger(n) || n < min) throw badOption(`--${name}`, `"${v}" is not a whole number >= ${min}`);
  return n;
}

export function numberFlag<K extends string>(flags: OneString<K>, name: K, min = 0): number | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  const n = decimal(v);
  if (!Number.isFinite(n) || n < min) throw badOption(`--${name}`, `"${v}" is not a number >= ${min}`);
  return n;
}

/** A numeric flag checked against a condition; the error names the option and says `what` it must be. */
export function rangeFlag<K extends string>(flags: OneString<K>, name: K, ok: (x: number) => boolean, what: string): number | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  const x = decimal(v);
  if (!Number.isFinite(x) || !ok(x)) throw badOption(`--${name}`, `"${v}" is not ${what}`);
  return x;
}

/** A TCP port to listen on, 0..65535 (0: any free one); an empty value is not 0. */
export function portFlag<K extends string>(flags: OneString<K>, name: K): number | undefined {
  return rangeFlag(flags, name, (x) => Number.isInteger(x) && x >= 0 && x <= 65_535, 'a port (0..65535)');
}

/**
 * Starts what listens on `port` (given with the flag `name`); a port another program holds, or
 * one below 1024 without the right to it, is refused in one line instead of Node's stack.
 */
export async function listenOn<T>(name: string, port: number, start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (err) {
    // Node's error names the address and port it could not have (a web bound per site takes one port on many addresses).
    const { code, address, port: taken } = err as NodeJS.ErrnoException & { address?: string; port?: number };
    const where = `port ${taken ?? port}${address ? ` on ${address}` : ''}`;
    if (code === 'EADDRINUSE') throw badOption(`--${name}`, `${where} is in use by another program (choose another, or 0 for a free one)`);
    if (code === 'EACCES') throw badOption(`--${name}`, `${where} needs rights this user does not have (choose one from 1024, or 0 for a free one)`);
    throw err;
  }
}

/** A duration with its unit (15s, 50ms), in milliseconds. */
export function durationFlag<K extends string>(flags: OneString<K>, name: K): number | undefined {
  const v = flags[name];
  return v === undefined ? undefined : parseDuration(`--${name}`, v);
}

/** A duration a timer waits (a throttle, a batch's gap), in milliseconds: at most 596 h. */
export function waitFlag<K extends string>(flags: OneString<K>, name: K): number | undefined {
  const v = flags[name];
  return v === undefined ? undefined : parseWait(`--${name}`, v);
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
  const given = typeof v === 'string' ? [v] : v;
  // Before, an empty value ("", "1,,2") dropped its empty items: `--r ""` ran with the default r.
  const blank = given.find((x) => x.split(',').some((item) => item.trim() === ''));
  if (blank !== undefined) throw badOption(`--${name}`, `"${blank}" has an empty value (give one or more, separated by commas)`);
  return given.flatMap((x) => x.split(',')).map((x) => x.trim());
}
