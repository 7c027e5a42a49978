import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateSettings } from '../../core/config/settings.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { ContentClaims } from '../../core/store/content-claims.js';
import Sqlite from '../../core/store/sqlite.js';
import { StoreWriter } from '../../core/store/store-writer.js';
import { readWriteLog, WriteLog, type SqlValue } from '../../core/store/write-log.js';
import { tmpDir } from '../helpers/tmp.js';

const dir = tmpDir();
const settings = validateSettings({ seeds: ['http://a.test/'] });

/** A store whose writes go to a writer thread (as a running crawl's do). */
function storeWithWriter(name: string, roomPages?: number): { store: CrawlStore; writer: StoreWriter } {
  const store = CrawlStore.create(join(dir, name), settings);
  // A size budget (as --max-db-size sets): the file as created and this many pages more.
  const budget = roomPages === undefined ? [] : [`max_page_count = ${(store.db.pragma('page_count', { simple: true }) as number) + roomPages}`];
  const writer = StoreWriter.start({ path: store.path, pragmas: [...CrawlStore.writerPragmas(), ...budget] })!;
  expect(writer, 'the writer thread is built (npx tsc -p tsconfig.json)').not.toBeNull();
  store.attachWriter(writer);
  return { store, writer };
}

/** What another connection (a reader, the workbench) sees in the file. */
function committedPages(path: string): number {
  const db = new Sqlite(path, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM pages').pluck().get() as number;
  } finally {
    db.close();
  }
}

describe('the writer thread', () => {
  it('what the crawl wrote reads back at once; the file has it once its batch is committed, and not before', async () => {
    const { store, writer } = storeWithWriter('read-back.db');
    const site = store.insertSite('a.test');
    const home = store.insertPage({ url: 'http://a.test/', siteId: site, depth: 0, parentId: null, redirects: 0, status: 'queued' });
    const about = store.insertPage({ url: 'http://a.test/about', siteId: site, depth: 3, parentId: home, redirects: 0, status: 'skipped', errorCode: 'CRAWL_TRAP_DEPTH' });
    store.recordFetch(home, { status: 'fetched', httpStatus: 200, contentType: 'text/html', bytes: 10, contentHash: 'h1', duplicateOf: null, title: 'Home', noindex: false, errorCode: null, attempts: 1, fetchedAt: Date.now(), responseMs: 1 });
    store.insertLinks(home, [{ dst: about, anchor: 'Über uns', nofollow: false, kind: 'a' }]);
    expect(store.claimHash('h1', home)).toBe(home);

    // Nothing is committed yet: another connection sees no page, the crawl sees all it wrote.
    expect(committedPages(store.path)).toBe(0);
    expect(store.pageForFetch(home)).toMatchObject({ url: 'http://a.test/', depth: 0, attempts: 1 });
    expect(store.findPage('http://a.test/about')).toEqual({ id: about, status: 'skipped', error_code: 'CRAWL_TRAP_DEPTH', depth: 3 });
    expect(store.linksToLower(home, () => 1)).toMatchObject([{ dst: about, url: 'http://a.test/about', anchor: 'Über uns', errorCode: 'CRAWL_TRAP_DEPTH', kind: 'a' }]);
    expect(store.linksToLower(home, () => 3)).toEqual([]); // a path that short leaves its target's depth as it is
    expect(store.claimHash('h1', about)).toBe(home); // a duplicate of the page not yet committed

    const batch = store.commit();
    await writer.drain();
    expect(writer.committedBatch).toBe(batch);
    expect(committedPages(store.path)).toBe(2);
    // Committed: read from the file now, the same answers.
    expect(store.findPage('http://a.test/about')?.error_code).toBe('CRAWL_TRAP_DEPTH');
    expect(store.linksToLower(home, () => 1).map((l) => l.anchor)).toEqual(['Über uns']);
    expect(store.claimHash('h1', about)).toBe(home);
    store.detachWriter();
    await writer.close();
    store.close();
  });

  it('a shorter path finds the links whose targets it lowers, with and without the writer, committed or not', async () => {
    // Page x is a sitemap too: its sitemap's links are stored under -x (before its fetch), its
    // page's under its fetch, so its links hold target y twice: as the sitemap's (y no deeper
    // than a shorter path to x would put it) and as its redirect's (y deeper than x itself).
    const fill = (store: CrawlStore) => {
      const site = store.insertSite('a.test');
      const page = (url: string, depth: number) => store.insertPage({ url, siteId: site, depth, parentId: null, redirects: 0, status: 'queued' });
      const x = page('http://a.test/x', 3);
      const y = page('http://a.test/y', 4);
      const z = page('http://a.test/z', 5000); // deeper than the page facts keep: its row says
      store.insertLinks(x, [{ dst: y, anchor: null, nofollow: false, kind: 'sitemap' }]);
      store.recordFetch(x, { status: 'fetched', httpStatus: 301, contentType: null, bytes: 0, contentHash: null, duplicateOf: null, title: null, noindex: false, errorCode: null, attempts: 1, fetchedAt: Date.now(), responseMs: 1 });
      store.insertLinks(x, [{ dst: y, anchor: null, nofollow: false, kind: 'redirect' }]);
      return { x, y, z };
    };
    // A shorter path to x at `depth`: a redirect's target at that depth, any other link's one deeper (discovery's rule).
    const lowered = (store: CrawlStore, x: number, depth: number) =>
      store.linksToLower(x, (kind) => (kind === 'redirect' ? depth : depth + 1)).map((l) => `${l.url} ${l.kind} ${l.depth}`);

    const direct = CrawlStore.create(join(dir, 'lower-direct.db'), settings);
    const d = fill(direct);
    expect(lowered(direct, d.x, 3)).toEqual(['http://a.test/y redirect 4']);
    expect(lowered(direct, d.x, 4)).toEqual([]);
    direct.close();

    const { store, writer } = storeWithWriter('lower-writer.db');
    const w = fill(store);
    store.commit();
    await writer.drain();
    expect(lowered(store, w.x, 3)).toEqual(['http://a.test/y redirect 4']);
    expect(lowered(store, w.x, 4)).toEqual([]);
    // Then links not yet committed, read back from memory: y listed once more is passed over, z is new.
    store.insertLinks(w.x, [{ dst: w.y, anchor: null, nofollow: false, kind: 'a' }, { dst: w.z, anchor: 'z', nofollow: false, kind: 'a' }]);
    expect(lowered(store, w.x, 3)).toEqual(['http://a.test/y redirect 4', 'http://a.test/z a 5000']);
    store.setDepth(w.z, 4);
    expect(lowered(store, w.x, 3)).toEqual(['http://a.test/y redirect 4']);
    store.detachWriter();
    await writer.close();
    store.close();
  });

  it('a batch the file has no room for is rolled back, and every later one dropped until the crawl gives them up', async () => {
    const { store, writer } = storeWithWriter('full.db', 20);
    const site = store.insertSite('a.test');
    const failed: string[] = [];
    writer.on('failed', (e: { code: string | null }) => failed.push(String(e.code)));
    const add = (from: number, n: number) => {
      for (let i = from; i < from + n; i++) store.insertPage({ url: `http://a.test/${'x'.repeat(400)}/${i}`, siteId: site, depth: 1, parentId: null, redirects: 0, status: 'queued' });
    };
    add(0, 10);
    store.commit();
    await writer.drain();
    expect(committedPages(store.path)).toBe(10);
    add(10, 2000); // 800 KB: far more than 20 pages of 4 KB hold
    store.commit();
    add(3000, 5); // would fit, but comes after the batch that failed
    store.commit();
    await writer.drain();
    expect(failed).toEqual(['SQLITE_FULL']);
    expect(committedPages(store.path)).toBe(10);
    // Given up: the crawl's memory is the file again, and batches commit again.
    store.rollback();
    expect(store.findPage(`http://a.test/${'x'.repeat(400)}/3001`)).toBeUndefined();
    expect(store.findPage(`http://a.test/${'x'.repeat(400)}/9`)).toBeDefined();
    add(4000, 5);
    store.commit();
    await writer.drain();
    expect(committedPages(store.path)).toBe(15);
    store.detachWriter();
    await writer.close();
    store.close();
  });

  it('a batch reaches the writer as the values it was given', () => {
    const values: SqlValue[] = [0, -1, 2 ** 31, -(2 ** 40), 1_764_000_000_123, 0.5, Number.MAX_SAFE_INTEGER, 'http://a.test/', '', 'Zürich — 東京 🙂', null];
    const log = new WriteLog(new ArrayBuffer(16)); // grows as it is written
    log.run(3, values);
    log.run(65_000, ['x'.repeat(100_000)]);
    const { buffer, length } = log.take();
    const seen: Array<[number, SqlValue[]]> = [];
    readWriteLog(buffer, length, (stmt, args) => seen.push([stmt, [...args]]));
    expect(seen).toEqual([
      [3, values],
      [65_000, ['x'.repeat(100_000)]],
    ]);
  });

  it('the content claims find every hash claimed, by its page, and no page for a hash never claimed', () => {
    const claims = new ContentClaims(); // grows from 65,536 slots past 200,000 claims
    const hex = (i: number, salt: string) => `${salt}${i.toString(16).padStart(12, '0')}${'0'.repeat(27)}`.slice(0, 40);
    const hashOf = new Map<number, string>();
    for (let i = 1; i <= 200_000; i++) {
      claims.add(hex(i, 'a'), i);
      hashOf.set(i, hex(i, 'a'));
    }
    expect(claims.size).toBe(200_000);
    const holds = (hash: string) => (id: number) => hashOf.get(id) === hash;
    for (let i = 1; i <= 200_000; i++) expect(claims.find(hex(i, 'a'), holds(hex(i, 'a')))).toBe(i);
    // Hashes never claimed: a tag may match (about 1 in 400 here), the page's own hash says no.
    let candidates = 0;
    for (let i = 1; i <= 200_000; i++) {
      const h = hex(i, 'b');
      expect(claims.find(h, (id) => (candidates++, holds(h)(id)))).toBeUndefined();
    }
    expect(candidates).toBeLessThan(2_000);
  });
});
