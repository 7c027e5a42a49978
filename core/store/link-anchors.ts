import type { CrawlReader } from './crawl-reader.js';

/** A link with anchor text, by page ids. */
export interface AnchoredLink {
  src: number;
  dst: number;
  anchor: string;
}

const MIN = Number.MIN_SAFE_INTEGER;

/**
 * Every stored link that has anchor text, in (src, dst) order, keyset-paged in chunks as the
 * reader's streams are, bounded by the reader's snapshot (a link whose source was fetched after
 * it is not seen). The simulator hands these to the policies, as the crawler does.
 */
export function anchoredLinks(reader: CrawlReader): Generator<AnchoredLink> {
  return reader.stream<AnchoredLink>(
    `SELECT src, dst, anchor FROM links
     WHERE (src, dst) > (@src, @dst) AND anchor IS NOT NULL AND anchor <> '' AND dst <= @p
       AND NOT EXISTS (SELECT 1 FROM pages s WHERE s.id = src AND s.fetch_seq > @s)
     ORDER BY src, dst LIMIT @limit`,
    { src: MIN, dst: MIN },
    (last) => ({ src: last.src, dst: last.dst }),
  );
}
