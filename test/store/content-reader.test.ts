import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateSettings } from '../../core/config/settings.js';
import { ContentReader } from '../../core/store/content-reader.js';
import { ContentStore } from '../../core/store/content-store.js';
import { withCrawlReader } from '../../core/store/crawl-reader.js';
import { CrawlStore, type FetchRecord } from '../../core/store/crawl-store.js';
import { tmpDir } from '../helpers/tmp.js';

const dir = tmpDir('crawlbench-content-reader-');

const fetched = (bytes: number): FetchRecord => ({
  status: 'fetched', httpStatus: 200, contentType: 'text/html', bytes, contentHash: null, duplicateOf: null,
  title: null, noindex: false, errorCode: null, attempts: 1, fetchedAt: Date.now(), responseMs: 1,
});

/** Stores one page with its raw capture, as the crawler does (same batch). */
function capture(store: CrawlStore, content: ContentStore, url: string, body: Buffer): number {
  store.begin();
  const id = store.insertPage({ url, siteId: 1, depth: 0, parentId: null, redirects: 0, status: 'queued' });
  const request = `GET ${new URL(url).pathname} HTTP/1.1\r\nHost: a.test\r\n\r\n`;
  const at = content.append(request, 'HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=latin1\r\n\r\n', body)!;
  store.recordFetch(id, fetched(body.length));
  store.insertContent(id, at.segment, at.offset, at.reqLen, at.hdrLen, body.length);
  store.commit();
  return id;
}

describe('content reader', () => {
  it("reads a page's request, response headers and body back from the segments, as of the reader's snapshot", () => {
    const path = join(dir, 'crawl.db');
    const store = CrawlStore.create(path, validateSettings({ seeds: ['http://a.test/'], storeContent: true }));
    store.begin();
    store.insertSite('a.test');
    store.commit();
    // Small segments: the records spread over several files.
    const content = new ContentStore(`${path}.content`, 1e9, 0, 300);
    const bodies = [Buffer.from('<p>caf\u00e9</p>', 'latin1'), Buffer.alloc(400, 0xfe), Buffer.from([0, 1, 2, 255])];
    const ids = bodies.map((b, i) => capture(store, content, `http://a.test/${i}`, b));

    withCrawlReader(path, (reader) => {
      const later = capture(store, content, 'http://a.test/later', Buffer.from('after the snapshot'));
      const pages = new ContentReader(reader);
      ids.forEach((id, i) => {
        const c = pages.read(id)!;
        expect(c.request).toBe(`GET /${i} HTTP/1.1\r\nHost: a.test\r\n\r\n`);
        expect(c.responseHeaders).toBe('HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=latin1\r\n\r\n');
        expect(c.body.equals(bodies[i]!)).toBe(true);
      });
      expect(pages.read(later)).toBeUndefined(); // stored after the reader opened
      expect(pages.read(999)).toBeUndefined();
      pages.close();
    });
    content.close();
    store.close();
  });
});
