import { setFlagsFromString } from 'node:v8';
import retModule, { types, type Token, type Tokens } from 'ret';

/**
 * A user's regular expressions (scope.excludes) run on every URL a crawl finds in scope, and on
 * the seeds where a crawl is created, on the server's thread. One with a repetition inside a
 * repetition, `(a+)+$`, backtracks exponentially on some strings: 28 characters took 21 s here,
 * so one URL could hold a crawl, or the server, for hours.
 *
 * Every process that loads this lets V8 move a pattern that backtracks too much to its
 * linear-time engine (a process-wide V8 flag, read when a pattern runs; Node 20 and up), so a
 * pattern that engine can run takes time linear in the URL's length whatever the URL. A pattern
 * it cannot run (a back-reference, a lookahead, a counted repetition past 16) keeps the
 * backtracking engine; of those, one that repeats a repetition (star height 2 or more, counted
 * on the pattern as `ret` parses it; an optional part, `?`, counts only inside a repetition) is
 * refused where a crawl is created.
 */
/** ret's tokenizer: its CommonJS module is the function itself (its typings say a default export). */
const tokenize = ((retModule as unknown as { default?: unknown }).default ?? retModule) as (source: string) => Tokens;

setFlagsFromString('--enable-experimental-regexp-engine');
setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

/**
 * The pattern compiled, or why it is refused: not a regular expression, or (with `check`, as a
 * crawl is created) one that may take exponential time. A crawl's stored patterns are compiled
 * without the check, so one made by an earlier version resumes as it was.
 */
export function userRegExp(source: string, check = true): RegExp | { problem: string } {
  let re: RegExp;
  try {
    re = new RegExp(source);
  } catch (err) {
    return { problem: `invalid regular expression ${JSON.stringify(source)}: ${(err as Error).message}` };
  }
  if (!check || runsInLinearTime(source)) return re;
  const height = starHeight(source);
  if (height !== null && height < 2) return re;
  const why =
    height === null
      ? 'could not be checked for time exponential in a URL\'s length'
      : 'can take time exponential in a URL\'s length: it repeats a repetition (as (a+)+ does)';
  return {
    problem:
      `${JSON.stringify(source)} ${why}, and uses what cannot run in linear time (a back-reference, a lookahead, ` +
      'a counted repetition past 16, which can be split: x{20,} as x{16}x{4,}); write it without one of the two',
  };
}

/** True when V8's linear-time engine can run the pattern here (the flag above lets a pattern fall back to it). */
export function runsInLinearTime(source: string): boolean {
  try {
    new RegExp(source, 'l');
    return true;
  } catch {
    return false;
  }
}

/** How deep repetitions (of more than one) nest in the pattern; null when `ret` cannot parse it. */
function starHeight(source: string): number | null {
  let root: Tokens;
  try {
    root = tokenize(forRet(source));
  } catch {
    return null;
  }
  return height(root, 0);
}

/**
 * The pattern as `ret` reads it, alike for nesting: a lookbehind as a lookahead, and a group with
 * modifiers, `(?i:...)` (ret knows neither), as a plain group. Escapes and character classes are
 * stepped over whole, so `\\(?<=x)` and `[(?<]` are read as they are meant.
 */
function forRet(source: string): string {
  return source.replace(/\\.|\[(?:\\.|[^\]\\])*\]|\(\?<([=!])|\(\?[ims]*(?:-[ims]+)?:/gs, (m, look?: string) =>
    look !== undefined ? `(?${look}` : m.startsWith('(') ? '(?:' : m,
  );
}

/**
 * A repetition of more than one counts a level; so does an optional part (min < max) inside
 * one, as `(?:\w?){24}` backtracks as `(\w+)+` does, while `(?:[^/]+\.)?` on its own repeats
 * nothing.
 */
function height(t: Tokens, depth: number, inRepeat = false): number {
  if (t.type === types.REPETITION) {
    const counts = t.max > 1 || (inRepeat && t.min < t.max);
    return height(t.value, counts ? depth + 1 : depth, inRepeat || t.max > 1);
  }
  if (t.type === types.ROOT || t.type === types.GROUP) {
    const parts: Token[] = t.options ? t.options.flat() : (t.stack ?? []);
    return parts.reduce((most, p) => Math.max(most, height(p, depth, inRepeat)), depth);
  }
  return depth;
}
