/**
 * Schema 8: what a recrawl needs to ask only for what changed (docs/design.md section 4.10).
 * - pages.etag, pages.last_modified: the validators the server sent with the page (ETag and
 *   Last-Modified, as received), which a later crawl guided by this one sends back
 *   (If-None-Match, If-Modified-Since).
 * - pages.not_modified: 1 when the server answered 304 Not Modified to such a request: the
 *   page counts as fetched, its status, content hash, size, type, title and links taken from
 *   the history crawl (its http_status is the history's 200, not the 304).
 */
export const sql = `
ALTER TABLE pages ADD COLUMN etag TEXT;
ALTER TABLE pages ADD COLUMN last_modified TEXT;
ALTER TABLE pages ADD COLUMN not_modified INTEGER NOT NULL DEFAULT 0;
`;
