import Sqlite from '../../core/store/sqlite.js';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateSettings } from '../../core/config/settings.js';
import { ErrorCodes } from '../../core/errors.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { processStamp } from '../../core/process-alive.js';
import { sql as initial } from '../../core/store/migrations/001-initial.js';
import { sql as pagerank } from '../../core/store/migrations/002-pagerank.js';
import { SCHEMA_VERSION } from '../../core/store/migrations/index.js';
import { tmpDir } from '../helpers/tmp.js';

const dir = tmpDir();
const settings = validateSettings({ seeds: ['http://a.test/'] });

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
}

describe('crawl database', () => {
  it('creates a versioned WAL database and reopens it with its settings', () => {
    const path = join(dir, 'new.db');
    const store = CrawlStore.create(path, settings);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    store.close();
    const again = CrawlStore.open(path);
    expect(again.settings().seeds).toEqual(['http://a.test/']);
    expect(again.state()).toBe('created');
    again.close();
  });

  it('upgrades a crawl made by an older schema and keeps its pages', () => {
    const path = join(dir, 'schema2.db');
    // A file as schema 2 made it (url UNIQUE, the (site_id, status) and links(dst) indexes),
    // built from the migrations themselves, with one queued page.
    const raw = new Sqlite(path);
    raw.pragma('journal_mode = WAL');
    raw.exec(initial);
    raw.exec(pagerank);
    raw.pragma('user_version = 2');
    raw.pragma(`application_id = ${0x43424e43}`); // "CBNC", as database.ts marks crawls
    raw.prepare("INSERT INTO meta(key, value) VALUES ('settings', ?)").run(JSON.stringify(settings));
    raw.exec("INSERT INTO sites(id, host) VALUES (1, 'a.test')");
    raw.exec("INSERT INTO pages(id, url, site_id, depth) VALUES (1, 'http://a.test/', 1, 0)");
    raw.exec('INSERT INTO frontier(page_id, site_id) VALUES (1, 1)');
    raw.close();
    expect(codeOf(() => CrawlStore.open(path, { readonly: true }))).toBe(ErrorCodes.DB_NOT_A_CRAWL);
    const upgraded = CrawlStore.open(path);
    expect(upgraded.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    // Only the fetch order's index is left: nothing a crawl writes lands at a random place.
    const indexes = upgraded.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('pages', 'links')").pluck().all();
    expect(indexes).toEqual(['pages_fetch_seq']); // links is keyed (src, dst) WITHOUT ROWID: no index of its own
    expect(upgraded.findPage('http://a.test/')?.status).toBe('queued');
    // URLs stay unique without the UNIQUE index.
    expect(codeOf(() => upgraded.insertPage({ url: 'http://a.test/', siteId: 1, depth: 0, parentId: null, redirects: 0, status: 'queued' }))).toBe(
      ErrorCodes.INTERNAL,
    );
    upgraded.buildReadIndexes();
    const plan = upgraded.db.prepare('EXPLAIN QUERY PLAN SELECT id FROM pages WHERE url = ?').all('http://a.test/') as Array<{ detail: string }>;
    expect(plan.map((p) => p.detail).join(' ')).toContain('pages_url');
    upgraded.close();
  });

  it('refuses a corrupt file and leaves it untouched', () => {
    const path = join(dir, 'corrupt.db');
    writeFileSync(path, 'this is not a database at all, just text\n'.repeat(100));
    const before = readFileSync(path);
    expect(codeOf(() => CrawlStore.open(path))).toBe(ErrorCodes.DB_CORRUPT);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses a database damaged after its header', () => {
    const path = join(dir, 'damaged.db');
    CrawlStore.create(path, settings).close();
    const bytes = readFileSync(path);
    bytes.fill(0xff, 100, 4096); // wipe the schema page after the header
    writeFileSync(path, bytes);
    expect(codeOf(() => CrawlStore.open(path))).toBe(ErrorCodes.DB_CORRUPT);
  });

  it('refuses a database of a newer schema', () => {
    const path = join(dir, 'newer.db');
    CrawlStore.create(path, settings).close();
    const raw = new Sqlite(path);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(codeOf(() => CrawlStore.open(path))).toBe(ErrorCodes.DB_TOO_NEW);
  });

  it('refuses a SQLite database that is not a crawl', () => {
    const path = join(dir, 'other.db');
    const raw = new Sqlite(path);
    raw.exec('CREATE TABLE notes (x TEXT)');
    raw.close();
    expect(codeOf(() => CrawlStore.open(path))).toBe(ErrorCodes.DB_NOT_A_CRAWL);
  });

  it('refuses a crawl that another live process holds, and takes over the lock of a dead one', async () => {
    const path = join(dir, 'locked.db');
    CrawlStore.create(path, settings).close();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    writeFileSync(`${path}.lock`, `${holder.pid}@${(await import('node:os')).hostname()}`);
    expect(codeOf(() => CrawlStore.open(path))).toBe(ErrorCodes.DB_LOCKED);
    holder.kill('SIGKILL');
    await new Promise((r) => holder.once('exit', r));
    const store = CrawlStore.open(path);
    expect(store.state()).toBe('created');
    store.close();
  });

  it('takes over a lock whose process id another program was given after a reboot, and still refuses one its writer holds', async (ctx) => {
    // Before: the lock named a pid only; after a reboot a program given that pid held the crawl
    // refused ("locked by another crawl") until it ended. Linux says when each process started.
    const stamp = processStamp(process.pid);
    if (stamp === null) {
      console.log('skipped: this system does not say when a process started (no /proc), so a lock names its pid only');
      return ctx.skip();
    }
    const path = join(dir, 'rebooted.db');
    CrawlStore.create(path, settings).close();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await new Promise((r) => holder.once('spawn', r));
      const host = (await import('node:os')).hostname();
      const [boot] = stamp.split(':');
      // The same pid, written in another boot (a reboot), or at another moment of this one (the pid given again).
      for (const other of ['00000000-0000-0000-0000-000000000000:4242', `${boot}:1`]) {
        writeFileSync(`${path}.lock`, `${holder.pid}@${host}@${other}`);
        const store = CrawlStore.open(path);
        expect(readFileSync(`${path}.lock`, 'utf8')).toBe(`${process.pid}@${host}@${stamp}`);
        store.close();
      }
      // The lock its live writer wrote is held.
      writeFileSync(`${path}.lock`, `${holder.pid}@${host}@${processStamp(holder.pid!)}`);
      expect(codeOf(() => CrawlStore.open(path))).toBe(ErrorCodes.DB_LOCKED);
      // This process's own pid in a lock of an earlier boot is not this process.
      writeFileSync(`${path}.lock`, `${process.pid}@${host}@00000000-0000-0000-0000-000000000000:4242`);
      CrawlStore.open(path).close();
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('a second open in the same process is refused while the first holds it', () => {
    const path = join(dir, 'twice.db');
    const store = CrawlStore.create(path, settings);
    expect(codeOf(() => CrawlStore.open(path))).toBe(ErrorCodes.DB_LOCKED);
    store.close();
  });

  it('an uncommitted batch is lost on close without commit, a committed one is kept', () => {
    const path = join(dir, 'batch.db');
    const store = CrawlStore.create(path, settings);
    const site = store.insertSite('a.test');
    store.begin();
    store.insertPage({ url: 'http://a.test/1', siteId: site, depth: 0, parentId: null, redirects: 0, status: 'queued' });
    store.commit();
    store.begin();
    store.insertPage({ url: 'http://a.test/2', siteId: site, depth: 0, parentId: null, redirects: 0, status: 'queued' });
    store.rollback();
    store.close();
    const again = CrawlStore.open(path);
    expect(again.loadFrontier().map((r) => r.url)).toEqual(['http://a.test/1']);
    again.close();
  });
});
