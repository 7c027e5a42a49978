import type { CrawlReader } from './crawl-reader.js';

/** A link with anchor text, by page ids. */
export interface AnchoredLink {
  src: number;
  dst: number;
  anchor: string;
}

const MIN = Number.MIN_SAFE_INTEGER;

/**
 * Every stored link that has anchor text, in the table's order (schema 12: by the fetch that
 * stored it), keyset-paged in chunks as the reader's streams are, bounded by the reader's
 * snapshot (a link whose source was fetched after it is not seen). The simulator hands these
 * to the policies, as the crawler does.
 */
export function anchoredLinks(reader: CrawlReader): Generator<AnchoredLink> {
  return reader.stream<AnchoredLink & { seq: number }>(
    `SELECT seq, src, dst, anchor FROM links
     WHERE (seq, dst) > (@seq, @dst) AND seq <= @s AND anchor IS NOT NULL AND anchor <> '' AND dst <= @p
     ORDER BY seq, dst LIMIT @limit`,
    { seq: MIN, dst: MIN },
    (last) => ({ seq: last.seq, dst: last.dst }),
  );
}
