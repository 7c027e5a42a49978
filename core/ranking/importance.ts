import type { CsrGraph } from './csr.js';
import type { IrScale, LocationKind, MeasureName } from './report.js';
import { pagerank, type PageRankOptions } from './pagerank.js';

/**
 * Cho, Garcia-Molina and Page's importance metrics (Efficient crawling through URL ordering,
 * §2; docs/design.md section 4.11), each on its own scale, as the paper states its thresholds:
 * IB(P) backlinks, IR(P) PageRank summing to N, IS(P, Q) tf-idf similarity (similarity.ts),
 * IL(P) the location metric. Hot pages are those at or above a threshold G on that scale.
 */

/** The measures `crawlbench eval --measure` and the simulator take. */
export const MEASURES: readonly MeasureName[] = ['pagerank', 'backlinks', 'ir', 'similarity', 'location'];
export type { IrScale, LocationKind, MeasureName } from './report.js';

/** Cho et al. used d = 0.9 for IR and IR' (§6). */
export const CHO_DAMPING = 0.9;
/** Cho et al.'s thresholds on Stanford (§6, Graphs 1 and 3): IB >= 100, IR >= 13 (d = 0.9, sum N). */
export const CHO_HOT_BACKLINKS = 100;
export const CHO_HOT_IR = 13;

/**
 * IB(P): the number of distinct pages linking to P. The CSR graphs of crawlbench already hold
 * each (source, target) pair once with self-links dropped (docs/design.md section 4.1), so
 * this is the in-degree.
 */
export function backlinkCounts(g: CsrGraph): Float64Array {
  const out = new Float64Array(g.n);
  for (let e = 0; e < g.targets.length; e++) out[g.targets[e]!]!++;
  return out;
}

/**
 * IR(P) = (1 − d) + d · Σ IR(T_i)/c_i with a page without out-links linking to every page
 * (§2): crawlbench's PageRank (docs/design.md section 4.1) times N, so the values sum to N and
 * the average page has 1. scale '1' keeps crawlbench's normalisation (sum 1).
 */
export function irValues(g: CsrGraph, opts: Omit<PageRankOptions, 'damping'> & { damping?: number; scale?: IrScale } = {}): Float64Array {
  const { scale = 'n', damping = CHO_DAMPING, ...rest } = opts;
  const { ranks } = pagerank(g, { ...rest, damping });
  if (scale === 'n') for (let v = 0; v < ranks.length; v++) ranks[v]! *= g.n;
  return ranks;
}

export const LOCATION_KINDS: readonly LocationKind[] = ['slashes', 'com', 'home'];

/**
 * IL(P), a function of the URL alone (§2, "Location Metric"). The paper names three: URLs with
 * fewer slashes are more useful ('slashes': minus the number of slashes in the path, so the
 * home page "/" scores −1 and "/a/b" −2), URLs ending in ".com" ('com': 1 when the host ends
 * in .com, else 0), URLs containing "home" ('home': 1 when the URL does, else 0).
 */
export function locationScore(url: string, kind: LocationKind = 'slashes'): number {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return kind === 'slashes' ? -(url.split('/').length - 1) : 0;
  }
  if (kind === 'com') return u.hostname.endsWith('.com') ? 1 : 0;
  if (kind === 'home') return url.toLowerCase().includes('home') ? 1 : 0;
  let slashes = 0;
  for (const ch of u.pathname) if (ch === '/') slashes++;
  return -slashes;
}

/** Hot pages: value >= G on the measure's own scale (Crawl & Stop with Threshold, §3). */
export function hotPages(values: ArrayLike<number>, g: number): Uint8Array {
  const hot = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++) hot[i] = values[i]! >= g ? 1 : 0;
  return hot;
}

export function countHot(values: ArrayLike<number>, g: number): number {
  let n = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! >= g) n++;
  return n;
}

/** The default threshold where the paper gives one for this measure and scale, else null. */
export function paperThreshold(measure: MeasureName, damping: number, scale: IrScale): number | null {
  if (measure === 'backlinks') return CHO_HOT_BACKLINKS;
  if (measure === 'ir' && damping === CHO_DAMPING && scale === 'n') return CHO_HOT_IR;
  return null;
}
