import type Database from 'better-sqlite3';
import Sqlite from '../../core/store/sqlite.js';
import { validateSettings } from '../../core/config/settings.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { READ_INDEXES } from '../../core/store/migrations/003-write-optimised.js';
import { hash, Rng, unit } from '../../core/random.js';

export interface GeneratedCrawl {
  pages: number;
  links: number;
  sites: number;
  seconds: number;
}

/**
 * Writes a synthetic finished crawl shaped like a national web: site sizes and in-degrees
 * heavy-tailed (a site's first pages, like home pages, collect most links), 85% of links
 * inside their site, 10% of pages without out-links. Deterministic for a given seed.
 * Speed matters more than safety here, hence journal off, synchronous off, multi-row
 * INSERTs, and (as in a real crawl since schema 3) the read indexes built once at the end.
 */
/**
 * For a second crawl of "the same web months later" (bench/compare): the share of page URLs
 * that survive (the others are renamed: gone from the first crawl, new in the second) and
 * the share of surviving pages whose content changed, drawn from `seed`.
 */
export interface Revision {
  survive: number;
  changed: number;
  seed: number;
}

export function generateCrawl(path: string, pages: number, links: number, seed = 1, revision?: Revision): GeneratedCrawl {
  const t0 = performance.now();
  CrawlStore.create(path, validateSettings({ seeds: ['http://s0.bench.test/'] })).close();
  const db = new Sqlite(path);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144'); // 256 MiB
  const rng = new Rng(seed);
  const sites = siteLayout(pages);
  const deg = outDegrees(rng, pages, links);

  db.exec('BEGIN');
  insertSites(db, sites);
  insertPages(db, sites, pages, revision);
  insertLinks(db, rng, sites, deg);
  for (const index of READ_INDEXES) db.exec(index.sql); // a finished crawl has them
  db.prepare("INSERT INTO meta(key, value) VALUES ('state', 'finished') ON CONFLICT(key) DO UPDATE SET value = excluded.value").run();
  db.exec('COMMIT');
  db.pragma('journal_mode = WAL');
  db.close();
  return { pages, links, sites: sites.count, seconds: (performance.now() - t0) / 1000 };
}

interface Sites {
  count: number;
  /** First page of each site; siteStart[count] = pages. */
  start: Int32Array;
  /** Site of each page. */
  of: Int32Array;
}

/** Site sizes: Zipf-like weights 1/(rank+10), at least one page each. */
function siteLayout(pages: number): Sites {
  const count = Math.max(1, Math.round(pages / 100));
  const weights = Array.from({ length: count }, (_, s) => 1 / (s + 10));
  const wsum = weights.reduce((a, b) => a + b, 0);
  const start = new Int32Array(count + 1);
  for (let s = 0; s < count; s++) start[s + 1] = start[s]! + Math.max(1, Math.floor((pages - count) * (weights[s]! / wsum)) + 1);
  start[count] = pages; // the last site absorbs rounding
  const of = new Int32Array(pages);
  for (let s = 0; s < count; s++) of.fill(s, start[s]!, start[s + 1]!);
  return { count, start, of };
}

/** Out-degrees: exponential around the mean, 10% dangling, then nudged to sum exactly. */
function outDegrees(rng: Rng, pages: number, links: number): Int32Array {
  const deg = new Int32Array(pages);
  const mean = links / (pages * 0.9);
  let total = 0;
  for (let i = 0; i < pages; i++) {
    if (rng.float() < 0.1) continue;
    deg[i] = Math.min(pages - 1, Math.max(1, Math.round(-mean * Math.log(1 - rng.float()))));
    total += deg[i]!;
  }
  while (total !== links) {
    const i = rng.int(pages);
    if (total < links && deg[i]! > 0 && deg[i]! < pages - 1) (deg[i]!++, total++);
    else if (total > links && deg[i]! > 1) (deg[i]!--, total--);
  }
  return deg;
}

function insertSites(db: Database.Database, sites: Sites): void {
  const insert = db.prepare('INSERT INTO sites(id, host, pages_known, pages_fetched) VALUES (?, ?, ?, ?)');
  for (let s = 0; s < sites.count; s++) {
    const size = sites.start[s + 1]! - sites.start[s]!;
    insert.run(s + 1, `s${s}.bench.test`, size, size);
  }
}

/** Pages fetched with status 200, of 2-20 KB, each with a content hash (changed in a revision's changed share). */
function insertPages(db: Database.Database, sites: Sites, pages: number, revision?: Revision): void {
  const PAGE_ROWS = 100;
  const COLS = 7; // parameters a row: id, url, site, bytes, hash, fetch_seq, fetched_at
  const pageSql = (k: number) =>
    'INSERT INTO pages(id, url, site_id, depth, status, http_status, bytes, content_hash, fetch_seq, fetched_at) VALUES ' +
    Array(k).fill("(?, ?, ?, 1, 'fetched', 200, ?, ?, ?, ?)").join(', ');
  const insert = db.prepare(pageSql(PAGE_ROWS));
  let params: unknown[] = [];
  for (let i = 0; i < pages; i++) {
    const s = sites.of[i]!;
    const renamed = revision !== undefined && unit(hash(revision.seed, i, 1)) >= revision.survive;
    const changed = revision !== undefined && unit(hash(revision.seed, i, 2)) < revision.changed;
    const url = `http://s${s}.bench.test/${renamed ? 'n' : 'p'}${i - sites.start[s]!}`;
    const contentHash = (hash(changed ? revision!.seed : 0, i, 3) >>> 0).toString(16).padStart(8, '0');
    params.push(i + 1, url, s + 1, 2000 + ((hash(0, i, 4) >>> 0) % 18_000), contentHash, i + 1, 1.7e12 + i * 10);
    if (params.length === PAGE_ROWS * COLS) {
      insert.run(params);
      params = [];
    }
  }
  if (params.length > 0) db.prepare(pageSql(params.length / COLS)).run(params);
}

function insertLinks(db: Database.Database, rng: Rng, sites: Sites, deg: Int32Array): void {
  const LINK_ROWS = 400;
  // Keyed by the source's fetch_seq (schema 12), here its id.
  const linkSql = (k: number) => 'INSERT INTO links(seq, dst, src) VALUES ' + Array(k).fill('(?, ?, ?)').join(', ');
  const insert = db.prepare(linkSql(LINK_ROWS));
  const buf: number[] = [];
  const chosen = new Set<number>();
  for (let i = 0; i < deg.length; i++) {
    chooseTargets(rng, sites, i, deg[i]!, chosen);
    // Ascending (seq, dst) order appends to the primary-key B-tree instead of splitting it.
    for (const t of [...chosen].sort((a, b) => a - b)) {
      buf.push(i + 1, t + 1, i + 1);
      if (buf.length === LINK_ROWS * 3) {
        insert.run(buf);
        buf.length = 0;
      }
    }
  }
  if (buf.length) db.prepare(linkSql(buf.length / 3)).run(buf);
}

/** Page i's `degree` distinct targets: 85% inside its site, towards its first pages. */
function chooseTargets(rng: Rng, sites: Sites, i: number, degree: number, chosen: Set<number>): void {
  chosen.clear();
  const s = sites.of[i]!;
  const start = sites.start[s]!;
  const size = sites.start[s + 1]! - start;
  const pages = sites.of.length;
  let tries = 0;
  while (chosen.size < degree) {
    let t: number;
    if (tries++ > 4 * degree + 20) t = rng.int(pages); // a crowded small site: any page
    else if (rng.float() < 0.85) t = start + Math.floor(size * rng.float() ** 3);
    else {
      const ts = Math.floor(sites.count * rng.float() ** 2);
      t = sites.start[ts]! + Math.floor((sites.start[ts + 1]! - sites.start[ts]!) * rng.float() ** 4);
    }
    if (t !== i) chosen.add(t);
  }
}
