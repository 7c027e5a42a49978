/**
 * The steps of each paper, in the order `reproduce` runs them, and what every step is given.
 */
import { caoModes, caoStrategies } from './cao.js';
import { figure47, table41, table42 } from './castillo.js';
import { graph3, graphs12, graphs45 } from './cho.js';
import type { StepResult } from './output.js';
import type { StepContext } from './context.js';
import { turkTables } from './turk.js';

export const PAPERS = ['castillo', 'cho', 'cao', 'turk'] as const;
export type Paper = (typeof PAPERS)[number];


export interface Step {
  name: string;
  /** Which graph the step needs: the national web (simulations), Türk's graph, or none (Cao's own test web). */
  graph: 'national' | 'turk' | 'none';
  run: (ctx: StepContext) => StepResult | Promise<StepResult>;
}

export const STEPS: Record<Paper, Step[]> = {
  castillo: [
    { name: 'table-4.1', graph: 'national', run: table41 },
    { name: 'figure-4.7', graph: 'national', run: figure47 },
    { name: 'table-4.2', graph: 'national', run: table42 },
  ],
  cho: [
    { name: 'graphs-1-2', graph: 'national', run: graphs12 },
    { name: 'graph-3', graph: 'national', run: graph3 },
    { name: 'graphs-4-5', graph: 'national', run: graphs45 },
  ],
  cao: [
    { name: 'figure-4', graph: 'none', run: caoModes },
    { name: 'figure-7', graph: 'none', run: caoStrategies },
  ],
  turk: [{ name: 'tables-6.2-6.5', graph: 'turk', run: turkTables }],
};
