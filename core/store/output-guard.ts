/**
 * A file a command writes (a CSV, an export, a merged crawl) checked before it is written over:
 * never a crawl database or another SQLite file when the output is text, never one of the
 * command's own inputs, and never a device or other file that is not a regular one. Before,
 * `eval DB --csv DB` turned the crawl into a CSV file, `export DB --out DB --force` did the same,
 * and an `--out` naming a device, with `--force`, replaced the device with a file.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { badOption } from '../errors.js';
import { fileHead, SQLITE_MAGIC } from './database.js';

/** The file at `path` begins as a SQLite database does. */
function isSqliteFile(path: string): boolean {
  try {
    return fileHead(path).toString('latin1') === SQLITE_MAGIC;
  } catch {
    return false;
  }
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/**
 * Refuses `out` (given with `flag`) when it exists and is not a regular file or directory, is one
 * of `inputs`, or (`text`: the output is text) is a SQLite database.
 */
export function checkOutputTarget(flag: string, out: string, inputs: readonly string[], text: boolean, makesFolders = false): void {
  checkFolder(flag, out, makesFolders);
  if (!existsSync(out)) return;
  const st = statSync(out);
  if (!st.isFile() && !st.isDirectory()) throw badOption(flag, `${out} is not a regular file (a device, a pipe?): crawlbench writes only files; give another path`);
  const input = inputs.find((i) => sameFile(i, out));
  if (input !== undefined) throw badOption(flag, `${out} is what this command reads (${input}): give another file`);
  if (text && st.isFile() && isSqliteFile(out)) throw badOption(flag, `${out} is a SQLite database (a crawl?), not written over with text: give another file`);
}

/**
 * The folder `out` goes in: there (or, when the command makes missing folders, its nearest
 * existing ancestor a folder). Before, a folder that did not exist, or a file named as one,
 * ended in a stack trace (exit 1) when the output was opened.
 */
export function checkFolder(flag: string, out: string, makesFolders = false): void {
  const folder = dirname(resolve(out));
  let at = folder;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  if (!statSync(at).isDirectory()) throw badOption(flag, `${at} is a file, not a folder: ${out} cannot be made`);
  if (at !== folder && !makesFolders) throw badOption(flag, `the folder ${folder} does not exist`);
}
