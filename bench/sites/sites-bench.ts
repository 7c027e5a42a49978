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
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SITE_SORT_KEYS, type SitesQuery } from '../../core/api/contract.js';
import { sitesPage } from '../../core/api/sites-query.js';
import { withCrawlReader } from '../../core/store/crawl-reader.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { makeSitesCrawl } from './make-crawl.js';

const { values: flags } = parseArgs({ options: { sites: { type: 'string', default: '50000' }, pages: { type: 'string', default: '3000000' }, keep: { type: 'boolean' } } });
const siteCount = Number(flags.sites);
const pageCount = Number(flags.pages);
const dir = join(process.cwd(), 'bench', 'out', 'sites');
mkdirSync(dir, { recursive: true });
const path = join(dir, `sites-${siteCount}-${pageCount}.db`);
const say = (s: string) => process.stderr.write(s + '\n');

if (!existsSync(path)) makeSitesCrawl(path, siteCount, pageCount, say);

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
