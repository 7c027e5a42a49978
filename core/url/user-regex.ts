import { setFlagsFromString } from 'node:v8';
import safeRegex from 'safe-regex2';

/**
 * A user's regular expressions (scope.excludes) run on every URL a crawl finds in scope, and on
 * the seeds where a crawl is created, on the server's thread. One with a repetition inside a
 * repetition, `(a+)+$`, backtracks exponentially on some strings: 28 characters took 21 s here,
 * so one URL could hold a crawl, or the server, for hours.
 *
 * Every process that loads this lets V8 move a pattern that backtracks too much to its
 * linear-time engine (a process-wide V8 flag, read when a pattern runs; Node 20 and up), so a
 * pattern that engine can run takes time linear in the URL's length whatever the URL. A pattern
 * it cannot run (a back-reference, a lookahead, a counted repetition past a small bound) keeps
 * the backtracking engine; of those, one with nested repetition (safe-regex2's star height) is
 * refused where it is given.
 */
setFlagsFromString('--enable-experimental-regexp-engine');
setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

/** The pattern compiled, or why it is refused: not a regular expression, or one that may take exponential time. */
export function userRegExp(source: string): RegExp | { problem: string } {
  let re: RegExp;
  try {
    re = new RegExp(source);
  } catch (err) {
    return { problem: `invalid regular expression ${JSON.stringify(source)}: ${(err as Error).message}` };
  }
  if (runsInLinearTime(source) || safeRegex(source)) return re;
  return {
    problem:
      `${JSON.stringify(source)} can take time exponential in a URL's length: it repeats a repetition (as (a+)+ does) ` +
      'and also uses what cannot run in linear time (a back-reference, a lookahead, a counted repetition such as {1,100}); write it without one of the two',
  };
}

/** True when V8's linear-time engine can run the pattern (the flag above lets a pattern fall back to it). */
function runsInLinearTime(source: string): boolean {
  try {
    new RegExp(source, 'l');
    return true;
  } catch {
    return false;
  }
}
