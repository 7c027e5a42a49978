/**
 * Schema 4: the crawl's timeline, one stats sample about once a second while it runs, so
 * that a reopened crawl (or a reloaded window) draws its whole history, and two crawls'
 * throughput can share one axis. `t` is the crawl's own running time in seconds (pauses
 * excluded), continuing across runs; older samples are thinned (core/store/timeline.ts) so a
 * week-long crawl keeps a bounded table.
 */
export const sql = `
CREATE TABLE timeline (
  t REAL PRIMARY KEY,                       -- crawl running time, seconds
  at REAL NOT NULL,                         -- epoch ms
  pages INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  pages_per_s REAL NOT NULL,
  bytes_per_s REAL NOT NULL,
  open_conns INTEGER NOT NULL,
  r INTEGER NOT NULL,
  sites_pending INTEGER NOT NULL,
  queued INTEGER NOT NULL,
  errors INTEGER NOT NULL,
  pagerank REAL                             -- the policy's cumulative PageRank estimate, if it keeps one
) STRICT, WITHOUT ROWID;
`;
