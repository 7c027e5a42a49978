/**
 * bench/sites (issue 18): the Sites view's questions on a large crawl. Writes a crawl of
 * 50,000 sites and 3M pages straight into a crawl database (site sizes Zipf-like, 3% of
 * pages ended with an error code, 7% still in the frontier as in a running crawl, a stored
 * site PageRank run), then times listSites as the view asks it (first page of 50) for each
 * sort key and each filter, on a fresh reader each time as the engine does: first as a running
 * crawl has the file (no read indexes), then as a finished one (read indexes built, among them
 * pages_site_errors for the errors by kind). Prints the times in ms (median of 5). Target:
 * each answer within 1 s.
 *
 *   npm run bench:sites [-- --sites 50000 --pages 3000000 --keep]
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SITE_SORT_KEYS, type SitesQuery } from '../../core/api/contract.js';
import { sitesPage } from '../../core/api/sites-query.js';
import { validateSettings } from '../../core/config/settings.js';
import { Rng } from '../../core/random.js';
import { withCrawlReader } from '../../core/store/crawl-reader.js';
import { CrawlStore } from '../../core/store/crawl-store.js';

const { values: flags } = parseArgs({ options: { sites: { type: 'string', default: '50000' }, pages: { type: 'string', default: '3000000' }, keep: { type: 'boolean' } } });
const siteCount = Number(flags.sites);
const pageCount = Number(flags.pages);
const dir = join(process.cwd(), 'bench', 'out', 'sites');
mkdirSync(dir, { recursive: true });
const path = join(dir, `sites-${siteCount}-${pageCount}.db`);
const say = (s: string) => process.stderr.write(s + '\n');

const CODES = ['CRAWL_HTTP_4XX', 'CRAWL_HTTP_5XX', 'CRAWL_CONNECT_TIMEOUT', 'CRAWL_ROBOTS_DISALLOWED', 'CRAWL_SITE_PARKED'];

function makeCrawl(): void {
  const t0 = performance.now();
  CrawlStore.create(path, validateSettings({ seeds: ['http://www.s0.bench.test/'] })).close();
  const db = new Database(path);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  const rng = new Rng(5);
  const weights = Array.from({ length: siteCount }, (_, s) => 1 / (s + 5));
  const wsum = weights.reduce((a, b) => a + b, 0);
  const sizes = weights.map((w) => Math.max(1, Math.floor((pageCount - siteCount) * (w / wsum)) + 1));
  db.exec('BEGIN');
  const site = db.prepare(`INSERT INTO sites(id, host, pages_known, pages_fetched, pages_failed, bytes, connections, requests, connect_ms, requests_per_conn, errors, crawl_delay_ms, parked)
    VALUES (?, ?, ?, ?, ?, ?, 1, 1, ?, ?, ?, ?, ?)`);
  const robots = db.prepare('INSERT INTO robots(origin, site_id, state, http_status, fetched_at) VALUES (?, ?, ?, ?, 0)');
  for (let s = 0; s < siteCount; s++) {
    const parked = rng.float() < 0.01 ? 'CRAWL_ROBOTS_UNAVAILABLE' : null;
    site.run(s + 1, `www.s${s}.bench.test`, sizes[s]!, Math.floor(sizes[s]! * 0.9), rng.float() < 0.1 ? 1 : 0, sizes[s]! * 12_000, 1 + rng.float() * 50, 1 + rng.float() * 9, rng.float() < 0.1 ? 3 : 0, rng.float() < 0.05 ? 1000 : null, parked);
    robots.run(`http://www.s${s}.bench.test:80`, s + 1, parked ? 'unavailable' : rng.float() < 0.5 ? 'rules' : 'allow-all', parked ? 500 : 200);
  }
  const page = db.prepare("INSERT INTO pages(id, url, site_id, depth, status, error_code, fetch_seq) VALUES (?, ?, ?, 1, ?, ?, ?)");
  const frontier = db.prepare('INSERT INTO frontier(page_id, site_id) VALUES (?, ?)');
  let id = 0;
  let seq = 0;
  // Each site's pages in one block (where they sit makes no difference to a full scan).
  for (let s = 0; s < siteCount && id < pageCount; s++) {
    for (let k = 0; k < sizes[s]! && id < pageCount; k++) {
      id++;
      const url = `http://www.s${s}.bench.test/p${k}`;
      const r = rng.float();
      if (r < 0.07) {
        page.run(id, url, s + 1, 'queued', null, null);
        frontier.run(id, s + 1);
      } else if (r < 0.1) page.run(id, url, s + 1, 'failed', CODES[Math.floor(rng.float() * CODES.length)]!, null);
      else page.run(id, url, s + 1, 'fetched', null, ++seq);
    }
  }
  const run = db.prepare("INSERT INTO pagerank_runs(kind, damping, tolerance, iterations, nodes, edges, created_at) VALUES ('site', 0.85, 1e-9, 30, ?, 0, ?)").run(siteCount, new Date().toISOString()).lastInsertRowid;
  const value = db.prepare('INSERT INTO site_pagerank(run_id, site_id, value) VALUES (?, ?, ?)');
  for (let s = 0; s < siteCount; s++) value.run(run, s + 1, weights[s]! / wsum);
  db.exec('COMMIT');
  db.pragma('journal_mode = WAL');
  db.close();
  say(`wrote ${siteCount} sites, ${pageCount} pages in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

if (!existsSync(path)) makeCrawl();

function time(q: SitesQuery): number {
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    withCrawlReader(path, (r) => sitesPage(r, { limit: 50, ...q }));
    runs.push(performance.now() - t);
  }
  return runs.sort((a, b) => a - b)[2]!;
}

/** Every question the view asks, timed. */
function times(): Array<[string, number]> {
  const rows: Array<[string, number]> = [];
  for (const sort of SITE_SORT_KEYS) rows.push([`sort ${sort}`, time({ sort })]);
  rows.push(['sort pages_fetched, offset 40,000', time({ offset: 40_000 })]);
  rows.push(['host contains "s123"', time({ host: 's123' })]);
  rows.push(['state pending', time({ state: 'pending' })]);
  rows.push(['state done', time({ state: 'done' })]);
  rows.push(['state parked', time({ state: 'parked' })]);
  rows.push(['errors only, by site PageRank', time({ errorsOnly: true, sort: 'site_pagerank' })]);
  return rows;
}

// As a running crawl has it (no read indexes), then as a finished one (built when it ends).
const store = CrawlStore.open(path);
store.dropReadIndexes();
store.close();
const running = times();
const t = performance.now();
const finished = CrawlStore.open(path);
finished.buildReadIndexes();
finished.close();
say(`read indexes built in ${((performance.now() - t) / 1000).toFixed(1)} s`);
const built = times();
console.log(`${'listSites, first page of 50'.padEnd(40)} ${'running'.padStart(9)} ${'finished'.padStart(9)}`);
running.forEach(([what, ms], i) => console.log(`${what.padEnd(40)} ${ms.toFixed(0).padStart(6)} ms ${built[i]![1].toFixed(0).padStart(6)} ms`));
if (!flags.keep) rmSync(dir, { recursive: true, force: true });
