import { typedNumber } from './eval-measure-flags.js';

/**
 * A crawl setting's flag given as a number to the settings schema (config/settings.ts): text
 * that is not a number becomes NaN, so the schema refuses it, and an out-of-range number, with
 * its own words ("--c: must be a whole number from 1 to 10,000"), the words the API's create
 * request and the New crawl form use for the same field (issue 24, item 2).
 */
export function limitedFlag<K extends string>(flags: { readonly [P in K]?: string }, name: K): number | undefined {
  return typedNumber(flags[name]);
}
