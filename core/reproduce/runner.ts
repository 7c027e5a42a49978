/**
 * `crawlbench reproduce`: every step of the papers asked for, on the graphs given (else the
 * generated ones of the scale), each table and figure written as CSV and SVG into the output
 * folder, then report.md (every setting and where it differs from the paper) and summary.json
 * (everything the report shows, for `npm run results` and the tests). Both are rewritten after
 * every step, so an interrupted run keeps what it finished.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { badOption } from '../errors.js';
import type { StepContext } from './context.js';
import { writeItem, type ReproduceSummary } from './output.js';

export type { ReproduceSummary } from './output.js';
import { reportMarkdown } from './report.js';
import { generatedGraph, graphName, type GraphSpec, type Scale } from './scale.js';
import { STEPS, type Paper, type Step } from './steps.js';
import { closeSimulations } from './sim-runs.js';
import { makeFolders } from '../folders.js';

export interface ReproduceOptions {
  papers: Paper[];
  /** Graphs given (--graph); none: the scale's generated webs. */
  graphs: string[];
  outDir: string;
  scale: Scale;
  log: (msg: string) => void;
  /** Called as each step ends, with its wall time. */
  onStep?: (paper: Paper, step: string, seconds: number, cpuSeconds?: number) => void;
}


/** How the report names a generated graph. */
export function generatedLabel(s: GraphSpec): string {
  return `the generated national web (${graphName(s)}: ${s.pages.toLocaleString('en-US')} pages on ${s.sites.toLocaleString('en-US')} sites, at most ${s.maxSitePages.toLocaleString('en-US')} a site)`;
}

interface Target {
  graph: string;
  label: string;
  dir: string;
}

async function targets(step: Step, o: ReproduceOptions): Promise<Target[]> {
  if (step.graph === 'none') return [{ graph: '', label: 'the test web', dir: '.' }];
  if (o.graphs.length > 0) {
    return o.graphs.map((g) => {
      const label = basename(g.replace(/\/+$/, ''));
      return { graph: g, label, dir: o.graphs.length > 1 ? label : '.' };
    });
  }
  const spec = step.graph === 'national' ? o.scale.national : o.scale.turk;
  return [{ graph: await generatedGraph(spec, o.log), label: generatedLabel(spec), dir: '.' }];
}

export async function reproduce(o: ReproduceOptions): Promise<ReproduceSummary> {
  const labels = o.graphs.map((g) => basename(g.replace(/\/+$/, '')));
  if (new Set(labels).size !== labels.length) throw badOption('--graph', 'two graphs have the same name; their files would go to one folder');
  makeFolders(o.outDir);
  const t0 = performance.now();
  const shared = new Map<string, unknown>();
  const summary: ReproduceSummary = { scale: o.scale.name, date: new Date().toISOString(), papers: o.papers, steps: [], seconds: 0 };
  try {
    for (const paper of o.papers) {
      for (const step of STEPS[paper]) {
        for (const target of await targets(step, o)) {
          await runStep(o, paper, step, target, shared, summary);
          summary.seconds = (performance.now() - t0) / 1000;
          save(o.outDir, summary);
        }
      }
    }
  } finally {
    await closeSimulations();
  }
  save(o.outDir, summary);
  return summary;
}

/** One step on one target: its items written, its wall and CPU time and the load kept in the summary. */
async function runStep(o: ReproduceOptions, paper: Paper, step: Step, target: Target, shared: Map<string, unknown>, summary: ReproduceSummary): Promise<void> {
  const dir = join(o.outDir, target.dir);
  makeFolders(dir);
  o.log(`${paper} ${step.name} on ${target.label} ...`);
  const started = performance.now();
  const cpu0 = cpuSeconds();
  const ctx: StepContext = { graph: target.graph, graphLabel: target.label, scale: o.scale, outDir: dir, log: o.log, shared };
  const result = await step.run(ctx);
  result.seconds = (performance.now() - started) / 1000;
  const cpu1 = cpuSeconds();
  if (cpu0 !== null && cpu1 !== null) {
    result.cpuSeconds = cpu1 - cpu0;
    summary.cpuSeconds = (summary.cpuSeconds ?? 0) + result.cpuSeconds;
  }
  for (const item of result.items) {
    for (const f of writeItem(dir, item)) if (f instanceof Error) summary.pngProblem = f.message;
  }
  summary.steps.push({ ...result, dir: target.dir, graph: target.label });
  const load = loadavg()[0]!;
  summary.load = { min: Math.min(summary.load?.min ?? load, load), max: Math.max(summary.load?.max ?? load, load) };
  o.onStep?.(paper, step.name, result.seconds, result.cpuSeconds);
}

/**
 * CPU seconds of this process and of its children that have ended (their times are added to
 * ours when they are waited for): /proc/self/stat's utime, stime, cutime and cstime. The wall
 * time depends on what else the machine runs; this does not. Null where there is no /proc.
 */
function cpuSeconds(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14-17 of proc(5), counted from the state (field 3) at index 0.
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
  } catch {
    return null;
  }
}

function save(dir: string, summary: ReproduceSummary): void {
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary, null, 1) + '\n');
  writeFileSync(join(dir, 'report.md'), reportMarkdown(summary));
}
