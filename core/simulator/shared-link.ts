/** One transfer on the crawler's link. */
interface Transfer {
  remaining: number;
  cap: number;
  rate: number;
  done: () => void;
}

/** Below this many bytes left a transfer counts as complete (floating-point dust). */
const EPSILON_BYTES = 1e-6;

/**
 * The crawler's link of bandwidth B (bytes/s) shared by the transfers in progress
 * (docs/design.md section 5.4: saturation). Sharing is max-min fair: a transfer never goes faster
 * than its server's rate, and the bandwidth the slow ones leave is split equally among the
 * rest. Rates change only when a transfer starts or ends, so between those moments every
 * transfer's completion time is fixed; the simulator asks for the next one.
 */
export class SharedLink {
  private active: Transfer[] = [];
  private at = 0;
  private nextAt = Infinity;
  private next: Transfer | null = null;
  /** Bytes moved so far (for reports). */
  bytes = 0;

  constructor(readonly capacity: number) {}

  get transfers(): number {
    return this.active.length;
  }

  /** Starts moving `bytes` at most at `cap` bytes/s at time `now` (ms); `done` runs when it ends. */
  start(now: number, bytes: number, cap: number, done: () => void): void {
    this.advance(now);
    this.active.push({ remaining: Math.max(0, bytes), cap, rate: 0, done });
    this.bytes += Math.max(0, bytes);
    this.share();
  }

  /** When the next transfer ends (ms), Infinity if none is running. */
  nextCompletion(): number {
    return this.nextAt;
  }

  /** Ends the transfer due at nextCompletion() (the clock is there) and runs its callback. */
  completeNext(now: number): void {
    const t = this.next;
    if (!t) return;
    this.advance(now);
    const i = this.active.indexOf(t);
    this.active[i] = this.active[this.active.length - 1]!;
    this.active.pop();
    this.share();
    t.done();
  }

  private advance(now: number): void {
    const dt = (now - this.at) / 1000;
    if (dt > 0) {
      for (const t of this.active) t.remaining = t.rate === Infinity ? 0 : Math.max(0, t.remaining - t.rate * dt);
    }
    this.at = now;
  }

  /** Max-min fair rates, then the next completion. */
  private share(): void {
    const a = this.active;
    let capSum = 0;
    for (const t of a) capSum += t.cap;
    if (capSum <= this.capacity) {
      for (const t of a) t.rate = t.cap;
    } else {
      // Water-filling: serve the smallest caps fully while they are under the equal share.
      const order = a.slice().sort((x, y) => x.cap - y.cap);
      let left = this.capacity;
      for (let i = 0; i < order.length; i++) {
        const fair = left / (order.length - i);
        const t = order[i]!;
        t.rate = Math.min(t.cap, fair);
        left -= t.rate;
      }
    }
    this.nextAt = Infinity;
    this.next = null;
    for (const t of a) {
      const end = t.remaining <= EPSILON_BYTES ? this.at : t.rate > 0 ? this.at + (t.remaining / t.rate) * 1000 : Infinity;
      if (end < this.nextAt) {
        this.nextAt = end;
        this.next = t;
      }
    }
  }
}
