/**
 * Schema 2: PageRank results kept in the crawl file, so that evaluation, the UI and
 * historical policies can reuse a computation instead of repeating it. Every run is kept
 * (different dampings can be compared); readers use the latest run of a kind. Values live
 * in WITHOUT ROWID tables keyed (run, id): a run reads back as one ordered range.
 */
export const sql = `
CREATE TABLE pagerank_runs (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('page', 'site')),
  damping REAL NOT NULL,
  tolerance REAL NOT NULL,
  iterations INTEGER NOT NULL,
  nodes INTEGER NOT NULL,
  edges INTEGER NOT NULL,                   -- distinct links (page) or site pairs (site), no self-links
  created_at TEXT NOT NULL                  -- ISO 8601
) STRICT;

CREATE TABLE pagerank (
  run_id INTEGER NOT NULL REFERENCES pagerank_runs(id) ON DELETE CASCADE,
  page_id INTEGER NOT NULL,
  value REAL NOT NULL,
  PRIMARY KEY (run_id, page_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE site_pagerank (
  run_id INTEGER NOT NULL REFERENCES pagerank_runs(id) ON DELETE CASCADE,
  site_id INTEGER NOT NULL,
  value REAL NOT NULL,
  PRIMARY KEY (run_id, site_id)
) STRICT, WITHOUT ROWID;
`;
