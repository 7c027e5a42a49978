import { runOne, type Prepared, type SimulateOptions } from './simulate.js';

export interface GridCell {
  c: number;
  bandwidth: number;
  r: number;
  pagesFetched: number;
  simulatedSeconds: number;
  /** Duration with the first r of the grid (same c and bandwidth) over this one's. */
  speedup: number;
  meanOpenConnections: number;
  wallSeconds: number;
}

/**
 * The thesis's speed-up table (docs/design.md section 5.6): one policy, every combination of c,
 * bandwidth B and r, each a full simulated crawl; the speed-up of an r is the crawl time
 * with the grid's first r (normally 1) divided by its own, at the same c and B.
 */
export function speedupGrid(
  p: Prepared,
  policy: string,
  grid: { r: number[]; c: number[]; bandwidth: number[] },
  opts: Omit<SimulateOptions, 'graph' | 'policies' | 'r' | 'c' | 'bandwidth'>,
  onCell: (cell: GridCell) => void = () => {},
  history?: ReadonlyMap<string, number>,
  historySource?: string | null,
): GridCell[] {
  const cells: GridCell[] = [];
  for (const c of grid.c) {
    for (const bandwidth of grid.bandwidth) {
      let base = NaN;
      for (const r of grid.r) {
        const res = runOne(p, policy, { ...opts, r, c, bandwidth }, history, historySource);
        const seconds = res.durationMs / 1000;
        if (Number.isNaN(base)) base = seconds;
        const cell = {
          c,
          bandwidth,
          r,
          pagesFetched: res.pagesFetched,
          simulatedSeconds: seconds,
          speedup: seconds > 0 ? base / seconds : NaN,
          meanOpenConnections: res.meanOpen,
          wallSeconds: res.wallMs / 1000,
        };
        cells.push(cell);
        onCell(cell);
      }
    }
  }
  return cells;
}
