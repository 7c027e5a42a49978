/**
 * A parallel crawl that stores content and reads sitemaps (issue 25): the built `crawlbench
 * crawl --parts 3 --store-content --sitemaps` against a real nats-server and a test web whose
 * sites serve sitemaps listing pages no page links to, compared with a single-process crawl of
 * the same web with the same flags. Each worker keeps its pages' bodies in its own part
 * (part-I.db.content); the merge carries them into NAME.db.content under the merged page ids, so
 * that the merged crawl's WARC export holds the same bodies for the same URLs as the single
 * crawl's. The sitemap-only pages are fetched; a site's sitemaps are read once, by its owner
 * under a site assignment and by one claiming worker under a page assignment (the test web's log
 * says so), and the URLs they list for other parts reach their owners through the exchange.
 */
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { generateWeb } from '../../core/testweb/generator.js';
import { GOOD_SITEMAP_STYLES, HIDDEN_PAGES, hiddenPath, type SitemapStyle } from '../../core/testweb/sitemaps.js';
import { seedUrls } from '../../core/testweb/web.js';
import type { ServedRequest } from '../../core/testweb/server.js';
import { checkDigests, readRecords, type WarcRecord } from '../export/warc-reader.js';
import { fetchedUrls, sqlRows as rows } from '../helpers/crawl-db.js';
import { crawlbench } from '../helpers/run.js';
import { tmpDir } from '../helpers/tmp.js';
import { serve } from '../helpers/web.js';
import { describeWith } from '../references.js';

const dir = tmpDir('crawlbench-parallel-content-');

/** Every record of a crawl's WARC export (`crawlbench export DB --format warc`). */
async function warcOf(db: string): Promise<WarcRecord[]> {
  const out = `${db}.warc`;
  const r = await crawlbench(['export', db, '--format', 'warc', '--out', out, '--quiet']);
  expect(r.code, r.stderr).toBe(0);
  const records: WarcRecord[] = [];
  for (const f of readdirSync(out).filter((n) => n.endsWith('.warc.gz')).sort()) records.push(...(await readRecords(join(out, f))));
  expect(checkDigests(records).failed).toEqual([]);
  return records;
}

/** The body each URL's fetch answered with (its payload digest: a revisit names the same payload as its response). */
function bodies(records: WarcRecord[], robots: boolean): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of records) {
    if (r.type !== 'response' && r.type !== 'revisit') continue;
    const uri = r.warc['WARC-Target-URI']!;
    if (uri.endsWith('/robots.txt') !== robots) continue;
    out.set(uri, r.warc['WARC-Payload-Digest']!);
  }
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
}

describeWith(['nats-server'], 'parallel crawl: --store-content and --sitemaps with --parts', async () => {
  const web = generateWeb({ seed: 26, sites: 24, pages: 480, latency: { maxMs: 3 }, sitemaps: true });
  // Sitemaps of every kind but those whose bounded read costs 50 MB (test/engine/sitemaps.test.ts reads those).
  for (const s of web.sites) if (s.sitemap === 'over-limit' || s.sitemap === 'billion' || s.sitemap === 'bomb') delete s.sitemap;
  const { server, port } = await serve(web);
  const seeds = join(dir, 'seeds.txt');
  writeFileSync(seeds, seedUrls(web, port).join('\n') + '\n');
  const flags = ['--seeds', seeds, '--resolve', '*.demo=127.0.0.1', '--w', '0', '--c', '3', '--retry-base', '200ms', '--robots-retry', '200ms', '--store-content', '--sitemaps', '--quiet'];
  const hostOf = new Map<SitemapStyle, string>(web.sites.filter((s) => s.sitemap).map((s) => [s.sitemap!, s.host]));
  const single = join(dir, 'single.db');
  let truth: string[] = [];
  let truthWarc: WarcRecord[] = [];
  let singleRequests: ServedRequest[] = [];

  /** The sitemaps a crawl asked the test web for, each as often as it asked. */
  const sitemapRequests = (requests: ServedRequest[]) =>
    requests.filter((q) => /^\/sitemap/.test(q.path)).map((q) => `${q.host}${q.path}`).sort();

  async function crawl(db: string, more: string[]): Promise<ServedRequest[]> {
    const before = server.requests.length;
    const r = await crawlbench(['crawl', '--db', db, ...flags, ...more]);
    expect(r.code, r.stderr).toBe(0);
    return server.requests.slice(before);
  }

  beforeAll(async () => {
    singleRequests = await crawl(single, []);
    truth = fetchedUrls(single);
    truthWarc = await warcOf(single);
    // The web's sitemap-only pages are among what a crawl reading sitemaps fetches.
    for (const style of GOOD_SITEMAP_STYLES) {
      for (let n = 1; n <= HIDDEN_PAGES; n++) expect(truth).toContain(`http://${hostOf.get(style)}:${port}${hiddenPath(n)}`);
    }
  }, 120_000);

  it('a site hash: the merged crawl exports the single crawl\'s bodies; the sitemap-only pages are fetched, each sitemap read once by its site\'s owner', async () => {
    const db = join(dir, 'site-hash.db');
    const requests = await crawl(db, ['--parts', '3', '--model', 'site', '--assign', 'hash', '--predict-from', single]);
    expect(fetchedUrls(db)).toEqual(truth);
    expect(sitemapRequests(requests)).toEqual(sitemapRequests(singleRequests));
    // Each worker kept its bodies in its own part; the merged crawl's export holds them all.
    for (let p = 0; p < 3; p++) expect(readdirSync(join(dir, 'site-hash.parts', `part-${p}.db.content`)).length).toBeGreaterThan(0);
    const warc = await warcOf(db);
    expect(bodies(warc, false)).toEqual(bodies(truthWarc, false));
    expect(bodies(warc, true)).toEqual(bodies(truthWarc, true));
    expect(warc.filter((r) => r.type === 'response' || r.type === 'revisit')).toHaveLength(truthWarc.filter((r) => r.type === 'response' || r.type === 'revisit').length);
    // The sitemaps table of the merged crawl is the single crawl's: every sitemap, what became of it.
    const sitemaps = (d: string) => rows<object>(d, 'SELECT url, source, state, error_code, urls, sitemaps, depth, page_id IS NOT NULL AS page FROM sitemaps ORDER BY url');
    expect(sitemaps(db)).toEqual(sitemaps(single));
    expect(sitemaps(db).length).toBeGreaterThan(10);
  }, 120_000);

  it('a page hash: the sitemaps are read once across the workers (one claims each site\'s); the same pages, the same page bodies', async () => {
    const db = join(dir, 'page-hash.db');
    const requests = await crawl(db, ['--parts', '3', '--model', 'page', '--assign', 'hash']);
    expect(fetchedUrls(db)).toEqual(truth);
    expect(sitemapRequests(requests)).toEqual(sitemapRequests(singleRequests));
    // The sitemaps' pages were read by several workers, and each sent what it found for the others.
    const readers = new Set<number>();
    for (let p = 0; p < 3; p++) {
      const n = rows<{ n: number }>(join(dir, 'page-hash.parts', `part-${p}.db`), "SELECT count(*) AS n FROM sitemaps WHERE state = 'fetched'")[0]!.n;
      if (n > 0) readers.add(p);
    }
    expect(readers.size).toBeGreaterThan(1);
    const warc = await warcOf(db);
    expect(bodies(warc, false)).toEqual(bodies(truthWarc, false));
  }, 120_000);
});
