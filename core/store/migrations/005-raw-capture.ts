/**
 * Schema 5: what a WARC export needs of a fetch, kept as it crossed the wire. Until now the
 * content store wrote a made-up status line (`HTTP/1.1 200`) and lower-cased, regrouped
 * headers, kept no final 5xx or 429 answer, and the robots table only a robots.txt body.
 * - content.raw: 1 when the record's status line and headers are as received (reason phrase,
 *   header case, order and repeats); 0 for records written before this schema.
 * - robots_content: every robots.txt answer (each redirect hop too) of a crawl that stores
 *   content, where it lies in the content segments. `after_seq` is the fetch sequence number
 *   of the last page stored before it, which places it among the pages in fetch order.
 */
export const sql = `
ALTER TABLE content ADD COLUMN raw INTEGER NOT NULL DEFAULT 0;

CREATE TABLE robots_content (
  id INTEGER PRIMARY KEY,
  site_id INTEGER NOT NULL,
  url TEXT NOT NULL,
  after_seq INTEGER NOT NULL,
  http_status INTEGER NOT NULL,
  fetched_at REAL NOT NULL,                 -- epoch ms
  segment INTEGER NOT NULL,
  offset INTEGER NOT NULL,
  request_len INTEGER NOT NULL,
  response_header_len INTEGER NOT NULL,
  body_len INTEGER NOT NULL
) STRICT;
`;
