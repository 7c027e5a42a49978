/**
 * better-sqlite3 is loaded in one place (core/store/sqlite.ts), which picks the line that runs on
 * this Node: 13 on Node 22 and newer, the optional 12 on Node 20. A value import of
 * 'better-sqlite3' anywhere else loads 13 on Node 20, where it crashes the process at its first
 * database (Node-API 10 is missing there), and nothing but that Node would show it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const PLACES = ['core', 'bench', 'scripts', 'test', 'electron'];
const LOADER = 'core/store/sqlite.ts';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'fixtures') return [];
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mts|mjs|js|sh)$/.test(name) ? [path] : [];
  });
}

/** Lines that load better-sqlite3 as a value: an import that is not `import type`, a require, an import(). */
export function valueLoads(text: string): string[] {
  return text
    .split('\n')
    // import ... from, require(), require.resolve(), createRequire(...)(...) and import() of it.
    .filter((line) => /(^|\s)import\s+(?!type\s)[^'"]*from\s+['"]better-sqlite3['"]|(require|resolve|\))\(\s*['"]better-sqlite3['"]\s*\)|import\(\s*['"]better-sqlite3['"]\s*\)/.test(line))
    .filter((line) => !/^\s*["'`]/.test(line)); // a line inside a string array (a test's planted code) loads nothing
}

describe('better-sqlite3 through its loader', () => {
  it('no file but core/store/sqlite.ts loads better-sqlite3 as a value', () => {
    const files = PLACES.flatMap((p) => sources(join(ROOT, p))).map((f) => relative(ROOT, f));
    expect(files.length).toBeGreaterThan(100); // the walk saw the tree
    const found = files.filter((f) => f !== LOADER).flatMap((f) => valueLoads(readFileSync(join(ROOT, f), 'utf8')).map((l) => `${f}: ${l.trim()}`));
    expect(found).toEqual([]);
  });

  it('tells a value load from a type import', () => {
    const pkg = `'better-${'sqlite3'}'`; // spelled apart, so that this file is no finding itself
    expect(valueLoads(`import Database from ${pkg};`)).toHaveLength(1);
    expect(valueLoads(`const D = require(${pkg});`)).toHaveLength(1);
    // A worker's source that loads it by its resolved path, or a createRequire: 13 on Node 20 too.
    expect(valueLoads(`const path = require.resolve(${pkg});`)).toHaveLength(1);
    expect(valueLoads(`const D = createRequire(import.meta.url)(${pkg});`)).toHaveLength(1);
    expect(valueLoads(`import type Database from ${pkg};`)).toEqual([]);
    expect(valueLoads("import Sqlite from '../store/sqlite.js';")).toEqual([]);
  });
});
