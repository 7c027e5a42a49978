/**
 * A binary max-heap of integer ids whose priorities can change. Order: higher priority
 * first, then lower tie key, then lower id, so that equal priorities fall back to
 * discovery order (page ids grow as pages are discovered) and runs are reproducible.
 */
export class IndexedHeap {
  private ids: number[] = [];
  private prio: number[] = [];
  private tie: number[] = [];
  private pos = new Map<number, number>();

  get size(): number {
    return this.ids.length;
  }
  has(id: number): boolean {
    return this.pos.has(id);
  }
  peek(): number | undefined {
    return this.ids[0];
  }
  peekPriority(): number | undefined {
    return this.prio[0];
  }
  priorityOf(id: number): number | undefined {
    const i = this.pos.get(id);
    return i === undefined ? undefined : this.prio[i];
  }
  /** Inserts, or updates the priority of an id already present. */
  set(id: number, priority: number, tie = id): void {
    const i = this.pos.get(id);
    if (i === undefined) {
      const n = this.ids.length;
      this.ids.push(id);
      this.prio.push(priority);
      this.tie.push(tie);
      this.pos.set(id, n);
      this.up(n);
    } else {
      this.prio[i] = priority;
      this.tie[i] = tie;
      this.up(i);
      this.down(this.pos.get(id)!);
    }
  }
  pop(): number | undefined {
    const n = this.ids.length;
    if (n === 0) return undefined;
    const top = this.ids[0]!;
    this.removeAt(0);
    return top;
  }
  delete(id: number): boolean {
    const i = this.pos.get(id);
    if (i === undefined) return false;
    this.removeAt(i);
    return true;
  }
  *entries(): IterableIterator<[id: number, priority: number]> {
    for (let i = 0; i < this.ids.length; i++) yield [this.ids[i]!, this.prio[i]!];
  }

  private removeAt(i: number): void {
    const last = this.ids.length - 1;
    this.pos.delete(this.ids[i]!);
    if (i !== last) {
      this.ids[i] = this.ids[last]!;
      this.prio[i] = this.prio[last]!;
      this.tie[i] = this.tie[last]!;
      this.pos.set(this.ids[i]!, i);
    }
    this.ids.pop();
    this.prio.pop();
    this.tie.pop();
    if (i < this.ids.length) {
      const moved = this.ids[i]!;
      this.up(i);
      this.down(this.pos.get(moved)!);
    }
  }
  private before(a: number, b: number): boolean {
    const pa = this.prio[a]!;
    const pb = this.prio[b]!;
    if (pa !== pb) return pa > pb;
    const ta = this.tie[a]!;
    const tb = this.tie[b]!;
    if (ta !== tb) return ta < tb;
    return this.ids[a]! < this.ids[b]!;
  }
  private swap(a: number, b: number): void {
    const { ids, prio, tie } = this;
    [ids[a], ids[b]] = [ids[b]!, ids[a]!];
    [prio[a], prio[b]] = [prio[b]!, prio[a]!];
    [tie[a], tie[b]] = [tie[b]!, tie[a]!];
    this.pos.set(ids[a]!, a);
    this.pos.set(ids[b]!, b);
  }
  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }
  private down(i: number): void {
    const n = this.ids.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < n && this.before(l, best)) best = l;
      if (r < n && this.before(r, best)) best = r;
      if (best === i) break;
      this.swap(i, best);
      i = best;
    }
  }
}
