/**
 * The Compare view's headline figures, from a CompareReport, in the words and number formats
 * the view shows (the end-to-end test reads them back against `crawlbench compare --json`).
 * A figure the report cannot give (NaN, sent as null over JSON) is shown as –.
 */
import type { CompareReport } from '../../core/api/contract.js';
import { formatNumber } from './format.js';

export interface Card {
  id: string;
  label: string;
  value: string;
  /** What the figure is, for a tooltip. */
  hint: string;
}

const ok = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);
/** 0.5514 -> "55.1 %". */
export const share = (x: number | null | undefined) => (ok(x) ? `${(x * 100).toFixed(1)} %` : '–');
/** 0.123456 -> "0.123". */
export const fixed3 = (x: number | null | undefined) => (ok(x) ? x.toFixed(3) : '–');
const count = (x: number | null | undefined) => formatNumber(x);

export function summaryCards(r: CompareReport): Card[] {
  const p = r.pagerank;
  const topK = (k: number) => p.topK.find((t) => t.k === k)?.overlap;
  const of = r.host ? ` of ${r.host}` : '';
  return [
    { id: 'pages-a', label: `Pages in A${of}`, value: count(r.pages.inA), hint: 'fetched with status 200 in crawl A' },
    { id: 'pages-b', label: `Pages in B${of}`, value: count(r.pages.inB), hint: 'fetched with status 200 in crawl B' },
    { id: 'pages-both', label: 'Pages in both', value: count(r.pages.both), hint: `only in A: ${count(r.pages.onlyA)}, only in B: ${count(r.pages.onlyB)}` },
    { id: 'pages-jaccard', label: 'Jaccard overlap (pages)', value: fixed3(r.pages.jaccard), hint: 'pages in both over pages in either' },
    { id: 'sites', label: 'Sites A / B / both', value: `${count(r.sites.inA)} / ${count(r.sites.inB)} / ${count(r.sites.both)}`, hint: 'sites with a page fetched in each crawl, and in both' },
    { id: 'sites-jaccard', label: 'Jaccard overlap (sites)', value: fixed3(r.sites.jaccard), hint: 'sites in both over sites in either' },
    { id: 'content-changed', label: 'Content changed', value: `${count(r.common.contentChanged)} of ${count(r.common.pages)}`, hint: 'pages fetched in both whose content hash differs' },
    { id: 'not-modified', label: 'Not modified (304)', value: `${count(r.common.notModifiedB)} in B, ${count(r.common.notModifiedA)} in A`, hint: 'pages a recrawl asked for only if they had changed, and the server said they had not: their content and links come from the history crawl' },
    { id: 'new-links', label: 'New links', value: share(r.links.newShare), hint: `share of B's links out of pages in both that A did not have (${count(r.links.added)} new, ${count(r.links.vanished)} vanished)` },
    { id: 'tau', label: 'Kendall tau-b', value: fixed3(p.kendallTauB), hint: 'rank correlation of PageRank over the pages in both' },
    { id: 'rho', label: 'Spearman rho', value: fixed3(p.spearmanRho), hint: 'rank correlation of PageRank over the pages in both' },
    { id: 'top100', label: 'Top-100 overlap', value: share(topK(100)), hint: 'of the 100 pages of highest PageRank in each crawl, the share in both lists' },
    { id: 'top1000', label: 'Top-1,000 overlap', value: share(topK(1000)), hint: 'of the 1,000 pages of highest PageRank in each crawl, the share in both lists' },
    { id: 'pages-share', label: "B's pages that A had", value: share(p.pagesShareInA), hint: "share of B's fetched pages that A had fetched too" },
    { id: 'pagerank-share', label: "B's PageRank they hold", value: share(p.pageRankShareInA), hint: "share of B's PageRank held by those pages (the thesis: 55% of the pages held 72%)" },
    { id: 'average-cumulative', label: 'Avg. cumulative PageRank A / B', value: `${fixed3(p.averageCumulativeA)} / ${fixed3(p.averageCumulativeB)}`, hint: 'area under each crawl’s cumulative PageRank curve (1 = best possible order)' },
  ];
}
