/**
 * A page's depth is the fewest links from a seed found so far, whatever order its paths are
 * found in (engine/discovery.ts, shorterPath). Found first along a long path and fetched, a page
 * found later by a shorter one has its depth lowered, and the links its old depth had left past
 * a depth limit are fetched after all. Without this a parallel crawl, whose workers learn of
 * each other's links late, lost a dynamic page a single process fetched (issue 25: the
 * nats-server SIGKILL test's 587 of 588 pages, item?id=108 skipped at depth 6 past
 * maxDynamicDepth 5).
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Crawler } from '../../core/engine/crawler.js';
import { discover } from '../../core/engine/discovery.js';
import { ErrorCodes } from '../../core/errors.js';
import Sqlite from '../../core/store/sqlite.js';
import { generateWeb } from '../../core/testweb/generator.js';
import { seedUrls } from '../../core/testweb/web.js';
import { tmpDir } from '../helpers/tmp.js';
import { serve, testSettings } from '../helpers/web.js';

const dir = tmpDir('crawlbench-shorter-path-');

interface Row {
  id: number;
  url: string;
  depth: number;
  status: string;
  error_code: string | null;
}

function rows(db: string, sql: string, ...args: unknown[]): Row[] {
  const d = new Sqlite(db, { readonly: true });
  try {
    return d.prepare(sql).all(...args) as Row[];
  } finally {
    d.close();
  }
}

async function run(crawler: Crawler): Promise<void> {
  try {
    await crawler.run();
  } finally {
    crawler.close();
  }
}

/** Pages stored deeper than one followed link past a fetched page linking to them (a redirect: no deeper). */
function deeperThanItsLinks(db: string): Row[] {
  return rows(db, `SELECT d.* FROM links l JOIN pages s ON s.id = l.src JOIN pages d ON d.id = l.dst
    WHERE s.fetch_seq IS NOT NULL AND l.nofollow = 0 AND d.depth > s.depth + (CASE WHEN l.kind = 'redirect' THEN 0 ELSE 1 END)`);
}

describe('a page found by a shorter path after it was fetched', async () => {
  const web = generateWeb({ seed: 9, sites: 4, pages: 120 });
  const { port } = await serve(web);
  const [home] = seedUrls(web, port);
  const db = join(dir, 'limited.db');
  let before: Row[] = [];
  let page: Row;

  beforeAll(async () => {
    // One seed, maxDepth 2: pages three links from it are stored skipped (a depth trap).
    await run(Crawler.create(db, { ...testSettings([home!]), maxDepth: 2 }));
    before = rows(db, 'SELECT * FROM pages');
    // A page fetched at depth 2 that links to pages the limit skipped.
    page = rows(db, `SELECT s.* FROM pages s JOIN links l ON l.src = s.id JOIN pages d ON d.id = l.dst
      WHERE s.depth = 2 AND s.fetch_seq IS NOT NULL AND d.error_code = ? ORDER BY s.id LIMIT 1`, ErrorCodes.TRAP_DEPTH)[0]!;
    // Found again one link from a seed (as a parallel crawl's message brings a URL found late).
    const crawler = Crawler.open(db);
    crawler.ctx.store.begin();
    discover(crawler.ctx, { url: page.url, depth: 1, parentId: null, redirects: 0, anchor: null, nofollow: false });
    crawler.ctx.store.commit();
    await run(crawler);
  }, 60_000);

  it('lowers its depth and fetches the links its old depth left past the limit, at their lower depth', () => {
    expect(page).toBeDefined();
    expect(rows(db, 'SELECT * FROM pages WHERE id = ?', page.id)[0]!.depth).toBe(1);
    const targets = rows(db, `SELECT d.* FROM links l JOIN pages d ON d.id = l.dst WHERE l.src = ?`, page.id);
    const lifted = targets.filter((t) => before.find((b) => b.id === t.id)?.error_code === ErrorCodes.TRAP_DEPTH);
    expect(lifted.length).toBeGreaterThan(0);
    for (const t of lifted) expect([t.status, t.depth]).toEqual(['fetched', 2]);
    // And on down: no page stored deeper than one link past a fetched page linking to it.
    expect(deeperThanItsLinks(db)).toEqual([]);
  });
});

describe('a crawl of the whole web', async () => {
  const web = generateWeb({ seed: 25, sites: 24, pages: 600, latency: { maxMs: 5 } });
  const { port } = await serve(web);

  it('stores every page at most one followed link deeper than any fetched page linking to it', async () => {
    const db = join(dir, 'whole.db');
    await run(Crawler.create(db, { ...testSettings(seedUrls(web, port)), r: 8 }));
    expect(rows(db, 'SELECT * FROM pages WHERE fetch_seq IS NOT NULL').length).toBeGreaterThan(500);
    expect(deeperThanItsLinks(db)).toEqual([]);
  }, 60_000);
});
