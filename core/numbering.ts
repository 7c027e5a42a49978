/**
 * Names numbered in the order first asked: 0, 1, 2... and the same number each time after. One
 * piece for every such table: a store's SQL statements (store/store-writes.ts), two compared
 * crawls' site keys (compare/crawl-side.ts), a link graph's sites (graph/link-graph.ts).
 */
export class Numbering {
  /** The names by number. */
  readonly names: string[] = [];
  private readonly index = new Map<string, number>();

  /** The number of `name`, given it now if it has none. */
  of(name: string): number {
    let i = this.index.get(name);
    if (i === undefined) {
      i = this.names.length;
      this.names.push(name);
      this.index.set(name, i);
    }
    return i;
  }
}
