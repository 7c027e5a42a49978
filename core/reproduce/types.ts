/** What `reproduce` makes: tables, figures, the steps that made them and the run's summary (summary.json). */

export type Cell = string | number | null;

/** A table: its columns, its rows (crawlbench's and the paper's side by side), and where it comes from. */
export interface Table {
  kind: 'table';
  /** File stem: castillo-table-4.1 writes castillo-table-4.1.csv. */
  id: string;
  title: string;
  /** The paper's section and table, or what crawlbench made it from. */
  cite: string;
  columns: string[];
  rows: Cell[][];
  /** The command a user types for the same numbers (one per setting). */
  commands: string[];
  notes: string[];
}

export interface Series {
  name: string;
  points: Array<[number, number]>;
}

/** A figure: curves on one chart, written as CSV (series, x, y) and SVG. */
export interface Figure {
  kind: 'figure';
  id: string;
  title: string;
  cite: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  /** 'bar' draws the series as bars (a histogram), 'scatter' as points (a histogram on log axes); default lines. */
  style?: 'line' | 'bar' | 'scatter';
  xLog?: boolean;
  yLog?: boolean;
  /** Lines as steps: each value holds until the next point (a count that changes at instants). */
  steps?: boolean;
  commands: string[];
  notes: string[];
}

export type Item = Table | Figure;

/** One step of a paper: its items, the settings it ran with and how each differs from the paper. */
export interface StepResult {
  paper: 'castillo' | 'cho' | 'cao' | 'turk';
  step: string;
  seconds: number;
  /** CPU seconds the step used: this process and the crawls, test webs and partitioners it started and waited for (Linux; absent elsewhere). */
  cpuSeconds?: number;
  settings: Array<{ name: string; value: string; paper: string; differs: boolean }>;
  items: Item[];
  /** A step that could not run here: why (a missing tool, a graph without text...). */
  skipped?: string;
}

/** What a run of `reproduce` did: summary.json. */
export interface ReproduceSummary {
  scale: 'default' | 'small';
  date: string;
  papers: Array<StepResult['paper']>;
  /** The steps in the order they ran; `dir` is the folder of their files within the output (. or the graph's label). */
  steps: Array<StepResult & { dir: string; graph: string }>;
  seconds: number;
  /** CPU seconds of the whole run, as each step's (absent where /proc is not there to read). */
  cpuSeconds?: number;
  /** The one-minute load average, lowest and highest, taken as each step ended (the machine may be shared). */
  load?: { min: number; max: number };
  /** Why the figures have no PNG beside their SVG (resvg could not load); absent when they have. */
  pngProblem?: string;
}

