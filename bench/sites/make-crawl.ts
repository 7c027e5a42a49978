/**
 * The crawl bench/sites times the Sites view on (issue 18), written straight into a crawl
 * database: `siteCount` sites and `pageCount` pages, site sizes Zipf-like, 3% of pages ended
 * with an error code, 7% still in the frontier as in a running crawl, a stored site PageRank
 * run. No read indexes: the caller builds them (CrawlStore.buildReadIndexes) to have the file
 * as a finished crawl has it. Also made by bench/server-load.
 */
import Sqlite from '../../core/store/sqlite.js';
import { validateSettings } from '../../core/config/settings.js';
import { Rng } from '../../core/random.js';
import { CrawlStore } from '../../core/store/crawl-store.js';

const CODES = ['CRAWL_HTTP_4XX', 'CRAWL_HTTP_5XX', 'CRAWL_CONNECT_TIMEOUT', 'CRAWL_ROBOTS_DISALLOWED', 'CRAWL_SITE_PARKED'];

export function makeSitesCrawl(path: string, siteCount: number, pageCount: number, say: (s: string) => void = () => {}): void {
  const t0 = performance.now();
  CrawlStore.create(path, validateSettings({ seeds: ['http://www.s0.bench.test/'] })).close();
  const db = new Sqlite(path);
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
