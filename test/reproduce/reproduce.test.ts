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
import { itWith, present } from '../references.js';

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
const demoDb = join(out, 'demo-crawl.db');
/** Runs a command the report printed, on the graph it ran on (GRAPH, or the demo web's crawl DB); its JSON. */
async function printed(command: string, graph: string): Promise<any> {
  const args = command.replace(/^crawlbench /, '').split(' ').map((a) => (a === 'GRAPH' || a === 'DB' ? graph : a.replace('OUT/', `${out}/`)));
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
  }, 300_000);

  it('prints each step\'s time, and writes every table as CSV and every figure as CSV, SVG and PNG, named in report.md', () => {
    const steps = ['castillo table-4.1', 'castillo figure-4.7', 'castillo table-4.2', 'castillo figures-4.9-4.11', 'castillo figures-4.12-4.15', 'cho graphs-1-2', 'cho graph-3', 'cho graphs-4-5', 'cho graphs-6-7', 'cao figure-4', 'cao figure-7', 'turk tables-6.2-6.5', 'turk measured'];
    for (const s of steps) expect(stdout).toMatch(new RegExp(`^${s}: [\\d.]+ (s|min)( \\(CPU [\\d.]+ (s|min)\\))?$`, 'm'));
    const report = readFileSync(join(out, 'report.md'), 'utf8');
    const ids = summary.steps.flatMap((s) => s.items.map((i) => [i.id, i.kind] as const));
    expect(ids.map(([id]) => id)).toEqual(expect.arrayContaining(['castillo-table-4.1', 'castillo-figure-4.7', 'castillo-table-4.2', 'cho-graph-1', 'cho-graph-2', 'cho-graph-3', 'cho-graph-4', 'cho-graph-5', 'cao-figure-4', 'cao-figure-7c', 'turk-table-6.2', 'turk-table-6.3', 'turk-table-6.4', 'turk-table-6.5',
      'castillo-figure-4.9', 'castillo-figure-4.10', 'castillo-figure-4.11', 'castillo-figures-4.10-4.11', 'castillo-figure-4.12', 'castillo-figure-4.12-days', 'castillo-real-crawl-thesis',
      'castillo-figure-4.13', 'castillo-figure-4.14', 'castillo-figure-4.15', 'castillo-figure-4.15-summary', 'cho-graph-6', 'cho-graph-6-table', 'cho-graph-7', 'cho-graph-7-table']));
    // Without nats-server the step says why and draws nothing.
    if (present('nats-server')) expect(ids.map(([id]) => id)).toContain('turk-measured');
    else expect(summary.steps.find((x) => x.step === 'measured')?.skipped).toContain('nats-server');
    // One file per item: two items of one id would write over each other's CSV.
    expect(new Set(ids.map(([id]) => id)).size).toBe(ids.length);
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
    const t = table('cao-figure-4-table');
    expect(t.rows.map((r) => r[0])).toEqual(SCALES.small.cao.rList);
    for (const row of t.rows) for (const c of [1, 2, 3]) expect(Number(row[c])).toBeGreaterThan(0);
    const f7 = table('cao-figure-7');
    expect(f7.rows.map((r) => r[0])).toEqual(['breadth-first', 'performance', 'quality', 'crawl-ability']);
    expect(existsSync(join(out, 'cao-figure-7a.svg'))).toBe(true);
  });

  it("Figures 4.9-4.11 are the middle batch of simulate --batch K's breadth-first runs, at 2 and 20 KB/s, c = 1 and 100", async () => {
    const t = table('castillo-figures-4.10-4.11');
    expect(t.commands).toHaveLength(4);
    for (const [i, cmd] of t.commands.entries()) {
      expect(cmd).toMatch(/--policy breadth-first --r 256 --w 15s --c (1|100) --bandwidth (2000|20000) --batch \d+ /);
      const p = (await printed(cmd, national)).policies[0];
      const m = p.batches.find((b: any) => b.index === p.middleBatch);
      const row = t.rows[i]!;
      expect([row[column(t, 'batch')], row[column(t, 'pages')], row[column(t, 'sites')]]).toEqual([m.index, m.pages, m.sites]);
      expect(row[column(t, 'retrieval (h)')]).toBe(((m.endSeconds - m.formedSeconds) / 3600).toFixed(1));
      expect(row[column(t, 'mean active robots')]).toBe(m.meanActiveRobots.toFixed(1));
    }
    expect(t.rows.map((r) => r[column(t, 'thesis (h)')])).toEqual(['33', '9', '29', '3']);
  }, 60_000);

  it('Figures 4.12-4.15 are eval of the demo web\'s crawl cut into ten slices of its time, and simulate on its graph', async () => {
    const days = table('castillo-figure-4.12-days');
    expect(days.rows.map((r) => r[0])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const ev = await printed(days.commands.at(-1)!, demoDb);
    // Each slice's PageRank so far: eval's cumulative PageRank after the pages, in fetch order, fetched by the slice's end.
    const duration = ev.curve.at(-1).seconds;
    let k = 0;
    for (const row of days.rows) {
      const day = row[0] as number;
      while (k + 1 < ev.curve.length && (ev.curve[k + 1].seconds <= (duration * day) / 10 || day === 10)) k++;
      expect(row[column(days, 'PageRank so far')]).toBe(pct(ev.curve[k].cumulativePageRank));
    }
    const summary415 = table('castillo-figure-4.15-summary');
    expect(summary415.rows[0]!.slice(1, 4)).toEqual([ev.pagesFetched, f3(ev.averageCumulativePageRank), f3(ev.kendallTau)]);
    const sim = (await printed(summary415.commands[1]!, demoDb)).policies[0];
    expect(summary415.commands[1]).toContain('--policy larger-sites-first');
    expect(summary415.rows[1]!.slice(1, 3)).toEqual([sim.pagesFetched, f3(sim.averageCumulativePageRank)]);
    const depths = table('castillo-figure-4.14-depths');
    expect(depths.rows.reduce((n, r) => n + (r[1] as number), 0)).toBe(ev.pagesFetched);
  }, 60_000);

  it("Cho's Graphs 6 and 7 are simulate's topic crawler on the crawl's stored text, hot by content (and 5+ backlinks for Graph 7)", async () => {
    for (const id of ['cho-graph-6-table', 'cho-graph-7-table']) {
      const t = table(id);
      expect(t.notes[0]).toContain('judged on the stored text');
      for (const [i, cmd] of t.commands.entries()) {
        expect(cmd).toMatch(/--policy topic .*--topic science --topic-order (breadth-first|backlink-count|batch-pagerank) .*--measure similarity --query science/);
        expect(cmd).toContain(id === 'cho-graph-7-table' ? '--topic-radius 3' : '--topic-radius 0');
        if (id === 'cho-graph-7-table') expect(cmd).toContain('--hot-backlinks 5');
        const p = (await printed(cmd, demoDb)).policies[0];
        expect(t.rows[i]!.slice(1)).toEqual(p.cho.threshold.fetched.map((x: any) => pct(x.share)));
      }
    }
  }, 60_000);

  itWith(['nats-server'], "Türk's exchange measured by crawl --parts equals the prediction, and partition-eval's of the hash", async () => {
    const t = table('turk-measured');
    expect(t.rows.map((r) => r[1])).toEqual(['host hash', 'URL hash']);
    for (const row of t.rows) {
      expect(row[column(t, 'messages measured')]).toBe(row[column(t, 'predicted')]);
      expect(row[column(t, 'volume measured (URL bytes)')]).toBe(row[column(t, 'predicted', 1)]);
      const r = await crawlbench(['partition-eval', '--graph', join(out, 'turk-parallel', 'earlier.db'), '--model', row[2] as string, '--parts', String(row[0]), '--assign', 'hash', '--json']);
      expect(r.code, r.stderr).toBe(0);
      const m = JSON.parse(r.stdout);
      expect([row[column(t, 'messages measured')], row[column(t, 'volume measured (URL bytes)')]]).toEqual([m.messages, m.volume]);
    }
  }, 60_000);
});
