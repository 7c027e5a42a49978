/**
 * better-sqlite3, the line that works on the running Node.
 *
 * better-sqlite3 12 subclasses node::ObjectWrap, whose destructor in Node 24's headers removes an
 * environment cleanup hook and asserts that the isolate is inside a Node context: a statement the
 * garbage collector frees from a task outside any context (V8's idle and memory-pressure work, a
 * thread's teardown) aborts the whole process ("Assertion failed: (env) != nullptr"). Node 24 is
 * also the Node of Electron 41, so the workbench itself was exposed. better-sqlite3 13 is written on
 * Node-API, ships prebuilt binaries in its npm package (no compiler, no download), and needs
 * Node-API 10: Node 22 or newer. Node 20, past its end of life but still allowed by `engines`, gets
 * the 12 line, installed as the optional `better-sqlite3-node20` (compiled there as before).
 *
 * Every value import of better-sqlite3 goes through here (`import Sqlite from '.../store/sqlite.js'`);
 * types still come from `import type Database from 'better-sqlite3'`.
 */
import BetterSqlite3 from 'better-sqlite3';
import { createRequire } from 'node:module';

/** The optional package that holds better-sqlite3 12 for Node 20. */
export const NODE20_PACKAGE = 'better-sqlite3-node20';

/** The first Node major that better-sqlite3 13 runs on (Node-API 10). */
export const NODE_API_10_MAJOR = 22;

/** The package this Node loads: better-sqlite3 (13) on Node 22 and newer, the optional 12 on Node 20. */
export const SQLITE_PACKAGE = Number(process.versions.node.split('.')[0]) >= NODE_API_10_MAJOR ? 'better-sqlite3' : NODE20_PACKAGE;

/**
 * The file of SQLITE_PACKAGE, for code that loads it elsewhere (a worker thread's eval'd source,
 * store/link-ranges.ts): resolving 'better-sqlite3' there would load 13 on Node 20, whose
 * Node-API it lacks (a segmentation fault at its first statement). Electron's build bundles
 * this file as CommonJS, where import.meta is empty: there `require` resolves it.
 */
export function sqliteModulePath(): string {
  return typeof require === 'function' ? require.resolve(SQLITE_PACKAGE) : createRequire(import.meta.url).resolve(SQLITE_PACKAGE);
}

function pick(): typeof BetterSqlite3 {
  if (SQLITE_PACKAGE === 'better-sqlite3') return BetterSqlite3;
  try {
    return createRequire(import.meta.url)(NODE20_PACKAGE) as typeof BetterSqlite3;
  } catch (e) {
    throw new Error(
      `crawlbench on Node ${process.versions.node} needs the optional package ${NODE20_PACKAGE} (better-sqlite3 12), which did not install: ` +
        `install Node 22 or newer (Node 20 reached its end of life in April 2026), or run npm install again with a C++ compiler present (${(e as Error).message.split('\n')[0]})`,
    );
  }
}

/** The better-sqlite3 constructor for this Node: `new Sqlite(path, options)`. */
const Sqlite = pick();
export default Sqlite;
