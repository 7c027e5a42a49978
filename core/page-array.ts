/** The typed arrays a PageArray may hold (few kinds, so that its accesses stay fast in V8). */
export type PageTypedArray = Uint16Array | Int32Array | Uint32Array | Float64Array;

/** Ids per chunk: 65,536 (a Float64 chunk is 512 KiB, a Uint16 one 128 KiB). */
const SHIFT = 16;
const CHUNK = 1 << SHIFT;
const MASK = CHUNK - 1;

/**
 * A number per page, indexed by page id (ids are dense: 1, 2, 3... in discovery order), in
 * fixed chunks of 65,536 ids made when first written. The state a crawl keeps for each of its
 * pages (the store's page facts, a policy's counts and sites, the scheduler's heap positions)
 * lives in these instead of Maps: a Map costs 40 to 80 bytes an entry and V8 refuses one past
 * 2^24 (16.8 million) entries, where a national crawl knows 50 million URLs. A chunked array
 * never copies what it holds to grow (a flat array grown by doubling holds up to twice what it
 * needs, and three times while it is copied: at 50 million pages, 600 MB for a 4-byte field
 * that needs 200 MB). Reading a chunk never written returns the empty value.
 */
export class PageArray<A extends PageTypedArray> {
  private chunks: Array<A | undefined> = [];

  /**
   * @param make a new chunk of `n` entries, each already holding `empty`
   * @param empty what a page never written holds (0, or -1 or NaN when 0 is a value)
   */
  constructor(
    private readonly make: (n: number) => A,
    readonly empty: number,
  ) {}

  get(id: number): number {
    const c = this.chunks[id >>> SHIFT];
    return c === undefined ? this.empty : c[id & MASK]!;
  }

  set(id: number, value: number): void {
    (this.chunks[id >>> SHIFT] ?? this.chunk(id))[id & MASK] = value;
  }

  /** The page back to the empty value. */
  delete(id: number): void {
    const c = this.chunks[id >>> SHIFT];
    if (c !== undefined) c[id & MASK] = this.empty;
  }

  /** Adds `n` to a page's value and returns the new value. */
  add(id: number, n: number): number {
    const c = this.chunks[id >>> SHIFT] ?? this.chunk(id);
    return (c[id & MASK] = c[id & MASK]! + n);
  }

  /** One past the largest id a chunk covers: every id at or past it holds the empty value. */
  get end(): number {
    return this.chunks.length * CHUNK;
  }

  /** Bytes the chunks hold. */
  get bytes(): number {
    let n = 0;
    for (const c of this.chunks) if (c !== undefined) n += c.byteLength;
    return n;
  }

  /** Every page back to the empty value, chunks released. */
  clear(): void {
    this.chunks = [];
  }

  private chunk(id: number): A {
    const i = id >>> SHIFT;
    if (id < 0 || !Number.isInteger(id)) throw new RangeError(`page id ${id} is not a non-negative integer`);
    while (this.chunks.length < i) this.chunks.push(undefined);
    return (this.chunks[i] = this.make(CHUNK));
  }
}

/** A PageArray of int32 values. */
export function int32Pages(empty = 0): PageArray<Int32Array> {
  return new PageArray((n) => (empty === 0 ? new Int32Array(n) : new Int32Array(n).fill(empty)), empty);
}
/** A PageArray of uint32 values (counts). */
export function uint32Pages(): PageArray<Uint32Array> {
  return new PageArray((n) => new Uint32Array(n), 0);
}
/** A PageArray of uint16 values (packed flags). */
export function uint16Pages(): PageArray<Uint16Array> {
  return new PageArray((n) => new Uint16Array(n), 0);
}
/** A PageArray of doubles; `empty` NaN marks a page never given a value where 0 is one. */
export function float64Pages(empty = 0): PageArray<Float64Array> {
  return new PageArray((n) => (empty === 0 ? new Float64Array(n) : new Float64Array(n).fill(empty)), empty);
}
