/**
 * Schema 13: a crawl's content-hash claims appended in the order they were made, instead of
 * a table keyed by the hash (issue 28; docs/performance.md, "Content hashes claimed in memory").
 *
 * Each fetched HTML page claims its content hash (SHA-1): the first page with a hash keeps its
 * links, a later one is its duplicate. content_hashes, keyed by the hash, put every fetched
 * page's claim at a random place in a table of millions of rows: bench/frontier/sqlite-floor
 * measured 15.4 of the 87.0 s SQLite takes to store 5M URLs (1M fetched pages) with their
 * hashes. Now a crawl finds a hash's first page in memory (content-claims.ts), and the file
 * keeps the claims as a log it reads back when a crawl resumes: content_claims, in claim order
 * (its rowid; an older file's claims come first, in page order), each claim's hash and page. A
 * page's own row holds its hash as before (pages.content_hash), which is what a claim found in
 * memory is checked against. One claim per hash: the in-memory lookup keeps it so, where the
 * key on the hash did before (test/store/content-claims.test.ts checks every crawl's claims).
 */
export const sql = `
CREATE TABLE content_claims (
  hash TEXT NOT NULL,
  page_id INTEGER NOT NULL
) STRICT;
INSERT INTO content_claims (hash, page_id) SELECT hash, page_id FROM content_hashes ORDER BY page_id;
DROP TABLE content_hashes;
`;
