/**
 * The papers' own numbers, transcribed from their tables (and, where a paper gives a figure
 * without a table, from the figure's sentence in its text), each with the section and table
 * it comes from. `reproduce` prints them beside crawlbench's; nothing here is computed.
 */

/**
 * Castillo, Effective Web Crawling (PhD thesis, 2004), chapter 4, section 4.3.4, Table 4.1:
 * average cumulative PageRank and Kendall's tau (on a 5,000-page sample) per strategy, means
 * over the .cl and .gr collections (the historical ones on the .gr pair only), under w = 15 s,
 * c = 1 (section 4.3) and r = 1 (section 4.3.4).
 */
export const CASTILLO_TABLE_4_1: ReadonlyArray<{ policy: string; avgPageRank: number; tau: number }> = [
  { policy: 'backlink-count', avgPageRank: 0.4952, tau: 0.0157 },
  { policy: 'partial-pagerank', avgPageRank: 0.5221, tau: 0.0236 },
  { policy: 'breadth-first', avgPageRank: 0.6425, tau: 0.1293 },
  { policy: 'batch-pagerank', avgPageRank: 0.6341, tau: 0.1961 },
  { policy: 'opic', avgPageRank: 0.6709, tau: 0.2229 },
  { policy: 'larger-sites-first', avgPageRank: 0.6749, tau: 0.2498 },
  { policy: 'historical-pagerank-zero', avgPageRank: 0.6758, tau: 0.3573 },
  { policy: 'historical-pagerank-random', avgPageRank: 0.6977, tau: 0.3689 },
  { policy: 'historical-pagerank-parent', avgPageRank: 0.7074, tau: 0.352 },
  { policy: 'historical-pagerank-omniscient', avgPageRank: 0.7731, tau: 0.6385 },
  { policy: 'omniscient', avgPageRank: 0.7427, tau: 0.6504 },
];

/**
 * Castillo, section 4.3.5, Table 4.2: predicted speed-ups of larger-sites-first for r = 1, 64,
 * 256 at each bandwidth (bytes/s), relative to r = 1 at 20,000 bytes/s and more (the thesis's
 * r = 1 column is itself relative: 0.2 at 200 B/s).
 */
export const CASTILLO_TABLE_4_2: ReadonlyArray<{ bandwidth: number; r1: number; r64: number; r256: number }> = [
  { bandwidth: 200, r1: 0.2, r64: 1.6, r256: 3.0 },
  { bandwidth: 2_000, r1: 0.7, r64: 3.8, r256: 16.0 },
  { bandwidth: 20_000, r1: 1.0, r64: 27.0, r256: 83.3 },
  { bandwidth: 200_000, r1: 1.0, r64: 43.0, r256: 114.1 },
  { bandwidth: 2_000_000, r1: 1.0, r64: 54.3, r256: 204.3 },
  { bandwidth: 20_000_000, r1: 1.0, r64: 54.6, r256: 220.1 },
];

/** Castillo, section 4.3.5, Figure 4.7 (no table): its finding in words. */
export const CASTILLO_FIGURE_4_7 =
  'larger-sites-first is not affected by the number of robots; breadth-first improves as r grows (section 4.3.5)';

/**
 * Castillo, section 4.4 (Figures 4.10 and 4.11, in the text): the time to retrieve a batch with
 * one page per connection and with up to 100, at the two bandwidths of the captions.
 */
export const CASTILLO_BATCH_HOURS: ReadonlyArray<{ bandwidth: number; c: number; hours: number }> = [
  { bandwidth: 2_000, c: 1, hours: 33 },
  { bandwidth: 2_000, c: 100, hours: 29 },
  { bandwidth: 20_000, c: 1, hours: 9 },
  { bandwidth: 20_000, c: 100, hours: 3 },
];

/**
 * Castillo, section 4.5.1 (Figure 4.12, in the text): the real crawl of .cl with
 * larger-sites-first, 8 days; by the end of day 2 of 8, 50% of the pages and about 80% of the
 * PageRank; by the end of day 4, 80% of the pages and more than 95% of the PageRank.
 */
export const CASTILLO_REAL_CRAWL = { days: 8, points: [{ day: 2, pages: 0.5, pageRank: 0.8 }, { day: 4, pages: 0.8, pageRank: 0.95 }] } as const;

/**
 * Cho, Garcia-Molina, Page, Efficient crawling through URL ordering (WWW7, 1998), section 6:
 * the settings of Graphs 1-5 and the few numbers the text gives (the graphs have no tables).
 */
export const CHO_SETTINGS = {
  damping: 0.9,
  /** Graph 1 and 2: IB, hot = 100 or more backlinks; 1,400 hot pages (0.8%) of 179,000. */
  ibThreshold: 100,
  ibHotPages: 1_400,
  ibHotShare: 0.008,
  pages: 179_000,
  /** Graph 3: IR with d = 0.9 summing to N, hot = IR >= 13. */
  irThreshold: 13,
  /** Graph 4: the Database Group's site, about 1,100 pages, IB with G = 5. */
  siteThreshold: 5,
  sitePages: 1_100,
  /** Graph 7 (section 7): a hot page is on the topic and has five or more backlinks. */
  topicBacklinks: 5,
  /** Graph 7 (section 7): over 80% of the hot pages after 40% of the pages (PageRank and breadth-first). */
  graph7: { pages: 0.4, hot: 0.8 },
} as const;

/**
 * Türk, Page-to-processor assignment techniques for parallel crawlers (MSc thesis, 2004),
 * section 6.2, Tables 6.2 and 6.3: storage and page-request imbalance (%) of GP, HP and hash,
 * at the page and the site level; Tables 6.4 and 6.5: communication volume (bytes) of GP and
 * hash, messages of HP and hash.
 */
export interface TurkRow {
  k: number;
  storage: [gp: number, hp: number, hash: number];
  requests: [gp: number, hp: number, hash: number];
  volume: [gp: number, hash: number];
  messages: [hp: number, hash: number];
}

export const TURK_PAGE: readonly TurkRow[] = [
  { k: 2, storage: [0.378, 0.015, 0.237], requests: [0.393, 0.025, 0.433], volume: [1_036_283, 101_525_422], messages: [55_352, 583_151] },
  { k: 4, storage: [1.231, 0.255, 0.567], requests: [1.271, 0.23, 0.53], volume: [1_678_582, 152_337_986], messages: [102_085, 1_387_089] },
  { k: 8, storage: [3.472, 0.414, 1.298], requests: [3.507, 0.446, 0.751], volume: [1_962_202, 177_796_646], messages: [133_260, 2_298_673] },
  { k: 16, storage: [4.663, 0.538, 1.751], requests: [4.593, 0.564, 0.9], volume: [2_273_460, 190_489_244], messages: [163_817, 3_108_535] },
  { k: 32, storage: [4.708, 0.796, 2.972], requests: [4.715, 0.663, 1.58], volume: [2_445_155, 196_846_038], messages: [190_847, 3_687_317] },
  { k: 64, storage: [4.762, 4.091, 5.299], requests: [4.763, 4.448, 2.346], volume: [2_971_509, 200_033_019], messages: [210_704, 4_047_882] },
  { k: 128, storage: [4.763, 7.857, 6.982], requests: [4.763, 4.816, 3.006], volume: [5_237_738, 201_627_972], messages: [223_107, 4_251_617] },
  { k: 256, storage: [4.765, 9.966, 8.981], requests: [4.777, 8.247, 5.215], volume: [9_090_080, 202_417_736], messages: [245_029, 4_362_796] },
];

export const TURK_SITE: readonly TurkRow[] = [
  { k: 2, storage: [2.91, 0.005, 9.14], requests: [3.133, 0.005, 2.001], volume: [1_735_560, 13_475_898], messages: [14_002, 10_725] },
  { k: 4, storage: [3.74, 0.313, 12.687], requests: [3.725, 0.331, 2.718], volume: [2_625_363, 19_986_309], messages: [23_872, 25_681] },
  { k: 8, storage: [4.487, 3.031, 17.137], requests: [4.483, 3.022, 3.101], volume: [3_152_428, 23_046_239], messages: [33_687, 44_791] },
  { k: 16, storage: [4.749, 3.856, 18.185], requests: [4.724, 3.708, 3.74], volume: [3_464_325, 24_645_513], messages: [41_698, 67_022] },
  { k: 32, storage: [4.755, 7.499, 41.309], requests: [4.754, 7.735, 8.611], volume: [4_229_328, 25_582_315], messages: [51_958, 89_547] },
  { k: 64, storage: [4.761, 11.406, 56.777], requests: [4.763, 10.53, 15.442], volume: [5_723_167, 26_205_765], messages: [83_590, 110_535] },
];

/** Türk, section 6.1, Table 6.1: the dataset the tables were made on. */
export const TURK_DATASET = { pages: 913_569, sites: 15_819, pageEdges: 4_480_218, meanPageKB: 9.89, meanUrlBytes: 45.34 } as const;

/**
 * Cao, Jiang, Singh, Scheduling Web crawl for better performance and quality, section 5 (its
 * figures have no tables; these are the numbers its text gives).
 */
export const CAO_FINDINGS = {
  /** Section 5.2.1, Figure 4: HTTP/1.1 keep-alive more than twice as fast as HTTP/1.0 at the same parallelism. */
  keepAliveOverHttp10: 2,
  /** Section 5.2.1: throughput stops growing beyond 96 connections. */
  connectionsSaturate: 96,
  /** Section 5.3.2, Figure 7(c): crawl-ability has over 60% of the quality in a third of the time, 80% by the midpoint. */
  crawlAbilityThird: 0.6,
  crawlAbilityHalf: 0.8,
  /** Section 5.3.1, Figure 6(a): performance-based fetched 50% more pages than breadth-first at the midpoint. */
  performanceOverBreadthFirstAtHalf: 1.5,
} as const;
