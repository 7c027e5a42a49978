/**
 * No file of core/api is over 300 lines (issue 24): the API grew a 900-line contract and a
 * 600-line engine object once, holding every feature's types and methods. Each feature's
 * contract has its own file (core/api/contracts/), the engine object its parts (engine-crawls.ts,
 * live-crawls.ts, crawl-create.ts, the *-jobs.ts files), so that a file is one feature's or
 * one concern's. The test reads every .ts file under core/api and names those over the limit.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;
const MAX_LINES = 300;

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? tsFiles(p) : f.endsWith('.ts') ? [p] : [];
  });
}

/** `file: N lines` for each file over the limit. */
export function overLimit(files: ReadonlyArray<{ name: string; text: string }>, max = MAX_LINES): string[] {
  return files.flatMap(({ name, text }) => {
    const lines = text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
    return lines > max ? [`${name}: ${lines} lines (at most ${max})`] : [];
  });
}

describe('core/api file length', () => {
  it(`no file of core/api is over ${MAX_LINES} lines`, () => {
    const files = tsFiles(join(ROOT, 'core/api')).map((p) => ({ name: relative(ROOT, p), text: readFileSync(p, 'utf8') }));
    expect(files.length).toBeGreaterThan(30);
    expect(overLimit(files)).toEqual([]);
  });

  it('a file one line over is named with its count', () => {
    const text = 'x\n'.repeat(MAX_LINES + 1);
    expect(overLimit([{ name: 'core/api/big.ts', text }, { name: 'core/api/ok.ts', text: 'x\n'.repeat(MAX_LINES) }])).toEqual(['core/api/big.ts: 301 lines (at most 300)']);
  });
});
