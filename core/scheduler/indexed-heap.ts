import { int32Pages, type PageArray } from '../page-array.js';

/** Where each id sits in a heap: the heap's own table, or one shared by the heaps of one scheduler. */
type Positions = IntMap | PageArray<Int32Array>;

const NO_IDS = new Int32Array(0);
/** The positions of a heap that has held nothing yet (never written: a heap takes its own table first). */
const NO_POSITIONS = int32Pages(-1);
const NO_PRIORITIES = new Float64Array(0);

/**
 * A binary max-heap of integer ids whose priorities can change. Order: higher priority
 * first, then lower tie key, then lower id, so that equal priorities fall back to
 * discovery order (page ids grow as pages are discovered) and runs are reproducible.
 *
 * Every pending page of a crawl sits in one of these (its site's queue), so memory per
 * entry matters: a national crawl holds tens of millions (bench/frontier: 40 million pending
 * pages at 50 million URLs). Entries live in typed arrays grown by half: an id (4 bytes) and
 * a priority (8); the tie key (8 more) only in a heap given one that differs from the id (the
 * scheduler's heap of sites), and nothing at all in an empty heap. The id -> slot index is
 * either the heap's own open-addressing table or, for the page queues of one scheduler, one
 * array by page id that all its site queues share (usePositions): a page is in one site's
 * queue at a time, and a heap checks that the slot it is told holds the id. So 12 to 18 bytes
 * per pending page plus 4 per known page, where separate typed arrays doubling and a table per
 * heap took 36 to 72.
 */
export class IndexedHeap {
  private n = 0;
  private ids = NO_IDS;
  private prio = NO_PRIORITIES;
  /** null while every tie key is the id itself. */
  private tie: Float64Array | null = null;
  private pos: Positions = NO_POSITIONS;

  get size(): number {
    return this.n;
  }
  /** Bytes held (for the benchmarks' accounting; shared positions not counted). */
  get bytes(): number {
    return this.ids.byteLength + this.prio.byteLength + (this.tie?.byteLength ?? 0) + (this.pos instanceof IntMap ? this.pos.bytes : 0);
  }
  /**
   * Keeps positions in `shared` (by id, -1: none), shared with other heaps whose ids never
   * overlap this one's (the page queues of one scheduler); what this heap held moves there.
   */
  usePositions(shared: PageArray<Int32Array>): void {
    if (this.pos === shared) return;
    for (let i = 0; i < this.n; i++) shared.set(this.ids[i]!, i);
    this.pos = shared;
  }
  has(id: number): boolean {
    return this.slotOf(id) >= 0;
  }
  peek(): number | undefined {
    return this.n > 0 ? this.ids[0] : undefined;
  }
  peekPriority(): number | undefined {
    return this.n > 0 ? this.prio[0] : undefined;
  }
  priorityOf(id: number): number | undefined {
    const i = this.slotOf(id);
    return i < 0 ? undefined : this.prio[i];
  }
  /** Inserts, or updates the priority of an id already present. */
  set(id: number, priority: number, tie = id): void {
    if (tie !== id && this.tie === null) this.keepTies();
    const i = this.slotOf(id);
    if (i < 0) {
      if (this.n === this.ids.length) this.grow();
      const k = this.n++;
      this.ids[k] = id;
      this.prio[k] = priority;
      if (this.tie !== null) this.tie[k] = tie;
      if (this.pos === NO_POSITIONS) this.pos = new IntMap();
      this.pos.set(id, k);
      this.up(k);
    } else {
      this.prio[i] = priority;
      if (this.tie !== null) this.tie[i] = tie;
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
    const i = this.slotOf(id);
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

  /** The slot holding `id`, or -1 (a shared position may be another heap's: the slot must hold the id). */
  private slotOf(id: number): number {
    const i = this.pos.get(id);
    return i >= 0 && i < this.n && this.ids[i] === id ? i : -1;
  }
  /** Grows by half: a site's queue of 25,000 pages doubled would hold up to twice that. */
  private grow(): void {
    const cap = Math.max(4, Math.ceil(this.ids.length * 1.5));
    const ids = new Int32Array(cap);
    const prio = new Float64Array(cap);
    ids.set(this.ids);
    prio.set(this.prio);
    this.ids = ids;
    this.prio = prio;
    if (this.tie !== null) {
      const tie = new Float64Array(cap);
      tie.set(this.tie);
      this.tie = tie;
    }
  }
  /** From now on a tie key is kept per entry; until now each was the id. */
  private keepTies(): void {
    const tie = new Float64Array(this.ids.length);
    for (let i = 0; i < this.n; i++) tie[i] = this.ids[i]!;
    this.tie = tie;
  }
  private removeAt(i: number): void {
    const last = --this.n;
    this.pos.delete(this.ids[i]!);
    if (i !== last) {
      this.ids[i] = this.ids[last]!;
      this.prio[i] = this.prio[last]!;
      if (this.tie !== null) this.tie[i] = this.tie[last]!;
      this.pos.set(this.ids[i]!, i);
      this.down(this.up(i));
    }
    if (this.n === 0 && this.ids.length > 64) {
      // A drained site keeps nothing big.
      this.ids = NO_IDS;
      this.prio = NO_PRIORITIES;
      if (this.tie !== null) this.tie = new Float64Array(0);
    }
  }
  private before(a: number, b: number): boolean {
    const pa = this.prio[a]!;
    const pb = this.prio[b]!;
    if (pa !== pb) return pa > pb;
    const tie = this.tie;
    if (tie !== null) {
      const ta = tie[a]!;
      const tb = tie[b]!;
      if (ta !== tb) return ta < tb;
    }
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
    if (tie !== null) {
      const t = tie[a]!;
      tie[a] = tie[b]!;
      tie[b] = t;
    }
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

  get bytes(): number {
    return this.keys.byteLength + this.vals.byteLength;
  }

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
