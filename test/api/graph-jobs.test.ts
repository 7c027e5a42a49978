/**
 * Cancel: a partitioning under way stops when asked, its running partitioner killed, and fails
 * with CRAWL_CANCELLED. KaHyPar on the UCI page hypergraph at K = 62 (a K no other test uses, so that the process seen is this one's)
 * takes tens of seconds a run, long enough to be caught mid-run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GraphJobs } from '../../core/api/graph-jobs.js';
import type { PartitionProgressEvent } from '../../core/api/contract.js';
import { tmpDir } from '../helpers/tmp.js';

const UCI = new URL('../../../shared/datasets/uci-ics-2019', import.meta.url).pathname;
const KAHYPAR = process.env.CRAWLBENCH_KAHYPAR ?? '/var/cache/crawlbench/kahypar/bin/KaHyPar';
const skip = (!existsSync(KAHYPAR) || !existsSync(UCI)) && !process.env.CI;

function kahyparRunning(): boolean {
  try {
    return execFileSync('pgrep', ['-f', 'KaHyPar -h .*crawlbench-partition-.*/page-hypergraph.hgr -k 62 '], { encoding: 'utf8' }).trim() !== '';
  } catch {
    return false;
  }
}

describe.skipIf(skip)('cancelling a partitioning', () => {
  it('kills the running partitioner and fails with CRAWL_CANCELLED', async () => {
    process.env.CRAWLBENCH_KAHYPAR ??= KAHYPAR;
    const events: PartitionProgressEvent[] = [];
    const jobs = new GraphJobs(tmpDir(), (e) => events.push(e));
    const run = jobs.partition('uci', UCI, { jobId: 'long', models: ['page-hypergraph'], parts: [62], runs: 3 });
    const outcome = run.then(() => 'finished', (e: { code?: string }) => e.code);
    // The hash row comes first; then KaHyPar starts on the page hypergraph.
    await expect.poll(() => events.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    await expect.poll(kahyparRunning, { timeout: 30_000 }).toBe(true);
    const t = performance.now();
    await jobs.cancel('long');
    expect(await outcome).toBe('CRAWL_CANCELLED');
    expect(performance.now() - t).toBeLessThan(5000);
    await expect.poll(kahyparRunning, { timeout: 5000 }).toBe(false);
    expect(events.every((e) => e.jobId === 'long' && e.crawlId === 'uci')).toBe(true);
  }, 90_000);
});
