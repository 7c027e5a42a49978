/**
 * bench/pages (issue 18): how fast the Pages view answers on a large finished crawl. Makes a
 * crawl of N pages (make-crawl.ts: realistic URLs, ~10 links a page, a stored PageRank run),
 * builds the read indexes as a finishing crawl does (timing the old ones, pages_url and
 * links_dst, apart from the Pages view's: the FTS5 trigram index over URLs, pages_site and
 * the in-degrees), then times the first result page (50 rows) of URL-substring searches, each
 * sort in both directions and filters with a sort, each through the API's searchPages on a
 * fresh reader, as the workbench asks. Target: each within 1 s at 3M pages.
 *
 *   npm run bench:pages [-- --pages 3000000 --dir DIR --keep --queries-only --json]
 *
 * --keep reuses the crawl made by an earlier run (its read indexes built again and timed);
 * --queries-only with --keep times only the searches.
 */
import Sqlite from '../../core/store/sqlite.js';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { searchPages } from '../../core/api/page-queries.js';
import type { PageSearchQuery } from '../../core/api/contract.js';
import { CrawlReader } from '../../core/store/crawl-reader.js';
import { READ_INDEXES } from '../../core/store/migrations/003-write-optimised.js';
import { buildPageSearchIndexes, dropPageSearchIndexes } from '../../core/store/page-search-index.js';
import { makePagesCrawl } from './make-crawl.js';

const { values: flags } = parseArgs({
  options: {
    pages: { type: 'string', default: '3000000' },
    dir: { type: 'string' },
    keep: { type: 'boolean' },
    'queries-only': { type: 'boolean' },
    json: { type: 'boolean' },
  },
});
const pages = Number(flags.pages);
const dir = flags.dir ?? mkdtempSync(join(tmpdir(), 'crawlbench-pages-bench-'));
mkdirSync(dir, { recursive: true });
const path = join(dir, `pages-${pages}.db`);
const say = (s: string) => process.stderr.write(s + '\n');
const size = () => [path, `${path}-wal`].reduce((n, p) => n + (existsSync(p) ? statSync(p).size : 0), 0);
const MiB = (b: number) => (b / 1024 / 1024).toFixed(0);

const report: Record<string, unknown> = { pages, date: new Date().toISOString() };
if (!(flags.keep && existsSync(path))) {
  for (const p of [path, `${path}-wal`, `${path}-shm`]) rmSync(p, { force: true });
  say(`making a crawl of ${pages} pages in ${path} ...`);
  const made = makePagesCrawl(path, pages);
  say(`  ${made.links} links on ${made.sites} sites, made in ${made.seconds.toFixed(0)} s`);
  Object.assign(report, { links: made.links, sites: made.sites, makeSeconds: made.seconds });
} else {
  say(`using ${path}${flags['queries-only'] ? '' : '; its read indexes are built again'}`);
}
if (!flags['queries-only']) {
  const db = new Sqlite(path);
  dropPageSearchIndexes(db);
  for (const index of READ_INDEXES) db.exec(`DROP INDEX IF EXISTS ${index.name}`);
  db.pragma('journal_mode = WAL');
  let t = performance.now();
  for (const index of READ_INDEXES) db.exec(index.sql);
  const oldSeconds = (performance.now() - t) / 1000;
  db.pragma('wal_checkpoint(TRUNCATE)');
  t = performance.now();
  buildPageSearchIndexes(db);
  const newSeconds = (performance.now() - t) / 1000;
  db.pragma('wal_checkpoint(TRUNCATE)');
  // Sizes from dbstat (the file does not shrink when indexes are dropped, so its growth would understate a rebuild).
  const bytesOf = (names: string[]) =>
    db.prepare(`SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE ${names.map(() => 'name LIKE ?').join(' OR ')}`).pluck().get(...names) as number;
  const oldBytes = bytesOf(['pages_url', 'links_dst']);
  const ftsBytes = bytesOf(['pages_fts%']);
  const newBytes = ftsBytes + bytesOf(['pages_site', 'page_indegree', 'page_indegree_order']);
  db.close();
  say(`read indexes: pages_url + links_dst ${oldSeconds.toFixed(1)} s (${MiB(oldBytes)} MiB); Pages view's (FTS5 trigram, pages_site, in-degrees) ${newSeconds.toFixed(1)} s (${MiB(newBytes)} MiB, of which FTS ${MiB(ftsBytes)} MiB); file ${MiB(size())} MiB`);
  Object.assign(report, { oldIndexSeconds: oldSeconds, pageIndexSeconds: newSeconds, oldIndexBytes: oldBytes, pageIndexBytes: newBytes, ftsBytes, fileBytes: size() });
}

// A rare text: the slug of one page in the middle; a common one: a section name; a very common one.
const probe = CrawlReader.open(path);
const middle = probe.page(Math.floor(pages / 2), ['url'])!.url;
const rare = middle.slice(middle.lastIndexOf('/'));
const bigSite = probe.prepared('SELECT host FROM sites ORDER BY pages_known DESC LIMIT 1').pluck().get() as string;
const midSite = probe.prepared('SELECT host FROM sites ORDER BY pages_known DESC LIMIT 1 OFFSET 200').pluck().get() as string;
probe.close();

const cases: Array<[string, PageSearchQuery]> = [
  [`url "${rare}" (rare)`, { url: rare }],
  ['url "noticias" (common)', { url: 'noticias' }],
  ['url ".html" (most pages)', { url: '.html' }],
  ['url "ley" sorted by PageRank', { url: 'ley', sort: 'pagerank' }],
  ['sort fetch ascending', { sort: 'fetch', descending: false }],
  ['sort fetch descending', { sort: 'fetch', descending: true }],
  ['sort pagerank descending', { sort: 'pagerank', descending: true }],
  ['sort pagerank ascending', { sort: 'pagerank', descending: false }],
  ['sort indegree descending', { sort: 'indegree', descending: true }],
  ['sort indegree ascending', { sort: 'indegree', descending: false }],
  [`site ${bigSite} (largest) by PageRank`, { site: bigSite, sort: 'pagerank' }],
  [`site ${midSite} (201st) by in-degree`, { site: midSite, sort: 'indegree' }],
  ['status failed by fetch', { status: 'failed' }],
  ['status queued by PageRank', { status: 'queued', sort: 'pagerank' }],
  ['type application/pdf by in-degree', { type: 'application/pdf', sort: 'indegree' }],
  ['depth exactly 3 by PageRank', { depth: 3, exactDepth: true, sort: 'pagerank' }],
  ['sort PageRank, offset 10,000', { sort: 'pagerank', offset: 10_000 }],
  // Worst cases: matches rare in sort order stop at the walk's time limit (a result page marked incomplete).
  ['status skipped (no page has it) by PageRank', { status: 'skipped', sort: 'pagerank' }],
  ['url "ñandú" (not ASCII: no trigram lookup)', { url: 'ñandú' }],
];

const rows: Array<{ name: string; ms: number; again: number; total: number | null; atLeast: number; complete: boolean; first: string }> = [];
for (const [name, q] of cases) {
  const time = () => {
    const t = performance.now();
    const reader = CrawlReader.open(path);
    try {
      const out = searchPages(reader, { ...q, limit: 50 });
      return { ms: performance.now() - t, out };
    } finally {
      reader.close();
    }
  };
  const first = time();
  const again = time();
  const row = { name, ms: first.ms, again: again.ms, total: first.out.total, atLeast: first.out.totalAtLeast, complete: first.out.complete, first: first.out.rows[0]?.url ?? '(none)' };
  rows.push(row);
  const total = row.total ?? `more than ${row.atLeast}`;
  say(`${name.padEnd(58)} ${row.ms.toFixed(0).padStart(6)} ms (again ${row.again.toFixed(0).padStart(5)} ms)  total ${total}${row.complete ? '' : ' (stopped at the time limit)'}${row.ms > 1000 ? '   OVER 1 s' : ''}`);
}
const peak = process.resourceUsage().maxRSS * 1024;
say(`peak RSS ${MiB(peak)} MiB`);
Object.assign(report, { cases: rows, peakRss: peak });
if (flags.json) process.stdout.write(JSON.stringify(report, null, 2) + '\n');
if (!flags.keep) say(`kept ${path} (remove it, or pass --keep to reuse it)`);
