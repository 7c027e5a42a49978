/**
 * The outside-reference registry as npm test uses it: run over a fixture with every reference
 * hidden (CRAWLBENCH_TEST_HIDE), each is reported absent with its hint, its tests skip, and the
 * run's last block names each one with how many tests it held back; with CRAWLBENCH_TEST_ALL=1
 * the same run fails, naming each one that is not optional.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REFERENCES } from './reference-probes.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VITEST = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const CONFIG = fileURLToPath(new URL('./references/fixture.config.ts', import.meta.url));

function runFixture(extra: Record<string, string>): { status: number | null; out: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, CRAWLBENCH_TEST_HIDE: REFERENCES.map((r) => r.name).join(','), NO_COLOR: '1', ...extra };
  for (const k of ['CI', 'CRAWLBENCH_TEST_ALL', 'CRAWLBENCH_TEST_PROBED', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID', 'FORCE_COLOR']) if (!(k in extra)) delete env[k];
  const r = spawnSync(process.execPath, [VITEST, 'run', '--config', CONFIG], { cwd: ROOT, env, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, out: `${r.stdout}\n${r.stderr}` };
}

describe('the outside references with every one hidden', () => {
  const { status, out } = runFixture({});

  it('passes, skipping every gated test and running the rest', () => {
    expect(status, out).toBe(0);
    expect(out).toMatch(new RegExp(`Tests\\s+1 passed \\| ${REFERENCES.length * 2 + 1} skipped`));
  });

  it('ends with one block naming each reference, what it held back and how to bring it', () => {
    const block = out.slice(out.lastIndexOf('Outside references absent:'));
    expect(block.trimEnd().split('\n').at(-1)).toMatch(/All of them at once.*npm run setup:test-tools/);
    expect(block).toMatch(new RegExp(`^Outside references absent: ${REFERENCES.length} of ${REFERENCES.length}`));
    for (const ref of REFERENCES) {
      // The two tests of its suite, and the test needing networkx and chromium counts for both.
      const held = ref.name === 'networkx' || ref.name === 'chromium' ? 3 : 2;
      const line = block.split('\n').findIndex((l) => l.startsWith(`  ${ref.name}: ${held} tests held back`));
      expect(line, `${ref.name} in\n${block}`).toBeGreaterThan(0);
      expect(block.split('\n')[line + 1]).toBe(`    Bring it: ${ref.hint}`);
    }
  });

  it('fails under CRAWLBENCH_TEST_ALL=1, naming each required reference with its hint', () => {
    const all = runFixture({ CRAWLBENCH_TEST_ALL: '1' });
    expect(all.status).not.toBe(0);
    for (const ref of REFERENCES) {
      if (ref.optional) expect(all.out).not.toContain(`  ${ref.name}: ${ref.what}`);
      else expect(all.out).toContain(`  ${ref.name}: ${ref.what}. Bring it: ${ref.hint}`);
    }
    expect(all.out).toMatch(/outside reference\(s\) are absent/);
  });

  it('fails under CI=true as well', () => {
    expect(runFixture({ CI: 'true' }).status).not.toBe(0);
  });
});
