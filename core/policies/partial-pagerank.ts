import { float64Pages } from '../page-array.js';
import { BatchPageRank } from './batch-pagerank.js';

/**
 * Partial-PageRank (docs/design.md section 3.1): batch-pagerank, and between recomputations a
 * page newer than the last one gets the sum over its known parents (fetched pages linking
 * to it) of PR(parent)/outdegree(parent), PR being the parent's latest PageRank or, for a
 * parent newer than that, its own partial estimate.
 */
export class PartialPageRank extends BatchPageRank {
  override readonly name = 'partial-pagerank';
  /** By page id (core/page-array.ts): 0 until a parent gives its share. */
  private readonly partial = float64Pages();

  override valueOf(id: number): number {
    return this.rankOf(id) ?? this.partial.get(id);
  }

  protected override afterFetch(pageId: number, targets: readonly number[]): void {
    if (targets.length === 0) return;
    const share = this.valueOf(pageId) / targets.length;
    for (const t of targets) {
      if (this.rankOf(t) !== undefined) continue;
      const value = this.partial.add(t, share);
      const site = this.pending.siteOf(t);
      if (site) this.host?.setPagePriority(t, site, value);
    }
  }

  protected override onRecomputed(): void {
    this.partial.clear();
  }
}
