/**
 * The steps of each paper, in the order `reproduce` runs them, and what every step is given.
 */
import { caoModes, caoStrategies } from './cao.js';
import { figure47, table41, table42 } from './castillo.js';
import { castilloBatches } from './castillo-batches.js';
import { castilloRealCrawl } from './castillo-real-crawl.js';
import { graph3, graphs12, graphs45 } from './cho.js';
import { choTopic } from './cho-topic.js';
import type { StepResult } from './output.js';
import type { StepContext } from './context.js';
import { turkTables } from './turk.js';
import { turkMeasured } from './turk-parallel.js';

export const PAPERS = ['castillo', 'cho', 'cao', 'turk'] as const;
export type Paper = (typeof PAPERS)[number];


export interface Step {
  name: string;
  /** Which graph the step needs: the national web (simulations), Türk's graph, or none (a test web of its own: Cao's, the demo web's crawl, the parallel crawls). */
  graph: 'national' | 'turk' | 'none';
  run: (ctx: StepContext) => StepResult | Promise<StepResult>;
}

export const STEPS: Record<Paper, Step[]> = {
  castillo: [
    { name: 'table-4.1', graph: 'national', run: table41 },
    { name: 'figure-4.7', graph: 'national', run: figure47 },
    { name: 'table-4.2', graph: 'national', run: table42 },
    { name: 'figures-4.9-4.11', graph: 'national', run: castilloBatches },
    { name: 'figures-4.12-4.15', graph: 'none', run: castilloRealCrawl },
  ],
  cho: [
    { name: 'graphs-1-2', graph: 'national', run: graphs12 },
    { name: 'graph-3', graph: 'national', run: graph3 },
    { name: 'graphs-4-5', graph: 'national', run: graphs45 },
    { name: 'graphs-6-7', graph: 'none', run: choTopic },
  ],
  cao: [
    { name: 'figure-4', graph: 'none', run: caoModes },
    { name: 'figure-7', graph: 'none', run: caoStrategies },
  ],
  turk: [
    { name: 'tables-6.2-6.5', graph: 'turk', run: turkTables },
    { name: 'measured', graph: 'none', run: turkMeasured },
  ],
};
