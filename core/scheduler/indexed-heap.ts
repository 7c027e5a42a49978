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
  /**
   * The k highest priorities, best first, without removing anything: a best-first walk
   * of the heap's tree (O(k log k)), for policies that look at the next k pages of a site.
   */
  topPriorities(k: number): number[] {
    const out: number[] = [];
    if (k <= 0 || this.ids.length === 0) return out;
    const cand: number[] = [0];
    const better = (a: number, b: number) => this.before(cand[a]!, cand[b]!);
    while (out.length < k && cand.length > 0) {
      const i = cand[0]!;
      out.push(this.prio[i]!);
      const last = cand.pop()!;
      if (cand.length > 0) {
        cand[0] = last;
        siftDown(cand, 0, better);
      }
      for (const child of [2 * i + 1, 2 * i + 2]) {
        if (child >= this.ids.length) continue;
        cand.push(child);
        siftUp(cand, cand.length - 1, better);
      }
    }
    return out;
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

function siftUp(a: number[], i: number, better: (x: number, y: number) => boolean): void {
  while (i > 0) {
    const p = (i - 1) >> 1;
    if (!better(i, p)) break;
    [a[i], a[p]] = [a[p]!, a[i]!];
    i = p;
  }
}
function siftDown(a: number[], i: number, better: (x: number, y: number) => boolean): void {
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let best = i;
    if (l < a.length && better(l, best)) best = l;
    if (r < a.length && better(r, best)) best = r;
    if (best === i) break;
    [a[i], a[best]] = [a[best]!, a[i]!];
    i = best;
  }
}
