/**
 * Schema 10: the Sites view's page of 50 sites without reading every site's robots.txt answer
 * or every queued page (issue 24; bench/server-load, docs/performance.md).
 * - robots_site: robots.txt answers by site. A Sites page reads its sites' answers; without
 *   it, a scan of every origin's row (50,000 sites: 12-28 ms of the page). One row per origin,
 *   written when its robots.txt is fetched, so the crawl pays one index entry per origin.
 * - frontier_site: queued pages by site, so the state of a page of sites (pending while a page
 *   of it is queued) is a probe per site instead of a scan of the whole frontier (208,063
 *   queued pages: about 100 ms of a loaded machine's Sites page). A read index
 *   (READ_INDEXES, 003-write-optimised.ts): built when a crawl finishes or stops, dropped when
 *   it runs, where every queued page would pay an entry at a random place. Built here too, so
 *   that a crawl finished before this schema gets it when it is first opened; a crawl that
 *   resumes drops it, as it drops the others.
 */
export const sql = `
CREATE INDEX IF NOT EXISTS robots_site ON robots(site_id);
CREATE INDEX IF NOT EXISTS frontier_site ON frontier(site_id);
`;
