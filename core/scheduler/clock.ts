/**
 * Time as the scheduler sees it, injected so that the simulator can drive the same
 * scheduler and policies with a virtual clock. Times are epoch milliseconds.
 */
export interface Clock {
  now(): number;
  /** Calls cb at (or soon after) time `at`; returns a function that cancels it. */
  setTimer(at: number, cb: () => void): () => void;
}

/** Wall-clock time with sub-millisecond resolution, comparable with the test web's log. */
export class RealClock implements Clock {
  now(): number {
    return performance.timeOrigin + performance.now();
  }
  setTimer(at: number, cb: () => void): () => void {
    const t = setTimeout(cb, Math.max(0, at - this.now()));
    return () => clearTimeout(t);
  }
}
