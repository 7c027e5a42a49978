/**
 * A binary max-heap of integer ids whose priorities can change. Order: higher priority
 * first, then lower tie key, then lower id, so that equal priorities fall back to
 * discovery order (page ids grow as pages are discovered) and runs are reproducible.
 *
 * Every pending page of a crawl sits in one of these (its site's queue), so memory per
 * entry matters: a national crawl holds millions. Entries live in typed arrays and the
 * id -> slot index is an open-addressing table of two Int32Arrays; about 40 bytes per entry
 * instead of ~100 with JS arrays and a Map (bench/frontier).
 */
export class IndexedHeap {
  private n = 0;
  private ids = new Int32Array(4);
  private prio = new Float64Array(4);
  private tie = new Float64Array(4);
  private readonly pos = new IntMap();

  get size(): number {
    return this.n;
  }
  has(id: number): boolean {
    return this.pos.get(id) >= 0;
  }
  peek(): number | undefined {
    return this.n > 0 ? this.ids[0] : undefined;
  }
  peekPriority(): number | undefined {
    return this.n > 0 ? this.prio[0] : undefined;
  }
  priorityOf(id: number): number | undefined {
    const i = this.pos.get(id);
    return i < 0 ? undefined : this.prio[i];
  }
  /** Inserts, or updates the priority of an id already present. */
  set(id: number, priority: number, tie = id): void {
    const i = this.pos.get(id);
    if (i < 0) {
      if (this.n === this.ids.length) this.grow();
      const k = this.n++;
      this.ids[k] = id;
      this.prio[k] = priority;
      this.tie[k] = tie;
      this.pos.set(id, k);
      this.up(k);
    } else {
      this.prio[i] = priority;
      this.tie[i] = tie;
      this.down(this.up(i));
    }
  }
  pop(): number | undefined {
    if (this.n === 0) return undefined;
    const top = this.ids[0]!;
    this.removeAt(0);
    return top;
  }
  delete(id: number): boolean {
    const i = this.pos.get(id);
    if (i < 0) return false;
    this.removeAt(i);
    return true;
  }
  /**
   * The k highest priorities, best first, without removing anything: a best-first walk
   * of the heap's tree (O(k log k)), for policies that look at the next k pages of a site.
   */
  topPriorities(k: number): number[] {
    const out: number[] = [];
    if (k <= 0 || this.n === 0) return out;
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
        if (child >= this.n) continue;
        cand.push(child);
        siftUp(cand, cand.length - 1, better);
      }
    }
    return out;
  }
  *entries(): IterableIterator<[id: number, priority: number]> {
    for (let i = 0; i < this.n; i++) yield [this.ids[i]!, this.prio[i]!];
  }

  private grow(): void {
    const cap = this.ids.length * 2;
    const ids = new Int32Array(cap);
    const prio = new Float64Array(cap);
    const tie = new Float64Array(cap);
    ids.set(this.ids);
    prio.set(this.prio);
    tie.set(this.tie);
    this.ids = ids;
    this.prio = prio;
    this.tie = tie;
  }
  private removeAt(i: number): void {
    const last = --this.n;
    this.pos.delete(this.ids[i]!);
    if (i !== last) {
      this.ids[i] = this.ids[last]!;
      this.prio[i] = this.prio[last]!;
      this.tie[i] = this.tie[last]!;
      this.pos.set(this.ids[i]!, i);
      this.down(this.up(i));
    }
    if (this.n === 0 && this.ids.length > 64) {
      // A drained site keeps nothing big.
      this.ids = new Int32Array(4);
      this.prio = new Float64Array(4);
      this.tie = new Float64Array(4);
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
    const id = ids[a]!;
    ids[a] = ids[b]!;
    ids[b] = id;
    const p = prio[a]!;
    prio[a] = prio[b]!;
    prio[b] = p;
    const t = tie[a]!;
    tie[a] = tie[b]!;
    tie[b] = t;
    this.pos.set(ids[a]!, a);
    this.pos.set(ids[b]!, b);
  }
  /** Moves slot i up while it beats its parent; returns where it ended. */
  private up(i: number): number {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
    return i;
  }
  private down(i: number): void {
    const n = this.n;
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

/**
 * Non-negative int32 keys -> non-negative int32 values, open addressing with linear probing
 * and backward-shift deletion (no tombstones), at most half full. -1 = absent.
 */
class IntMap {
  private keys = new Int32Array(8).fill(-1);
  private vals = new Int32Array(8);
  private bits = 3;
  private count = 0;

  get(key: number): number {
    const { keys } = this;
    const mask = keys.length - 1;
    for (let i = this.slot(key); ; i = (i + 1) & mask) {
      const k = keys[i]!;
      if (k === key) return this.vals[i]!;
      if (k === -1) return -1;
    }
  }
  set(key: number, value: number): void {
    const { keys } = this;
    const mask = keys.length - 1;
    let i = this.slot(key);
    for (; keys[i] !== -1; i = (i + 1) & mask) {
      if (keys[i] === key) {
        this.vals[i] = value;
        return;
      }
    }
    keys[i] = key;
    this.vals[i] = value;
    if (++this.count * 2 > keys.length) this.resize(this.bits + 1);
  }
  delete(key: number): void {
    const { keys, vals } = this;
    const mask = keys.length - 1;
    let i = this.slot(key);
    while (keys[i] !== key) {
      if (keys[i] === -1) return;
      i = (i + 1) & mask;
    }
    // Shift back the entries after i that probed past it, so lookups never meet a hole early.
    for (let j = (i + 1) & mask; keys[j] !== -1; j = (j + 1) & mask) {
      const home = this.slot(keys[j]!);
      if (((j - home) & mask) >= ((j - i) & mask)) {
        keys[i] = keys[j]!;
        vals[i] = vals[j]!;
        i = j;
      }
    }
    keys[i] = -1;
    this.count--;
    if (this.bits > 3 && this.count * 8 < keys.length) this.resize(this.bits - 1);
  }

  private slot(key: number): number {
    return Math.imul(key, 0x9e3779b1) >>> (32 - this.bits);
  }
  private resize(bits: number): void {
    const { keys, vals } = this;
    this.bits = bits;
    this.keys = new Int32Array(1 << bits).fill(-1);
    this.vals = new Int32Array(1 << bits);
    this.count = 0;
    for (let i = 0; i < keys.length; i++) if (keys[i] !== -1) this.set(keys[i]!, vals[i]!);
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
