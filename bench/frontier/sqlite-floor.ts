/**
 * bench/frontier's SQLite floor: the least time SQLite takes to store the rows of a crawl the
 * size of bench/frontier's, with no crawl around it (no parsing, scheduling, URL-seen test,
 * write log or second thread). It writes what the crawl writes for each fetched page, with the
 * crawl's own schema, statements and settings: the fetch recorded on the page's row, its
 * frontier entry deleted, 10 links (one multi-row INSERT, as the crawl does), and 5 new URLs,
 * each a page row and a frontier entry, in transactions of 8,000 fetched pages (about a
 * second of bench/frontier's). Site rows are inserted but never updated, and nothing else is
 * written (counters, timeline, site state): what it prints is a floor, not an estimate.
 *
 *   npm run build && node dist/bench/frontier/sqlite-floor.js [--urls 5000000] [--rows one|page|64]
 *     [--order random|id] [--without fetch,dequeue,links] [--layout today|appended]
 *     [--hashes none|claims|keyed] [--batch-pages 8000]
 *
 * --order: which queued page is fetched next: any at random (random, as a crawl's priorities
 * pick them: its fetch and its frontier entry's deletion land at random places in their
 * tables) or the oldest (id: each of them appends, the least SQLite can do). A page's links
 * append either way (schema 12: keyed by the fetch that stored them).
 * --without fetch|dequeue|links: leaves that write out, to see what it costs where it lands.
 * --layout appended: the fetch's results appended to a table of fetches (made for this bench,
 * not the crawl's schema) instead of written on the page's row, which stays as discovered.
 * --hashes: each fetched page's content hash too, claimed as schema 13 does (claims) or as
 * schema 12 did (keyed); none (the default) leaves hashes out, as bench/frontier does.
 * --batch-pages: fetched pages per transaction (8,000, about a second of bench/frontier's).
 * --rows: how the new URLs' rows are inserted: one statement per row (one), each fetched
 * page's new rows in one multi-row statement per table (page, what the writer thread does:
 * core/store/row-groups.ts), or in statements of 64 rows across pages (64; the rows left at a
 * commit in one statement). The first 50,000 URLs, the seeds, go in statements of 1,000 rows
 * (one per row with --rows one). Prints one JSON
 * line: URLs/s over the whole run and the CPU seconds it took (one thread: the two agree).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { validateSettings } from '../../core/config/settings.js';
import { WRITE_SQL } from '../../core/store/crawl-rows.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { multiRowSql, rowsShape } from '../../core/store/row-groups.js';
import type { SqlValue } from '../../core/store/write-log.js';

const { values: flags } = parseArgs({
  options: {
    urls: { type: 'string', default: '5000000' },
    rows: { type: 'string', default: 'page' },
    order: { type: 'string', default: 'random' },
    without: { type: 'string', default: '' },
    layout: { type: 'string', default: 'today' },
    'batch-pages': { type: 'string', default: '8000' },
    hashes: { type: 'string', default: 'none' },
  },
});
const URLS = Number(flags.urls);
const MODE = String(flags.rows);
const ORDER = String(flags.order);
const WITHOUT = new Set(String(flags.without).split(',').filter((w) => w !== ''));
const APPENDED = flags.layout === 'appended';
if (!['today', 'appended'].includes(String(flags.layout))) {
  process.stderr.write('sqlite-floor: --layout takes today or appended\n');
  process.exit(2);
}
if ([...WITHOUT].some((w) => !['fetch', 'dequeue', 'links'].includes(w))) {
  process.stderr.write('sqlite-floor: --without takes fetch, dequeue or links (comma-separated)\n');
  process.exit(2);
}
if (!Number.isInteger(URLS) || URLS < 100_000 || !['one', 'page', '64'].includes(MODE) || !['random', 'id'].includes(ORDER)) {
  process.stderr.write('sqlite-floor: --urls takes a whole number of at least 100000, --rows one, page or 64, --order random or id\n');
  process.exit(2);
}
const SITES = 50_000;
const NEW_PER_PAGE = 5;
const LINKS_PER_PAGE = 10;
const PAGES_PER_BATCH = Number(flags['batch-pages']);
if (!Number.isInteger(PAGES_PER_BATCH) || PAGES_PER_BATCH < 1) {
  process.stderr.write('sqlite-floor: --batch-pages takes a whole number of at least 1\n');
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), 'sqlite-floor-'));
const store = CrawlStore.create(join(dir, 'floor.db'), validateSettings({ seeds: ['http://www.site0.frontier.cl/'], scope: { suffixes: ['.frontier.cl'] } }));
store.dropReadIndexes();
store.tuneForCrawl();
const db = store.db;
const one = (sql: string) => {
  const st = db.prepare(sql);
  return (args: SqlValue[]) => st.run(...args);
};
const shaped = new Map<string, (args: SqlValue[]) => void>();
/** `rows` rows of a single-row INSERT's values, in one statement. */
const many = (sql: string, rows: number, args: SqlValue[]) => {
  const key = `${rows} ${sql}`;
  let run = shaped.get(key);
  if (!run) shaped.set(key, (run = one(multiRowSql(rowsShape(sql), rows))));
  run(args);
};
const insertSite = one(WRITE_SQL.insertSite);
const insertPage = one(WRITE_SQL.insertPage);
const enqueue = one(WRITE_SQL.enqueue);
const recordFetch = one(WRITE_SQL.recordFetch);
const dequeue = one(WRITE_SQL.dequeue);
if (APPENDED) {
  db.exec(`CREATE TABLE fetches (seq INTEGER PRIMARY KEY, page_id INTEGER NOT NULL, status TEXT NOT NULL, http_status INTEGER,
      content_type TEXT, bytes INTEGER, content_hash TEXT, duplicate_of INTEGER, title TEXT, noindex INTEGER, error_code TEXT,
      attempts INTEGER NOT NULL, fetched_at REAL, response_ms REAL, etag TEXT, last_modified TEXT, not_modified INTEGER) STRICT;`);
}
const links = one(multiRowSql(rowsShape('INSERT OR IGNORE INTO links(seq, dst, src, anchor, nofollow, kind) VALUES (?, ?, ?, ?, ?, ?)'), LINKS_PER_PAGE));
/**
 * --hashes: each fetched page's content hash (SHA-1, hex) kept on its row and claimed as a
 * crawl claims it: appended to content_claims (claims, schema 13: the first page of each hash
 * is found in memory) or inserted into a table keyed by the hash (keyed, schema 12's
 * content_hashes, made here for the comparison).
 */
const HASHES = String(flags.hashes);
if (!['none', 'claims', 'keyed'].includes(HASHES)) {
  process.stderr.write('sqlite-floor: --hashes takes none, claims or keyed\n');
  process.exit(2);
}
if (HASHES === 'keyed') db.exec('CREATE TABLE content_hashes (hash TEXT PRIMARY KEY, page_id INTEGER NOT NULL) STRICT, WITHOUT ROWID');
const claimHash = HASHES === 'keyed' ? one('INSERT OR IGNORE INTO content_hashes(hash, page_id) VALUES (?, ?)') : one(WRITE_SQL.insertHash);
const hex = (n: number) => n.toString(16).padStart(8, '0');
const appendFetch = APPENDED
  ? one(`INSERT INTO fetches(status, http_status, content_type, bytes, content_hash, duplicate_of, title, noindex, error_code,
      attempts, seq, fetched_at, response_ms, etag, last_modified, not_modified, page_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
  : recordFetch;

let seed = 12345;
/** A 31-bit linear congruential generator in exact integer arithmetic, in [0, 1). */
const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) / 0x80000000;
const url = (site: number, n: number) => `http://www.site${site}.frontier.cl/d${n % 10}/page-${n}.html`;
let nextPage = 1;
let sites = 0;
/** Pages queued and not yet fetched (--order random picks among them). */
const queued = new Int32Array(URLS + 1);
let queuedCount = 0;
let oldest = 1;
/** The next page to fetch: one queued at random, or the oldest. */
function nextFetch(): number {
  if (ORDER === 'id') return oldest++;
  const k = Math.floor(random() * queuedCount);
  const id = queued[k]!;
  queued[k] = queued[--queuedCount]!;
  return id;
}
const pending = { pages: [] as SqlValue[], frontier: [] as SqlValue[] };

/** The rows waiting (--rows 64): 64 at a time, and with `all` the rest in one statement. */
function flushPending(all = true): void {
  let from = 0;
  const n = pending.pages.length / 8;
  for (; n - from >= 64; from += 64) {
    many(WRITE_SQL.insertPage, 64, pending.pages.slice(from * 8, (from + 64) * 8));
    many(WRITE_SQL.enqueue, 64, pending.frontier.slice(from * 3, (from + 64) * 3));
  }
  if (all && n > from) {
    many(WRITE_SQL.insertPage, n - from, pending.pages.slice(from * 8));
    many(WRITE_SQL.enqueue, n - from, pending.frontier.slice(from * 3));
    from = n;
  }
  pending.pages = pending.pages.slice(from * 8);
  pending.frontier = pending.frontier.slice(from * 3);
}

/** `k` new URLs found on page `parent`: page rows and frontier entries, as --rows says. */
function newUrls(k: number, parent: number | null): void {
  const pages: SqlValue[] = [];
  const frontier: SqlValue[] = [];
  for (let i = 0; i < k; i++) {
    const site = Math.floor(random() * SITES) + 1;
    for (; sites < site; sites++) insertSite([sites + 1, `www.site${sites + 1}.frontier.cl`]);
    const id = nextPage++;
    queued[queuedCount++] = id;
    const row: SqlValue[] = [id, url(site, id), site, 1, parent, 0, 'queued', null];
    if (MODE === 'one') {
      insertPage(row);
      enqueue([id, site, 0]);
    } else {
      pages.push(...row);
      frontier.push(id, site, 0);
    }
  }
  if (MODE === 'page' && k > 0) {
    many(WRITE_SQL.insertPage, k, pages);
    many(WRITE_SQL.enqueue, k, frontier);
  } else if (MODE === '64') {
    pending.pages.push(...pages);
    pending.frontier.push(...frontier);
    if (pending.pages.length >= 64 * 8) flushPending(false);
  }
}

const t0 = performance.now();
const cpu0 = process.cpuUsage();
db.exec('BEGIN');
for (let i = 0; i < 50; i++) newUrls(1_000, null); // the first 50,000 URLs, as the bench's seeds and first links
flushPending();
db.exec('COMMIT');
let fetched = 0;
db.exec('BEGIN');
while (nextPage <= URLS) {
  const id = nextFetch();
  fetched++;
  if (id >= nextPage - pending.pages.length / 8) flushPending(); // its row is still waiting (--rows 64)
  const hash = HASHES === 'none' ? null : hex(Math.floor(random() * 2 ** 32)) + hex(Math.floor(random() * 2 ** 32)) + hex(fetched) + hex(id) + hex(fetched ^ id);
  if (hash !== null) claimHash([hash, id]);
  if (!WITHOUT.has('fetch')) appendFetch(['fetched', 200, 'text/html', 10_000, hash, null, null, 0, null, 1, fetched, Date.now(), 5.5, null, null, 0, id]);
  if (!WITHOUT.has('dequeue')) dequeue([id]);
  newUrls(Math.min(NEW_PER_PAGE, URLS - nextPage + 1), id);
  const args: SqlValue[] = [];
  for (let i = 0; i < LINKS_PER_PAGE; i++) args.push(fetched, Math.floor(random() * (nextPage - 1)) + 1, id, null, 0, 'a');
  if (!WITHOUT.has('links')) links(args);
  if (fetched % PAGES_PER_BATCH === 0) {
    flushPending();
    db.exec('COMMIT');
    db.exec('BEGIN');
  }
}
flushPending();
db.exec('COMMIT');
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
store.close();
rmSync(dir, { recursive: true, force: true });
process.stdout.write(
  JSON.stringify({
    bench: 'sqlite-floor',
    rows: MODE,
    order: ORDER,
    without: [...WITHOUT],
    layout: APPENDED ? 'appended' : 'today',
    hashes: HASHES,
    batchPages: PAGES_PER_BATCH,
    urls: nextPage - 1,
    pagesFetched: fetched,
    seconds: Math.round(seconds * 10) / 10,
    cpuSeconds: Math.round(((cpu.user + cpu.system) / 1e6) * 10) / 10,
    urlsPerSecond: Math.round((nextPage - 1) / seconds),
  }) + '\n',
);
