import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateSettings } from '../../core/config/settings.js';
import { WRITE_SQL } from '../../core/store/crawl-rows.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { RowGroups, rowsShape } from '../../core/store/row-groups.js';
import Sqlite from '../../core/store/sqlite.js';
import { StoreWriter } from '../../core/store/store-writer.js';
import type { SqlValue } from '../../core/store/write-log.js';
import { tmpDir } from '../helpers/tmp.js';

const dir = tmpDir();
const settings = validateSettings({ seeds: ['http://a.test/'] });

/**
 * A discovery-like stretch of writes: new pages (queued and skipped), each queued one's
 * frontier entry, mixed with the writes that must find them in place: a new site its pages
 * refer to, a depth lowered, a fetch recorded, a page requeued, a priority set twice.
 */
function discoveryWrites(store: CrawlStore): void {
  let site = store.insertSite('a.test');
  const ids: number[] = [];
  for (let i = 0; i < 300; i++) {
    if (i === 120) site = store.insertSite('b.test'); // pages after it refer to it
    const skipped = i % 7 === 3;
    const id = store.insertPage(
      { url: `http://${site === 1 ? 'a' : 'b'}.test/p${i}`, siteId: site, depth: 2, parentId: ids.at(-1) ?? null, redirects: 0, status: skipped ? 'skipped' : 'queued', errorCode: skipped ? 'CRAWL_TRAP_DEPTH' : null },
      i % 5,
    );
    ids.push(id);
    if (i % 11 === 0) store.setDepth(id, 1); // the row inserted just before
    if (i % 13 === 0 && !skipped) store.setPriority(id, 100 + i);
    if (i % 17 === 0 && !skipped) {
      store.recordFetch(id, { status: 'fetched', httpStatus: 200, contentType: 'text/html', bytes: i, contentHash: `h${i}`, duplicateOf: null, title: `t${i}`, noindex: false, errorCode: null, attempts: 1, fetchedAt: 1_700_000_000_000 + i, responseMs: 1 });
    }
    if (skipped && i % 2 === 1) store.requeuePage(id, site, 1, 7); // frontier entry again, priority set
  }
  // Then 150 new pages with no other write between them, the last of the batch: groups of 64
  // rows, and the rest written only by the flush before COMMIT.
  for (let i = 0; i < 150; i++) {
    store.insertPage({ url: `http://b.test/q${i}`, siteId: site, depth: 3, parentId: ids[i]!, redirects: 0, status: 'queued' }, i);
  }
}

/** The pages and the frontier as another connection reads them. */
function dump(path: string): { pages: unknown[]; frontier: unknown[]; sites: unknown[] } {
  const db = new Sqlite(path, { readonly: true });
  try {
    return {
      pages: db.prepare('SELECT * FROM pages ORDER BY id').all(),
      frontier: db.prepare('SELECT * FROM frontier ORDER BY page_id').all(),
      sites: db.prepare('SELECT id, host FROM sites ORDER BY id').all(),
    };
  } finally {
    db.close();
  }
}

describe('rows statements (multi-row INSERTs on the writer thread)', () => {
  it('leave the file as the same writes run one by one on the crawl connection do', async () => {
    const direct = CrawlStore.create(join(dir, 'direct.db'), settings);
    direct.begin();
    discoveryWrites(direct);
    direct.commit();
    const expected = dump(direct.path);
    direct.close();
    expect(expected.pages).toHaveLength(450);
    expect(expected.frontier.length).toBeGreaterThan(400);

    const store = CrawlStore.create(join(dir, 'grouped.db'), settings);
    const writer = StoreWriter.start({ path: store.path, pragmas: CrawlStore.writerPragmas() })!;
    expect(writer, 'the writer thread is built (npx tsc -p tsconfig.json)').not.toBeNull();
    store.attachWriter(writer);
    discoveryWrites(store);
    store.commit();
    await writer.drain();
    expect(writer.failed).toBeNull();
    expect(dump(store.path)).toEqual(expected);
    store.detachWriter();
    await writer.close();
    store.close();
  });

  it('run in statements of 64, 32 ... 1 rows, in order, each before the next other statement', () => {
    const ran: Array<{ sql: string; args: SqlValue[] }> = [];
    const groups = new RowGroups((sql) => (args) => ran.push({ sql, args: [...args] }));
    groups.define(0, 'INSERT INTO t(a, b) VALUES (?, ?)');
    groups.define(1, 'INSERT OR REPLACE INTO u(x, y) VALUES (?, ?, 1)');
    const apply = (id: number, args: SqlValue[]) => {
      if (groups.take(id, args)) return;
      groups.flush();
      ran.push({ sql: `other ${id}`, args });
    };
    for (let i = 0; i < 150; i++) {
      apply(0, [i, `r${i}`]);
      if (i < 3) apply(1, [i, i]);
    }
    apply(2, ['after']);
    apply(0, [999, 'last']);
    groups.flush();

    const sizes = ran.map((r) => (r.sql.startsWith('other') ? r.sql : `${r.sql.startsWith('INSERT INTO t') ? 't' : 'u'}${r.args.length / 2}`));
    // t's 150 rows: 64 each time that many wait, then at the other statement the 22 left as 16, 4, 2; u's 3 rows: 2, 1.
    expect(sizes).toEqual(['t64', 't64', 't16', 't4', 't2', 'u2', 'u1', 'other 2', 't1']);
    const tRows = ran.filter((r) => r.sql.startsWith('INSERT INTO t')).flatMap((r) => r.args);
    expect(tRows.filter((_, k) => k % 2 === 0)).toEqual([...Array.from({ length: 150 }, (_, i) => i), 999]);
    expect(ran.find((r) => r.args.length === 4 && r.sql.startsWith('INSERT OR'))!.sql).toBe('INSERT OR REPLACE INTO u(x, y) VALUES (?, ?, 1), (?, ?, 1)');

    // A batch rolled back: its rows waiting are forgotten, not run with the next batch.
    ran.length = 0;
    groups.take(0, [1, 'lost']);
    groups.clear();
    groups.flush();
    expect(ran).toEqual([]);
    expect(() => groups.take(0, [1])).toThrow(/takes 2 values, not 1/);
  });

  it('after a batch fails in the middle of its rows, the next batch\'s rows reach the file, and none of the failed one\'s', async () => {
    const store = CrawlStore.create(join(dir, 'failed.db'), settings);
    const writer = StoreWriter.start({ path: store.path, pragmas: CrawlStore.writerPragmas() })!;
    store.attachWriter(writer);
    const site = store.insertSite('a.test');
    store.commit();
    await writer.drain();
    const page = (url: string, siteId: number) => store.insertPage({ url, siteId, depth: 1, parentId: null, redirects: 0, status: 'queued' });
    page('http://a.test/1', site);
    page('http://a.test/2', 999); // no such site: the foreign key fails the batch, in the flush before COMMIT
    page('http://a.test/3', site);
    store.commit();
    await writer.drain();
    expect(writer.failed?.code).toBe('SQLITE_CONSTRAINT_FOREIGNKEY');
    store.rollback(); // gives the batch up; the writer takes batches again
    page('http://a.test/4', site);
    page('http://a.test/5', site);
    store.commit();
    await writer.drain();
    expect(writer.failed).toBeNull();
    const file = dump(store.path);
    expect(file.pages.map((p) => (p as { url: string }).url)).toEqual(['http://a.test/4', 'http://a.test/5']);
    expect(file.frontier).toHaveLength(2);
    store.detachWriter();
    await writer.close();
    store.close();
  });

  it('the crawl store declares its page and frontier inserts rows statements to its writer, and nothing else', () => {
    const store = CrawlStore.create(join(dir, 'declared.db'), settings);
    const declared = new Map<string, boolean>();
    const writer = {
      definedCount: 0,
      openBatch: 1,
      define(id: number, sql: string, rows = false) {
        declared.set(sql, rows);
        this.definedCount = id + 1;
      },
      run() {},
      on() {},
      off() {},
    };
    store.attachWriter(writer as unknown as StoreWriter);
    const site = store.insertSite('a.test');
    store.insertPage({ url: 'http://a.test/', siteId: site, depth: 0, parentId: null, redirects: 0, status: 'queued' });
    store.setDepth(1, 0);
    const rows = [...declared].filter(([, r]) => r).map(([sql]) => sql);
    expect(rows).toEqual([WRITE_SQL.insertPage, WRITE_SQL.enqueue]);
    expect(declared.get(WRITE_SQL.insertSite)).toBe(false);
    expect(declared.get(WRITE_SQL.setDepth)).toBe(false);
    store.detachWriter();
    store.close();
  });

  it('only a single-row INSERT can be one', () => {
    expect(rowsShape('INSERT INTO pages(id, url) VALUES (?, ?)')).toEqual({ head: 'INSERT INTO pages(id, url) VALUES', row: '(?, ?)', params: 2 });
    for (const sql of [
      'UPDATE pages SET depth = ? WHERE id = ?',
      'INSERT INTO links(src, dst) VALUES (?, ?), (?, ?)',
      'INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      'INSERT INTO t(a) VALUES (?) RETURNING a',
      'INSERT INTO t(a) SELECT x FROM u WHERE y = ?',
    ]) {
      expect(() => rowsShape(sql), sql).toThrow(/not a single-row INSERT/);
    }
    // Parameters that would not repeat row after row, a row with none, a literal that could hide one.
    for (const sql of ['INSERT INTO t(a, b) VALUES (?1, ?2)', 'INSERT INTO t(a) VALUES (:a)', 'INSERT INTO t(a) VALUES (1)', "INSERT INTO t(a, b) VALUES (?, '?')"]) {
      expect(() => rowsShape(sql), sql).toThrow(/plain \? parameters only/);
    }
  });
});
