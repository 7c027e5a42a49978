/** What every step of `reproduce` is given (steps.ts lists the steps). */
import type { Scale } from './scale.js';

export interface StepContext {
  /** The graph the step runs on (a dataset folder or a crawl database); Cao's steps make their own web. */
  graph: string;
  /** How the report names the graph (never a path of the machine). */
  graphLabel: string;
  scale: Scale;
  /** Where the step writes anything besides its items (a subgraph, crawl databases). */
  outDir: string;
  log: (msg: string) => void;
  /** What steps of one run share (the demo web's crawl), by name. */
  shared: Map<string, unknown>;
}
