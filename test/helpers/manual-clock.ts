import type { Clock } from '../../core/scheduler/clock.js';

/** A clock that moves only when the test says so. */
export class ManualClock implements Clock {
  t = 1_000_000;
  private timers: Array<{ at: number; cb: () => void }> = [];
  now(): number {
    return this.t;
  }
  setTimer(at: number, cb: () => void): () => void {
    const timer = { at, cb };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((x) => x !== timer);
    };
  }
  advance(ms: number): void {
    this.t += ms;
    const due = this.timers.filter((x) => x.at <= this.t);
    this.timers = this.timers.filter((x) => x.at > this.t);
    for (const d of due) d.cb();
  }
}
