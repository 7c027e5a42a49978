/**
 * The files test/heavy-first.ts starts first exist: a renamed or split file would drop out of
 * the list without a word, and CI's clean clone would run it late again (vitest.config.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { HEAVY } from '../heavy-first.js';

const ROOT = new URL('../../', import.meta.url).pathname;

it('names test files that exist, each once', () => {
  expect(HEAVY.filter((f) => !existsSync(join(ROOT, f)))).toEqual([]);
  expect(new Set(HEAVY).size).toBe(HEAVY.length);
});
