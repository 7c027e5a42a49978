/**
 * Reads back what ContentStore captured for a page (request, response headers, body as
 * received), for a WARC export or the page inspector: the `content` table, read through the
 * crawl reader and so bounded by its snapshot, says where in which segment file it lies.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { segmentFile } from './content-store.js';
import type { ContentLocation, CrawlReader } from './crawl-reader.js';

export interface StoredContent {
  /** The request as sent (header lines, latin1 as written). */
  request: string;
  /** The response's status line and headers as received (latin1). */
  responseHeaders: string;
  /** The body bytes as received (before any decoding). */
  body: Buffer;
}

export class ContentReader {
  /** Open segment files by number: a reader usually reads many records of few segments. */
  private readonly fds = new Map<number, number>();

  /** `dir`: the crawl's content folder, by default `DB.content` beside the database file. */
  constructor(
    private readonly reader: CrawlReader,
    private readonly dir = `${reader.path}.content`,
  ) {}

  /** A page's capture; undefined when it has none (not captured, over budget, or fetched after the snapshot). */
  read(pageId: number): StoredContent | undefined {
    const at = this.reader.contentLocation(pageId);
    return at ? this.readAt(at, `page ${pageId}`) : undefined;
  }

  /** The capture at a location (a page's, or a robots.txt answer's from export-reader.ts). */
  readAt(at: ContentLocation, what = 'a capture'): StoredContent {
    const size = at.requestLength + at.headerLength + at.bodyLength;
    const bytes = Buffer.alloc(size);
    const fd = this.segment(at.segment);
    let done = 0;
    while (done < size) {
      const n = readSync(fd, bytes, done, size - done, at.offset + done);
      if (n === 0) throw new Error(`${segmentFile(this.dir, at.segment)}: ends before the record of ${what}`);
      done += n;
    }
    const headersEnd = at.requestLength + at.headerLength;
    return {
      request: bytes.toString('latin1', 0, at.requestLength),
      responseHeaders: bytes.toString('latin1', at.requestLength, headersEnd),
      body: bytes.subarray(headersEnd),
    };
  }

  close(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }

  private segment(n: number): number {
    let fd = this.fds.get(n);
    if (fd === undefined) this.fds.set(n, (fd = openSync(segmentFile(this.dir, n), 'r')));
    return fd;
  }
}
