/**
 * `crawlbench reproduce --paper all --scale small`: every table and figure it names is written
 * (CSV; SVG and PNG for a figure), and its numbers are the ones the single commands print for
 * the same settings: the report's own printed commands (simulate, partition) are run on the
 * same graph and compared cell by cell, and partition-eval scores the hash assignments the same.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cacheDir } from '../../core/config/cache-dir.js';
import type { ReproduceSummary, Table } from '../../core/reproduce/output.js';
import { graphName, SCALES } from '../../core/reproduce/scale.js';
import { crawlbench } from '../helpers/run.js';
import { tmpDir } from '../helpers/tmp.js';
import { itWith } from '../references.js';

const out = join(tmpDir(), 'out');
const national = join(cacheDir(), 'reproduce', graphName(SCALES.small.national));
const turkGraph = join(cacheDir(), 'reproduce', graphName(SCALES.small.turk));
let summary: ReproduceSummary;
let stdout = '';

const table = (id: string): Table => {
  const t = summary.steps.flatMap((s) => s.items).find((i) => i.id === id);
  if (!t || t.kind !== 'table') throw new Error(`no table ${id}`);
  return t;
};
const column = (t: Table, name: string, nth = 0) => t.columns.map((c, i) => [c, i] as const).filter(([c]) => c === name)[nth]![1];
/** Runs a command the report printed, on the graph it ran on; its JSON. */
async function printed(command: string, graph: string): Promise<any> {
  const args = command.replace(/^crawlbench /, '').replace('GRAPH', graph).replace('OUT/', `${out}/`).split(' ');
  const r = await crawlbench(args);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}
const f3 = (x: number) => x.toFixed(3);
const pct = (x: number | null) => (x === null ? null : `${(x * 100).toFixed(1)}%`);

describe('crawlbench reproduce --paper all --scale small', () => {
  beforeAll(async () => {
    const r = await crawlbench(['reproduce', '--paper', 'all', '--scale', 'small', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    stdout = r.stdout;
    summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as ReproduceSummary;
  }, 120_000);

  it('prints each step\'s time, and writes every table as CSV and every figure as CSV, SVG and PNG, named in report.md', () => {
    const steps = ['castillo table-4.1', 'castillo figure-4.7', 'castillo table-4.2', 'cho graphs-1-2', 'cho graph-3', 'cho graphs-4-5', 'cao figure-4', 'cao figure-7', 'turk tables-6.2-6.5'];
    for (const s of steps) expect(stdout).toMatch(new RegExp(`^${s}: [\\d.]+ (s|min)$`, 'm'));
    const report = readFileSync(join(out, 'report.md'), 'utf8');
    const ids = summary.steps.flatMap((s) => s.items.map((i) => [i.id, i.kind] as const));
    expect(ids.map(([id]) => id)).toEqual(expect.arrayContaining(['castillo-table-4.1', 'castillo-figure-4.7', 'castillo-table-4.2', 'cho-graph-1', 'cho-graph-2', 'cho-graph-3', 'cho-graph-4', 'cho-graph-5', 'cao-figure-4', 'cao-figure-7c', 'turk-table-6.2', 'turk-table-6.3', 'turk-table-6.4', 'turk-table-6.5']));
    for (const [id, kind] of ids) {
      expect(readFileSync(join(out, `${id}.csv`), 'utf8').split('\n').length).toBeGreaterThan(2);
      if (kind === 'figure') {
        expect(readFileSync(join(out, `${id}.svg`), 'utf8')).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
        expect(readFileSync(join(out, `${id}.png`)).subarray(1, 4).toString()).toBe('PNG');
        expect(report).toContain(`](${id}.svg)`);
      } else expect(report).toContain(`](${id}.csv)`);
    }
    // Every step lists its settings against the paper's.
    for (const s of summary.steps) expect(s.settings.length, s.step).toBeGreaterThan(0);
    expect(report).toContain('| r | 1 | 1 (section 4.3.4: "we are using r = 1") | no |');
  });

  it("Table 4.1 is simulate's numbers under w = 15 s, c = 1, r = 1, tau on the 5,000-page sample and exact, the thesis's beside", async () => {
    const t = table('castillo-table-4.1');
    expect(t.commands[0]).toContain('--r 1 --w 15s --c 1 --tau-sample 5000');
    const sim = await printed(t.commands[0]!, national);
    expect(t.rows.map((r) => r[0])).toEqual(sim.policies.map((p: any) => p.policy));
    sim.policies.forEach((p: any, i: number) => {
      expect(t.rows[i]![column(t, 'avg cumulative PageRank')]).toBe(f3(p.averageCumulativePageRank));
      expect(t.rows[i]![column(t, 'tau-b (all pages)')]).toBe(f3(p.kendallTau));
      expect(t.rows[i]![column(t, 'Kendall tau (5000-page sample)')]).toBe(f3(p.kendallTauSampled.tau));
    });
    expect(t.rows.find((r) => r[0] === 'opic')![column(t, 'thesis')]).toBe('0.6709');
  }, 60_000);

  it('Table 4.2 is the speed-up grid simulate prints, as the thesis normalises it (over r = 1 at 20 MB/s)', async () => {
    const t = table('castillo-table-4.2');
    const grid = await printed(t.commands[0]!, national);
    const at = (r: number, b: number) => grid.cells.find((c: any) => c.r === r && c.bandwidth === b).simulatedSeconds;
    const base = at(1, 20_000_000);
    for (const row of t.rows) {
      const b = row[0] as number;
      expect(row[column(t, 'r = 64')]).toBe((base / at(64, b)).toFixed(1));
      expect(row[column(t, 'r = 256')]).toBe((base / at(256, b)).toFixed(1));
    }
  }, 60_000);

  it("Cho's Graphs 1-4 are simulate --measure's Crawl & Stop (with Threshold) on the raw scale", async () => {
    for (const [id, graph] of [['cho-graphs-1-2-table', national], ['cho-graph-3-table', national], ['cho-graph-4-table', national]] as const) {
      const t = table(id);
      const sim = await printed(t.commands[0]!, graph);
      sim.policies.forEach((p: any, i: number) => {
        expect(t.rows[i]!.slice(1)).toEqual([...p.cho.threshold.fetched.map((x: any) => pct(x.share)), ...p.cho.crawlAndStop.map((x: any) => pct(x.share))]);
      });
    }
    expect(table('cho-graphs-1-2-table').commands[0]).toContain('--measure backlinks --hot-threshold 100');
    expect(table('cho-graph-3-table').commands[0]).toContain('--measure ir --hot-threshold 13 --damping 0.9');
  }, 60_000);

  it("Türk's hash columns are partition-eval's scores of the hash assignment", async () => {
    for (const [id, model] of [['turk-table-6.2', 'page'], ['turk-table-6.3', 'site']] as const) {
      const imbalance = table(id);
      const volume = table(id === 'turk-table-6.2' ? 'turk-table-6.4' : 'turk-table-6.5');
      for (const [i, row] of imbalance.rows.entries()) {
        const k = row[0] as number;
        const r = await crawlbench(['partition-eval', '--graph', turkGraph, '--model', model, '--parts', String(k), '--assign', 'hash', '--json']);
        expect(r.code, r.stderr).toBe(0);
        const m = JSON.parse(r.stdout);
        expect(row[column(imbalance, 'storage hash')]).toBe(Number(m.storageImbalance.toFixed(3)));
        expect(row[column(imbalance, 'requests hash')]).toBe(Number(m.requestImbalance.toFixed(3)));
        expect(volume.rows[i]![column(volume, 'volume hash')]).toBe(m.volume);
        expect(volume.rows[i]![column(volume, 'messages hash')]).toBe(m.messages);
      }
    }
  }, 60_000);

  itWith(['metis', 'zoltan'], "Türk's GP and HP columns are partition's (gpmetis and Zoltan PHG, seed 1)", async () => {
    const t = table('turk-table-6.4');
    const report = await printed(t.commands[0]!, turkGraph);
    for (const row of t.rows) {
      const k = row[0];
      const gp = report.rows.find((x: any) => x.partitioner === 'gpmetis' && x.parts === k);
      const hp = report.rows.find((x: any) => x.partitioner === 'Zoltan PHG' && x.parts === k);
      expect(row[column(t, 'volume GP')]).toBe(gp.mean.volume);
      expect(row[column(t, 'messages HP')]).toBe(hp.mean.messages);
    }
    expect(t.rows[0]![column(t, 'thesis')]).toBe(1_036_283);
  }, 60_000);

  it("Cao's Figure 4 has pages per second for each mode and r, and Figure 7 each strategy's curves", () => {
    const t = table('cao-figure-4');
    expect(t.rows.map((r) => r[0])).toEqual(SCALES.small.cao.rList);
    for (const row of t.rows) for (const c of [1, 2, 3]) expect(Number(row[c])).toBeGreaterThan(0);
    const f7 = table('cao-figure-7');
    expect(f7.rows.map((r) => r[0])).toEqual(['breadth-first', 'performance', 'quality', 'crawl-ability']);
    expect(existsSync(join(out, 'cao-figure-7a.svg'))).toBe(true);
  });
});
