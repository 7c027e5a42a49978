/**
 * Timed callbacks of the simulation, earliest first; callbacks due at the same moment run
 * in the order they were scheduled, so a run is reproducible to the event.
 */
export class EventQueue {
  private times: number[] = [];
  private seqs: number[] = [];
  private fns: Array<() => void> = [];
  private seq = 0;

  get size(): number {
    return this.times.length;
  }

  /** Time of the next event, Infinity if none. */
  peekTime(): number {
    return this.times.length > 0 ? this.times[0]! : Infinity;
  }

  push(at: number, fn: () => void): void {
    let i = this.times.length;
    this.times.push(at);
    this.seqs.push(this.seq++);
    this.fns.push(fn);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.before(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  pop(): (() => void) | undefined {
    const n = this.times.length;
    if (n === 0) return undefined;
    const fn = this.fns[0]!;
    this.swap(0, n - 1);
    this.times.pop();
    this.seqs.pop();
    this.fns.pop();
    let i = 0;
    const m = n - 1;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let b = i;
      if (l < m && this.before(l, b)) b = l;
      if (r < m && this.before(r, b)) b = r;
      if (b === i) break;
      this.swap(i, b);
      i = b;
    }
    return fn;
  }

  private before(a: number, b: number): boolean {
    return this.times[a]! < this.times[b]! || (this.times[a] === this.times[b] && this.seqs[a]! < this.seqs[b]!);
  }

  private swap(a: number, b: number): void {
    [this.times[a], this.times[b]] = [this.times[b]!, this.times[a]!];
    [this.seqs[a], this.seqs[b]] = [this.seqs[b]!, this.seqs[a]!];
    [this.fns[a], this.fns[b]] = [this.fns[b]!, this.fns[a]!];
  }
}
