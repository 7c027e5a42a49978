import { CrawlReader } from '../store/crawl-reader.js';
import type { Db } from '../store/database.js';
import { PageRankWriter } from '../store/pagerank-writer.js';
import { loadCrawlGraph } from './crawl-graph.js';
import { DEFAULT_DAMPING, DEFAULT_TOLERANCE, iterationFraction, pagerank } from './pagerank.js';
import type { RankResult, RankRunSummary } from './report.js';
import { loadSiteGraph } from './site-graph.js';

export interface RankOptions {
  damping?: number;
  tolerance?: number;
  /** Also rank the site graph. */
  site?: boolean;
  /** How many top pages (and sites) to report; default 10. */
  top?: number;
  /** Told each step and how far the whole ranking is (0..1), for a progress bar. */
  progress?: (step: string, fraction: number) => void;
}

export type { RankResult, RankRunSummary } from './report.js';

/**
 * Computes the PageRank of a crawl's page graph (and, with site, its weighted site graph)
 * and stores each as a new run in the crawl database: what `crawlbench rank` does. The
 * caller opens the database for writing (CrawlStore.open), which also migrates it; the
 * graphs are read through a reader over that connection, the runs stored by PageRankWriter.
 */
export function rankCrawl(db: Db, opts: RankOptions = {}): RankResult {
  const reader = CrawlReader.over(db);
  const writer = new PageRankWriter(db);
  const damping = opts.damping ?? DEFAULT_DAMPING;
  const tolerance = opts.tolerance ?? DEFAULT_TOLERANCE;
  const top = opts.top ?? 10;
  const timed = <T>(f: () => T): [T, number] => {
    const t = performance.now();
    const value = f();
    return [value, (performance.now() - t) / 1000];
  };

  // The page graph is most of the work: 0..0.7 with a site ranking after it, else 0..1.
  const scale = opts.site ? 0.7 : 1;
  const tell = (step: string, fraction: number) => opts.progress?.(step, fraction);
  const onIteration = (from: number, to: number, what: string) => (i: number, delta: number) =>
    tell(`${what}: iteration ${i}`, from + (to - from) * iterationFraction(delta, tolerance));
  tell('reading the link graph', 0);
  const [cg, pageLoad] = timed(() => loadCrawlGraph(reader));
  tell(`computing the PageRank of ${cg.graph.n} pages`, 0.2 * scale);
  const [pr, pageCompute] = timed(() => pagerank(cg.graph, { damping, tolerance, onIteration: onIteration(0.2 * scale, 0.85 * scale, 'page PageRank') }));
  const pageRun = { kind: 'page' as const, damping, tolerance, iterations: pr.iterations, nodes: cg.graph.n, edges: cg.graph.targets.length };
  tell('storing the page PageRank', 0.85 * scale);
  const [pageId, pageStore] = timed(() => writer.save(pageRun, cg.pageIds, pr.ranks));
  const page: RankRunSummary = {
    ...pageRun,
    runId: pageId,
    delta: pr.delta,
    loadSeconds: pageLoad,
    computeSeconds: pageCompute,
    storeSeconds: pageStore,
    top: reader.topOfRun({ kind: 'page', id: pageId }, top).map(({ name, value }) => ({ name, value })),
  };
  if (!opts.site) {
    tell('done', 1);
    return { page };
  }

  tell('reading the site graph', 0.7);
  const [sg, siteLoad] = timed(() => loadSiteGraph(reader));
  tell(`computing the PageRank of ${sg.graph.n} sites`, 0.85);
  const [spr, siteCompute] = timed(() => pagerank(sg.graph, { damping, tolerance, onIteration: onIteration(0.85, 0.97, 'site PageRank') }));
  const siteRun = { kind: 'site' as const, damping, tolerance, iterations: spr.iterations, nodes: sg.graph.n, edges: sg.graph.targets.length };
  tell('storing the site PageRank', 0.97);
  const [siteId, siteStore] = timed(() => writer.save(siteRun, sg.siteIds, spr.ranks));
  const site: RankRunSummary = {
    ...siteRun,
    runId: siteId,
    delta: spr.delta,
    loadSeconds: siteLoad,
    computeSeconds: siteCompute,
    storeSeconds: siteStore,
    top: reader.topOfRun({ kind: 'site', id: siteId }, top).map(({ name, value }) => ({ name, value })),
  };
  tell('done', 1);
  return { page, site };
}
