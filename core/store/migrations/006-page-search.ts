/**
 * Schema 6: what the Pages view's sorts need (issue 18).
 * - pagerank_order: a page run read in value order (the Pages view's "by PageRank" walks it
 *   from either end, so the first page of a 3M-page crawl needs no sort). A run is written
 *   once, after a crawl, so the index costs the rank command a little and the crawl nothing.
 * - page_indegree: each page's number of in-links, filled when a crawl finishes (with the
 *   other read indexes, page-search-index.ts) and emptied when it resumes, since every new
 *   link would make it stale; page_indegree_order walks it in in-degree order.
 */
export const sql = `
CREATE INDEX pagerank_order ON pagerank(run_id, value);
CREATE TABLE page_indegree (
  page_id INTEGER PRIMARY KEY,
  indegree INTEGER NOT NULL
) STRICT;
CREATE INDEX page_indegree_order ON page_indegree(indegree);
`;
