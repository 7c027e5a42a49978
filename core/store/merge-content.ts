/**
 * The stored content of a parallel crawl's parts (--store-content) carried into the merged crawl
 * (merge-parts.ts): each part kept its fetches in its own content folder (`part-I.db.content/`,
 * segment files 00001.bin, ...; content-store.ts), indexed by its `content` and `robots_content`
 * tables. The merged crawl's folder `NAME.db.content/` takes every part's segments renumbered
 * one part after another (part 0's 1..n0, part 1's n0+1..., and so on), as hard links where the
 * file system allows (no byte copied, the parts keep theirs) and as copies elsewhere; its
 * tables point into them with the merged page and site ids:
 *
 * - a page's capture is the one of the row the merge kept for its URL (a page two workers both
 *   fetched keeps the kept fetch's capture);
 * - every robots.txt answer of every part is kept (with a page assignment several workers asked
 *   a site's robots.txt), placed among the merged fetches by its time: after the last page
 *   fetched before it, as a crawl of one process places it.
 */
import { copyFileSync, existsSync, linkSync, readdirSync } from 'node:fs';
import { segmentFile } from './content-store.js';
import type { Db } from './database.js';
import { makeFolders } from '../folders.js';

export const CONTENT_TEMP_TABLES = `
CREATE TEMP TABLE all_content AS SELECT 0 AS part, * FROM content WHERE 0;
CREATE TEMP TABLE all_robots_content AS SELECT 0 AS part, r.*, '' AS host FROM robots_content r WHERE 0;
CREATE TEMP TABLE segment_base (part INTEGER PRIMARY KEY, base INTEGER NOT NULL);
`;

/** The segment numbers of a content folder (none when the part stored no content). */
export function segmentsOf(dir: string): number[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((f) => /^(\d+)\.bin$/.exec(f)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

/** Copies the attached part `src`'s capture index into the temporary tables (inside gather's transaction). */
export function gatherContent(db: Db, part: number, base: number): void {
  db.exec(`INSERT INTO temp.all_content SELECT ${part}, * FROM src.content`);
  db.exec(`INSERT INTO temp.all_robots_content SELECT ${part}, r.*, s.host FROM src.robots_content r JOIN src.sites s ON s.id = r.site_id`);
  db.prepare('INSERT INTO temp.segment_base (part, base) VALUES (?, ?)').run(part, base);
}

/** After the pages, sites and ids are merged (merge-parts.ts MERGE): the merged crawl's capture index. */
export const MERGE_CONTENT = `
INSERT INTO content (page_id, segment, offset, request_len, response_header_len, body_len, raw)
  SELECT n.new_id, c.segment + b.base, c.offset, c.request_len, c.response_header_len, c.body_len, c.raw
  FROM temp.all_content c JOIN temp.winner w ON w.part = c.part AND w.id = c.page_id
  JOIN temp.new_ids n ON n.url = w.url JOIN temp.segment_base b ON b.part = c.part
  ORDER BY n.new_id;
CREATE TEMP TABLE seq_at AS SELECT fetched_at AS at, fetch_seq AS seq FROM pages WHERE fetch_seq IS NOT NULL;
CREATE INDEX temp.seq_at_at ON seq_at(at, seq);
INSERT INTO robots_content (site_id, url, after_seq, http_status, fetched_at, segment, offset, request_len, response_header_len, body_len)
  SELECT s.new_id, r.url, COALESCE((SELECT q.seq FROM temp.seq_at q WHERE q.at <= r.fetched_at ORDER BY q.at DESC, q.seq DESC LIMIT 1), 0),
    r.http_status, r.fetched_at, r.segment + b.base, r.offset, r.request_len, r.response_header_len, r.body_len
  FROM temp.all_robots_content r JOIN temp.site_ids s ON s.host = r.host JOIN temp.segment_base b ON b.part = r.part
  ORDER BY r.fetched_at, r.part, r.id;
`;

/**
 * The parts' segment files into the merged folder `out` under their merged numbers: a hard link
 * each (the same bytes, no copy; the parts keep theirs), a copy where the file system refuses one.
 */
export function placeSegments(parts: { dir: string; base: number }[], out: string): void {
  if (parts.every((p) => segmentsOf(p.dir).length === 0)) return;
  makeFolders(out);
  for (const { dir, base } of parts) {
    for (const n of segmentsOf(dir)) {
      const from = segmentFile(dir, n);
      const to = segmentFile(out, base + n);
      try {
        linkSync(from, to);
      } catch {
        copyFileSync(from, to);
      }
    }
  }
}
