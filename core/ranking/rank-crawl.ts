import { CrawlReader, type RunKind } from '../store/crawl-reader.js';
import type { Db } from '../store/database.js';
import { PageRankWriter } from '../store/pagerank-writer.js';
import { loadCrawlGraph } from './crawl-graph.js';
import { DEFAULT_DAMPING, DEFAULT_TOLERANCE, pagerank } from './pagerank.js';
import { loadSiteGraph } from './site-graph.js';

export interface RankOptions {
  damping?: number;
  tolerance?: number;
  /** Also rank the site graph. */
  site?: boolean;
  /** How many top pages (and sites) to report; default 10. */
  top?: number;
}

export interface RankRunSummary {
  kind: RunKind;
  runId: number;
  damping: number;
  tolerance: number;
  iterations: number;
  delta: number;
  nodes: number;
  edges: number;
  loadSeconds: number;
  computeSeconds: number;
  storeSeconds: number;
  /** URL (pages) or host (sites) with its value, highest first. */
  top: Array<{ name: string; value: number }>;
}

/**
 * Computes the PageRank of a crawl's page graph (and, with site, its weighted site graph)
 * and stores each as a new run in the crawl database: what `crawlbench rank` does. The
 * caller opens the database for writing (CrawlStore.open), which also migrates it; the
 * graphs are read through a reader over that connection, the runs stored by PageRankWriter.
 */
export function rankCrawl(db: Db, opts: RankOptions = {}): { page: RankRunSummary; site?: RankRunSummary } {
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

  const [cg, pageLoad] = timed(() => loadCrawlGraph(reader));
  const [pr, pageCompute] = timed(() => pagerank(cg.graph, { damping, tolerance }));
  const pageRun = { kind: 'page' as const, damping, tolerance, iterations: pr.iterations, nodes: cg.graph.n, edges: cg.graph.targets.length };
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
  if (!opts.site) return { page };

  const [sg, siteLoad] = timed(() => loadSiteGraph(reader));
  const [spr, siteCompute] = timed(() => pagerank(sg.graph, { damping, tolerance }));
  const siteRun = { kind: 'site' as const, damping, tolerance, iterations: spr.iterations, nodes: sg.graph.n, edges: sg.graph.targets.length };
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
  return { page, site };
}
