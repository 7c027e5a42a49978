/**
 * The workbench's partitionings (GraphJobs): the hypergraph models run Zoltan PHG, each run a
 * progress event and the report's rows named by their partitioner; and cancel: a partitioning
 * under way stops when asked, its running partitioner killed, and fails with CRAWL_CANCELLED.
 * PHG on the UCI page hypergraph at K = 62 (a K no other test uses, so that the process seen is
 * this one's) takes about a second a run; 20 runs keep one under way long enough to be caught.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { GraphJobs } from '../../core/api/graph-jobs.js';
import type { PartitionProgressEvent } from '../../core/api/contract.js';
import { generateWeb } from '../../core/testweb/generator.js';
import { exportGraphDir } from '../../core/testweb/graph-files.js';
import { tmpDir } from '../helpers/tmp.js';
import { describeWith, itWith, refPath } from '../references.js';

function phgRunning(): boolean {
  try {
    return execFileSync('pgrep', ['-f', 'crawlbench-phg .*crawlbench-partition-.*/page-hypergraph.hgr 62 '], { encoding: 'utf8' }).trim() !== '';
  } catch {
    return false;
  }
}

describeWith(['zoltan'], 'partitionings in the workbench', () => {
  it('partitions the hypergraph models with Zoltan PHG, a progress event per run, each row named by its partitioner', async () => {
    const dir = tmpDir();
    const web = join(dir, 'web');
    await exportGraphDir(generateWeb({ seed: 5, sites: 6, pages: 200, latency: false }), web);
    const events: PartitionProgressEvent[] = [];
    const jobs = new GraphJobs(join(dir, 'exports'), (e) => events.push(e));
    const saved = process.env.CRAWLBENCH_KAHYPAR;
    // Without KaHyPar (optional): the same rows on every machine.
    process.env.CRAWLBENCH_KAHYPAR = join(dir, 'no-kahypar');
    try {
      const report = await jobs.partition('web', web, { jobId: 'hp', models: ['page-hypergraph', 'site-hypergraph'], parts: [2, 4], runs: 2 });
      expect(report.rows.map((r) => `${r.level} ${r.method} ${r.partitioner} ${r.parts} ${r.runs}`)).toEqual([
        'page hash hash 2 1',
        'page hash hash 4 1',
        'site hash hash 2 1',
        'site hash hash 4 1',
        'page HP Zoltan PHG 2 2',
        'page HP Zoltan PHG 4 2',
        'site HP Zoltan PHG 2 2',
        'site HP Zoltan PHG 4 2',
      ]);
      expect(report.tools.find((t) => t.name === 'Zoltan PHG')?.path).toBe(refPath('zoltan'));
      expect(events).toHaveLength(4 + 2 * 2 * 2);
      expect(events.at(-1)).toMatchObject({ jobId: 'hp', crawlId: 'web', done: 12, total: 12, step: expect.stringMatching(/^site-hypergraph HP \(Zoltan PHG\) K=4 run 2\/2: volume \d+ B, \d+ messages$/) });
    } finally {
      if (saved === undefined) delete process.env.CRAWLBENCH_KAHYPAR;
      else process.env.CRAWLBENCH_KAHYPAR = saved;
    }
  }, 60_000);

  itWith(['uci'], 'cancel kills the running partitioner and fails with CRAWL_CANCELLED', async () => {
    const events: PartitionProgressEvent[] = [];
    const jobs = new GraphJobs(tmpDir(), (e) => events.push(e));
    const run = jobs.partition('uci', refPath('uci'), { jobId: 'long', models: ['page-hypergraph'], parts: [62], runs: 20 });
    const outcome = run.then(() => 'finished', (e: { code?: string }) => e.code);
    // The hash row comes first; then PHG starts on the page hypergraph.
    await expect.poll(() => events.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    await expect.poll(phgRunning, { timeout: 30_000, interval: 20 }).toBe(true);
    const t = performance.now();
    await jobs.cancel('long');
    expect(await outcome).toBe('CRAWL_CANCELLED');
    expect(performance.now() - t).toBeLessThan(5000);
    await expect.poll(phgRunning, { timeout: 5000 }).toBe(false);
    expect(events.every((e) => e.jobId === 'long' && e.crawlId === 'uci')).toBe(true);
  }, 90_000);
});
