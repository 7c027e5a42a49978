/**
 * What the importance measures add to an evaluation and to the simulator's outcome of a policy
 * (Cho, Garcia-Molina and Page; Castillo's sampled tau), as types only: the engine builds them
 * (evaluate.ts, measure.ts, cho-models.ts), the CLI prints them. Imports nothing, so the
 * renderer may import it (browser-safe, see test/renderer/layers.test.ts).
 */

export type MeasureName = 'pagerank' | 'backlinks' | 'ir' | 'similarity' | 'location';
export type IrScale = 'n' | '1';
export type LocationKind = 'slashes' | 'com' | 'home';
/** Where the similarity's texts come from: the stored bodies (--store-content) or the titles. */
export type TextSource = 'content' | 'titles';

/** What the values of a measure are, as a report states it. */
export interface MeasureInfo {
  name: MeasureName;
  /** In words: what a value means and what the values sum to. */
  scale: string;
  damping: number | null;
  /** Similarity: the texts read (stored bodies, or titles when the crawl stored no content). */
  text: TextSource | null;
  query: string | null;
  location: LocationKind | null;
  /**
   * How hot pages are judged: 'threshold' (value >= G on the measure's own scale), or 'topic'
   * (similarity: a query word in the title or more than ten times in the body, Cho et al. §7).
   */
  hot: 'threshold' | 'topic';
}

/** One point of Cho et al.'s curves (their Graphs 1 to 7): both models against pages fetched. */
export interface ChoPoint {
  /** Pages fetched so far, as a fraction of all fetched pages. */
  fractionPages: number;
  /** Crawl & Stop: share of the top-K pages among the first K fetched (K = pages so far). */
  crawlAndStop: number;
  /** Crawl & Stop with Threshold: share of the hot pages fetched so far (null: no hot page). */
  hotFetched: number | null;
}

/** What depends on the fetch order beside the cumulative curve: Castillo's sampled tau, Cho's curves. */
export interface OrderExtras {
  /** Kendall's tau-b on a seeded sample of `size` pages (Castillo: 5,000), beside the exact one over all. */
  kendallTauSampled: { size: number; seed: number; tau: number };
  /** Crawl & Stop and Crawl & Stop with Threshold against the share of pages fetched. */
  choCurve: ChoPoint[];
}

/** An evaluation's measure, beside the fields every evaluation has. */
export interface MeasureExtras {
  measure: MeasureInfo;
}
