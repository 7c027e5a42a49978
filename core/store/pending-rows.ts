/**
 * What the crawl thread reads back of its own writes while the writer thread has not yet
 * committed them (store-writer.ts): with the writes on another connection, the crawl thread's
 * connection sees only committed batches, so each store keeps in memory, by key, the few
 * facts it reads back of what it wrote in the last seconds, and answers from here first.
 *
 * Each entry is stamped with the last batch that wrote it and dropped once that batch is
 * committed, when the file answers the same; so it holds a second or two of writes, never
 * the crawl. A store registers its rows with its writes (store-writes.ts), which settles them
 * as batches commit and clears them when batches are given up.
 */
export interface Settles {
  /** Batches up to `batch` are committed. */
  settle(batch: number): void;
  /** Every batch not committed was given up: the file is the truth again. */
  clear(): void;
}

export class PendingRows<K, V> implements Settles {
  private readonly rows = new Map<K, { batch: number; value: V }>();
  private readonly touched = new Map<number, K[]>();

  get(key: K): V | undefined {
    return this.rows.get(key)?.value;
  }

  set(key: K, value: V, batch: number): void {
    const e = this.rows.get(key);
    if (e === undefined) this.rows.set(key, { batch, value });
    else {
      e.batch = batch;
      e.value = value;
    }
    this.touch(key, batch);
  }

  /** The key's value to change in place, stamped with `batch`; made by `make` when there is none. */
  entry(key: K, batch: number, make: () => V): V {
    let e = this.rows.get(key);
    if (e === undefined) this.rows.set(key, (e = { batch, value: make() }));
    else e.batch = batch;
    this.touch(key, batch);
    return e.value;
  }

  values(): IterableIterator<V> {
    return [...this.rows.values()].map((e) => e.value).values();
  }

  get size(): number {
    return this.rows.size;
  }

  settle(batch: number): void {
    for (const [b, keys] of this.touched) {
      if (b > batch) continue;
      for (const k of keys) {
        const e = this.rows.get(k);
        if (e !== undefined && e.batch <= batch) this.rows.delete(k);
      }
      this.touched.delete(b);
    }
  }

  clear(): void {
    this.rows.clear();
    this.touched.clear();
  }

  private touch(key: K, batch: number): void {
    let keys = this.touched.get(batch);
    if (keys === undefined) this.touched.set(batch, (keys = []));
    keys.push(key);
  }
}
