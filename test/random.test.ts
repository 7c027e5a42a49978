/**
 * core/random.ts is the one seeded generator of the project (test web, simulator, historical
 * policies, benches). Its streams are pinned: a generated web, a simulated network or a
 * historical-pagerank-random crawl made before must come out the same for the same seed.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hash, hashString, lognormalAt, mulberry32, Rng, unit } from '../core/random.js';

const ROOT = new URL('../', import.meta.url).pathname;

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((f) => {
    const p = join(dir, f);
    return statSync(join(ROOT, p)).isDirectory() ? files(p) : f.endsWith('.ts') ? [p] : [];
  });
}

describe('core/random', () => {
  it('mulberry32 from a raw seed draws what the historical policies and benches drew', () => {
    const r = mulberry32(7);
    expect([r(), r(), r()]).toEqual([0.011704753153026104, 0.06195825757458806, 0.97690763277933]);
  });

  it('Rng (seed mixed first) draws what the test web drew', () => {
    const g = new Rng(42);
    expect([g.next(), g.next(), g.float(), g.int(1000), g.normal(), g.lognormal(10, 0.5)]).toEqual([
      1573151899, 812387989, 0.4156319561880082, 256, 1.1653871134220928, 17.494778993178244,
    ]);
  });

  it('stateless hashes are unchanged', () => {
    expect([hash(1, 2, 3, 4), unit(hash(5)), lognormalAt(hash(1), hash(2), 10, 1), hashString('jazz')]).toEqual([
      3574850711, 0.12026592832989991, 9.150956376138272, 2529212593,
    ]);
  });

  it('is the only mulberry32 in core/ and bench/', () => {
    const copies = [...files('core'), ...files('bench')].filter((f) => /0x6d2b79f5/i.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(copies).toEqual(['core/random.ts']);
  });
});
