/**
 * The workbench's partitionings (GraphJobs): the hypergraph models run Zoltan PHG, each run a
 * progress event and the report's rows named by their partitioner; and cancel: a partitioning
 * under way stops when asked, its running partitioner killed, and fails with CRAWL_CANCELLED.
 * PHG on the UCI page hypergraph at K = 62 (a K no other test uses, so that the process seen is
 * this one's) takes about a second a run; 20 runs keep one under way long enough to be caught.
 * And graph exports asked for together: one file per crawl, model and format, never two
 * writers of it at once.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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

describe('graph exports asked for together', () => {
  it('four exports of one crawl, model and format at once: each a whole file or refused as busy, never a broken one', async () => {
    const dir = tmpDir();
    const web = join(dir, 'web');
    await exportGraphDir(generateWeb({ seed: 5, sites: 40, pages: 20_000, latency: false }), web);
    const jobs = new GraphJobs(join(dir, 'exports'), () => undefined);
    const lines = (path: string) => readFileSync(path, 'utf8').split('\n').length - 1;
    try {
      const runs = await Promise.allSettled([0, 1, 2, 3].map(() => jobs.exportGraph('web', web, { model: 'page', format: 'edgelist' })));
      const codes = runs.map((r) => (r.status === 'fulfilled' ? 'ok' : (r.reason as { code?: string }).code));
      // The first writes the file; the others, asked for while it is written, are told why (before: CRAWL_INTERNAL, ENOENT renaming the shared temporary file).
      expect(codes).toEqual(['ok', 'CRAWL_DB_LOCKED', 'CRAWL_DB_LOCKED', 'CRAWL_DB_LOCKED']);
      expect(runs.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : ''))).toContain('the page graph of "web" in edgelist is being written; wait for it to end, then download it');
      // Once it has ended, the same export runs again: the file is whole (a header and one line per edge; the id map a line per vertex).
      const again = await jobs.exportGraph('web', web, { model: 'page', format: 'edgelist' });
      for (const r of [runs[0]!.status === 'fulfilled' ? runs[0]!.value : null, again]) {
        const [graph, ids] = r!.files;
        expect(graph!.bytes).toBeGreaterThan(0);
        expect(lines(graph!.path)).toBe(r!.edges + 1);
        expect(lines(ids!.path)).toBe(r!.vertices + 1);
      }
      expect(again.edges).toBeGreaterThan(10_000);
      // No temporary file is left beside them.
      expect(readdirSync(join(dir, 'exports', 'graph-web')).sort()).toEqual(['page.tsv', 'page.tsv.ids.tsv']);
    } finally {
      await jobs.close();
    }
  }, 60_000);
});

describe('a graph export that fails', () => {
  it('leaves no empty folder behind, and keeps one that holds earlier exports', async () => {
    // Before: exports/graph-NAME was made before the export ran, and stayed empty when it failed.
    const dir = tmpDir();
    const bad = join(dir, 'bad.db');
    writeFileSync(bad, 'not a crawl');
    const jobs = new GraphJobs(join(dir, 'exports'), () => undefined);
    try {
      await expect(jobs.exportGraph('bad', bad, { model: 'page', format: 'edgelist' })).rejects.toMatchObject({ code: expect.stringMatching(/^CRAWL_/) });
      expect(existsSync(join(dir, 'exports', 'graph-bad'))).toBe(false);
      mkdirSync(join(dir, 'exports', 'graph-bad'), { recursive: true });
      writeFileSync(join(dir, 'exports', 'graph-bad', 'site.tsv'), 'an earlier export\n');
      await expect(jobs.exportGraph('bad', bad, { model: 'page', format: 'edgelist' })).rejects.toMatchObject({ code: expect.stringMatching(/^CRAWL_/) });
      expect(readdirSync(join(dir, 'exports', 'graph-bad'))).toEqual(['site.tsv']);
    } finally {
      await jobs.close();
    }
  });
});
