/**
 * The latest stored PageRank runs of a crawl, read back without recomputing (the Results view
 * shows them at once and offers to compute again). A run is "current" when it still describes
 * the crawl (the reader's latestFreshRun test: same number of nodes, stored after the last fetch).
 */
import type { CrawlReader, PageRankRun } from '../store/crawl-reader.js';
import type { StoredPageRankDto, StoredPageRankRunDto } from './contract.js';

/** How many top pages and sites are returned with a stored run. */
export const STORED_TOP = 20;

function runDto(reader: CrawlReader, run: PageRankRun, current: boolean): StoredPageRankRunDto {
  return {
    kind: run.kind,
    runId: run.id,
    damping: run.damping,
    tolerance: run.tolerance,
    iterations: run.iterations,
    nodes: run.nodes,
    edges: run.edges,
    createdAt: run.created_at,
    current,
    top: reader.topOfRun(run, STORED_TOP).map(({ name, value }) => ({ name, value })),
  };
}

export function storedPageRank(reader: CrawlReader): StoredPageRankDto | null {
  const page = reader.latestRun('page');
  if (!page) return null;
  const fresh = reader.latestFreshRun('page');
  const site = reader.latestRun('site');
  const siteFresh = reader.latestFreshRun('site');
  return {
    page: runDto(reader, page, fresh?.id === page.id),
    site: site ? runDto(reader, site, siteFresh?.id === site.id) : null,
  };
}
