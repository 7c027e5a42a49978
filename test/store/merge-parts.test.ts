/**
 * crawlbench merge (core/store/merge-parts.ts) read as users read crawls: through CrawlReader,
 * whose snapshot bounds every page query by the highest fetch sequence number it saw. A merged
 * crawl (and each part database read alone) must show through the reader every page its rows
 * hold as fetched; were a merge to number fetches past what the reader takes as committed,
 * rank, eval, export and the workbench would all miss pages of every parallel crawl.
 *
 * The parts are real engine crawls of the test web, each with a part hook as a parallel
 * crawl's worker has (URLs of other parts stored as stubs), one of them stopped part way (a
 * killed worker's part), one fetching pages another part fetched too (what a worker killed
 * mid-fetch or two discoverers leave).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../core/engine/crawler.js';
import type { PartHook } from '../../core/engine/context.js';
import { CrawlReader } from '../../core/store/crawl-reader.js';
import { mergeParts, mergedEnd, type MergeResult } from '../../core/store/merge-parts.js';
import Sqlite from '../../core/store/sqlite.js';
import { generateWeb } from '../../core/testweb/generator.js';
import { seedUrls } from '../../core/testweb/web.js';
import { fetchedUrls } from '../helpers/crawl-db.js';
import { tmpDir } from '../helpers/tmp.js';
import { serve, testSettings } from '../helpers/web.js';

const dir = tmpDir('crawlbench-merge-parts-');
const partsDir = join(dir, 'web.parts');
const K = 3;

/** A worker's view of the assignment: a URL hash, without the exchange (the test merges what each part reached). */
function partHook(part: number, alsoMine: (url: string) => boolean = () => false): PartHook {
  const owner = (url: string) => {
    let h = 0;
    for (let i = 0; i < url.length; i++) h = (h * 31 + url.charCodeAt(i)) >>> 0;
    return h % K;
  };
  return {
    mine: (url, seed) => seed || owner(url) === part || alsoMine(url),
    foreign: () => {},
    pageDone: () => {},
    holdOpen: () => false,
  };
}

/** What the rows say, by the tests' own SQL: the URLs with a fetch sequence number. */
function fetchedBySql(db: string): string[] {
  const d = new Sqlite(db, { readonly: true });
  try {
    return d.prepare('SELECT url FROM pages WHERE fetch_seq IS NOT NULL').pluck().all() as string[];
  } finally {
    d.close();
  }
}

function readerCount(db: string): number {
  const reader = CrawlReader.open(db);
  try {
    return reader.counts().pagesFetched;
  } finally {
    reader.close();
  }
}

describe('merged parts read through CrawlReader', async () => {
  const web = generateWeb({ seed: 41, sites: 8, pages: 240 });
  const { port } = await serve(web);
  const settings = testSettings(seedUrls(web, port));
  const parts = Array.from({ length: K }, (_, p) => join(partsDir, `part-${p}.db`));
  let merged: MergeResult;

  beforeAll(async () => {
    mkdirSync(partsDir, { recursive: true });
    // Part 0 crawls to its end; part 1 also fetches a third of part 0's pages; part 2 stops after 25 pages.
    const alsoPart0 = (url: string) => partHook(0).mine(url, false) && url.length % 3 === 0;
    const runs: [number, PartHook, number | null][] = [[0, partHook(0), null], [1, partHook(1, alsoPart0), null], [2, partHook(2), 25]];
    for (const [p, hook, maxPages] of runs) {
      const crawler = Crawler.create(parts[p]!, { ...settings, maxPages }, { parts: hook });
      try {
        await crawler.run();
      } finally {
        crawler.close();
      }
    }
    merged = mergeParts(partsDir, join(dir, 'web.db'));
  }, 60_000);

  it('each part read alone: the reader shows every page its rows hold as fetched', () => {
    for (const db of parts) {
      const bySql = fetchedBySql(db).sort();
      expect(bySql.length).toBeGreaterThan(10);
      expect(fetchedUrls(db)).toEqual(bySql);
      expect(readerCount(db)).toBe(bySql.length);
    }
  });

  it('the merged crawl: the reader shows every fetched page of every part, each once, as the merge states', () => {
    const union = [...new Set(parts.flatMap(fetchedBySql))].sort();
    const bySql = fetchedBySql(merged.out).sort();
    expect(bySql).toEqual(union);
    expect(fetchedUrls(merged.out)).toEqual(union);
    expect(readerCount(merged.out)).toBe(union.length);
    expect(merged.pagesFetched).toBe(union.length);
    // Part 1 fetched pages part 0 fetched too: stated, and kept once.
    const twice = fetchedBySql(parts[0]!).filter((u) => fetchedBySql(parts[1]!).includes(u));
    expect(twice.length).toBeGreaterThan(0);
    expect(merged.fetchedTwice).toBe(twice.length);
    // A stopped part's queued pages stay queued in the merge unless another part fetched them.
    expect(merged.workers.map((w) => w.pagesFetched)).toEqual(parts.map((db) => fetchedBySql(db).length));
  });

  it('the merged crawl numbers its fetches 1..N in fetch-time order', () => {
    const d = new Sqlite(merged.out, { readonly: true });
    try {
      const rows = d.prepare('SELECT fetch_seq AS seq, fetched_at AS at FROM pages WHERE fetch_seq IS NOT NULL ORDER BY fetch_seq').all() as { seq: number; at: number }[];
      expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
      for (let i = 1; i < rows.length; i++) expect(rows[i]!.at).toBeGreaterThanOrEqual(rows[i - 1]!.at);
    } finally {
      d.close();
    }
  });

  it("reads as at its page limit when its parts finished or spent their share of it, as a crawl of one process does", () => {
    expect(merged.workers.map((w) => [w.state, w.endKind])).toEqual([['finished', 'finished'], ['finished', 'finished'], ['paused', 'max-pages']]);
    expect([merged.state, merged.endKind]).toEqual(['paused', 'max-pages']);
    const d = new Sqlite(merged.out, { readonly: true });
    try {
      const meta = (key: string) => d.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string;
      expect(meta('state')).toBe('paused');
      expect(JSON.parse(meta('end_reason'))).toMatchObject({ kind: 'max-pages' });
    } finally {
      d.close();
    }
    // A part paused by hand keeps the crawl paused; every part finished, finished; one stopped, stopped.
    const part = (state: string, endKind: string | null) => ({ state, endKind });
    expect(mergedEnd([part('paused', 'max-pages'), part('paused', 'paused')])).toEqual({ state: 'paused', endKind: 'paused' });
    expect(mergedEnd([part('finished', 'finished'), part('finished', 'finished')])).toEqual({ state: 'finished', endKind: 'finished' });
    expect(mergedEnd([part('stopped', 'stopped'), part('paused', 'max-pages')])).toEqual({ state: 'stopped', endKind: 'stopped' });
  });
});
