/**
 * bench/server-load's two crawls, made with the makers of bench/export and bench/sites:
 *   node make-crawls.js DIR PAGES SITES SITE_PAGES
 * writes DIR/export.db (+ export.db.content/: PAGES pages with stored content, as bench/export
 * exports) and DIR/sites.db (SITES sites, SITE_PAGES pages, read indexes built: the crawl
 * bench/sites times as a finished one), then DIR/made.json. Run by server-load-bench.ts with
 * core-redirect.js preloaded, so that the crawls have the schema of the checkout it names.
 */
import Sqlite from '../../core/store/sqlite.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { makeContentCrawl } from '../export/make-crawl.js';
import { makeSitesCrawl } from '../sites/make-crawl.js';

const [dir, pagesArg, sitesArg, sitePagesArg] = process.argv.slice(2);
const pages = Number(pagesArg);
const sites = Number(sitesArg);
const sitePages = Number(sitePagesArg);
const say = (s: string) => process.stderr.write(s + '\n');

let t = performance.now();
say(`making the export crawl: ${pages} pages with content ...`);
const { contentBytes } = makeContentCrawl(join(dir!, 'export.db'), pages);
say(`  made in ${((performance.now() - t) / 1000).toFixed(0)} s (${(contentBytes / 1e9).toFixed(2)} GB of content)`);
t = performance.now();
say(`making the sites crawl: ${sites} sites, ${sitePages} pages ...`);
makeSitesCrawl(join(dir!, 'sites.db'), sites, sitePages, (s) => say(`  ${s}`));
const store = CrawlStore.open(join(dir!, 'sites.db'));
store.buildReadIndexes();
store.close();
say(`  made, read indexes built, in ${((performance.now() - t) / 1000).toFixed(0)} s`);
const schema = (db: string) => {
  const d = new Sqlite(join(dir!, db), { readonly: true });
  const v = d.pragma('user_version', { simple: true }) as number;
  d.close();
  return v;
};
writeFileSync(join(dir!, 'made.json'), JSON.stringify({ pages, sites, sitePages, contentBytes, schema: schema('export.db'), sitesSchema: schema('sites.db'), madeAt: new Date().toISOString() }, null, 2) + '\n');
