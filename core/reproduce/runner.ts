/**
 * `crawlbench reproduce`: every step of the papers asked for, on the graphs given (else the
 * generated ones of the scale), each table and figure written as CSV and SVG into the output
 * folder, then report.md (every setting and where it differs from the paper) and summary.json
 * (everything the report shows, for `npm run results` and the tests). Both are rewritten after
 * every step, so an interrupted run keeps what it finished.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { badOption } from '../errors.js';
import type { StepContext } from './context.js';
import { writeItem, type ReproduceSummary } from './output.js';

export type { ReproduceSummary } from './output.js';
import { reportMarkdown } from './report.js';
import { generatedGraph, graphName, type GraphSpec, type Scale } from './scale.js';
import { STEPS, type Paper, type Step } from './steps.js';
import { forgetSimulations } from './sim-runs.js';

export interface ReproduceOptions {
  papers: Paper[];
  /** Graphs given (--graph); none: the scale's generated webs. */
  graphs: string[];
  outDir: string;
  scale: Scale;
  log: (msg: string) => void;
  /** Called as each step ends, with its wall time. */
  onStep?: (paper: Paper, step: string, seconds: number) => void;
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
  mkdirSync(o.outDir, { recursive: true });
  const t0 = performance.now();
  const shared = new Map<string, unknown>();
  const summary: ReproduceSummary = { scale: o.scale.name, date: new Date().toISOString(), papers: o.papers, steps: [], seconds: 0 };
  for (const paper of o.papers) {
    for (const step of STEPS[paper]) {
      for (const target of await targets(step, o)) {
        const dir = join(o.outDir, target.dir);
        mkdirSync(dir, { recursive: true });
        o.log(`${paper} ${step.name} on ${target.label} ...`);
        const started = performance.now();
        const ctx: StepContext = { graph: target.graph, graphLabel: target.label, scale: o.scale, outDir: dir, log: o.log, shared };
        const result = await step.run(ctx);
        result.seconds = (performance.now() - started) / 1000;
        for (const item of result.items) {
          for (const f of writeItem(dir, item)) if (f instanceof Error) summary.pngProblem = f.message;
        }
        summary.steps.push({ ...result, dir: target.dir, graph: target.label });
        summary.seconds = (performance.now() - t0) / 1000;
        const load = loadavg()[0]!;
        summary.load = { min: Math.min(summary.load?.min ?? load, load), max: Math.max(summary.load?.max ?? load, load) };
        o.onStep?.(paper, step.name, result.seconds);
        save(o.outDir, summary);
      }
    }
  }
  forgetSimulations();
  save(o.outDir, summary);
  return summary;
}

function save(dir: string, summary: ReproduceSummary): void {
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary, null, 1) + '\n');
  writeFileSync(join(dir, 'report.md'), reportMarkdown(summary));
}
