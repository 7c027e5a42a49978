import Sqlite from '../../core/store/sqlite.js';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateSettings } from '../../core/config/settings.js';
import { ErrorCodes } from '../../core/errors.js';
import { loadCrawlGraph, pageRankByUrl } from '../../core/ranking/crawl-graph.js';
import { csrFromEdges } from '../../core/ranking/csr.js';
import { pagerank } from '../../core/ranking/pagerank.js';
import { rankCrawl } from '../../core/ranking/rank-crawl.js';
import { loadSiteGraph } from '../../core/ranking/site-graph.js';
import { CrawlReader } from '../../core/store/crawl-reader.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { sql as schema1 } from '../../core/store/migrations/001-initial.js';
import { SCHEMA_VERSION } from '../../core/store/migrations/index.js';
import { tmpDir } from '../helpers/tmp.js';
import { fetched, makeCrawl, rng } from './fixtures.js';

const dir = tmpDir('crawlbench-crawl-graph-');

/** Out-links of every node as sorted lists, to compare graphs. */
function adjacency(g: { n: number; offsets: Uint32Array; targets: Uint32Array }): number[][] {
  return Array.from({ length: g.n }, (_, v) => [...g.targets.subarray(g.offsets[v]!, g.offsets[v + 1]!)].sort((a, b) => a - b));
}

describe('loadCrawlGraph', () => {
  it('makes every page a node and every link an edge, minus self-links; nofollow kept; fetchedOnly', () => {
    const path = join(dir, 'small.db');
    // Pages 0..4; 3 and 4 are known but never fetched.
    makeCrawl(path, {
      urls: ['http://a.test/', 'http://a.test/x', 'http://b.test/', 'http://b.test/y', 'http://c.test/'],
      links: [[0, 1], [0, 2], [1, 1], [1, 0], [2, 3], [2, 4], [0, 4]],
      fetchOrder: [0, 1, 2],
    });
    const store = CrawlStore.open(path);
    store.insertLinks(1, [{ dst: 3, anchor: 'nofollow', nofollow: true, kind: 'a' }]); // page ids are index + 1
    store.insertLinks(1, [{ dst: 3, anchor: 'again', nofollow: false, kind: 'a' }]); // a duplicate (src, dst): ignored by the table
    const cg = loadCrawlGraph(store.db);
    expect([...cg.pageIds]).toEqual([1, 2, 3, 4, 5]);
    expect(adjacency(cg.graph)).toEqual([[1, 2, 4], [0], [3, 4], [], []]);
    expect(cg.nodeOf.get(3)).toBe(2);
    const f = loadCrawlGraph(store.db, { fetchedOnly: true });
    expect([...f.pageIds]).toEqual([1, 2, 3]);
    expect(adjacency(f.graph)).toEqual([[1, 2], [0], []]);
    store.close();
  });

  it('reads sparse and very large page ids across many ranges, matching a direct build', () => {
    const path = join(dir, 'sparse.db');
    CrawlStore.create(path, validateSettings({ seeds: ['http://a.test/'] })).close();
    const db = new Sqlite(path);
    db.prepare("INSERT INTO sites(id, host) VALUES (1, 'a.test')").run();
    const random = rng(5);
    // Ids with gaps of 2^28 (past the direct lookup table, so the Map path) yet below 2^31.
    const ids: number[] = [];
    let id = 1;
    for (let i = 0; i < 3000; i++) {
      ids.push(id);
      id += i % 500 === 499 ? 2 ** 28 : 1 + Math.floor(random() * 200_000);
    }
    const insertPage = db.prepare("INSERT INTO pages(id, url, site_id, depth) VALUES (?, ?, 1, 0)");
    // Pages never fetched: their links are stored under minus their id (schema 12).
    const insertLink = db.prepare('INSERT OR IGNORE INTO links(seq, dst, src) VALUES (-@src, @dst, @src)');
    const src: number[] = [];
    const dst: number[] = [];
    const seen = new Set<string>();
    db.transaction(() => {
      ids.forEach((pid, i) => insertPage.run(pid, `http://a.test/${i}`));
      for (let k = 0; k < 20_000; k++) {
        const a = Math.floor(random() * ids.length);
        const b = Math.floor(random() ** 2 * ids.length);
        insertLink.run({ src: ids[a], dst: ids[b] });
        if (a !== b && !seen.has(`${a} ${b}`)) (seen.add(`${a} ${b}`), src.push(a), dst.push(b));
      }
      insertLink.run({ src: ids[0], dst: 99 }); // a link to an id that is no page: dropped
    })();
    const cg = loadCrawlGraph(db);
    expect([...cg.pageIds]).toEqual(ids);
    expect(adjacency(cg.graph)).toEqual(adjacency(csrFromEdges(ids.length, src, dst)));
    db.prepare("INSERT INTO pages(id, url, site_id, depth) VALUES (?, 'http://a.test/huge', 1, 0)").run(2 ** 31);
    expect(() => loadCrawlGraph(db)).toThrow(/2\^31/);
    db.close();
  });
});

describe('reading links on threads', () => {
  it('gives the same graph on three threads as on one, really read by three', () => {
    const path = join(dir, 'threads.db');
    const random = rng(9);
    const urls = Array.from({ length: 3000 }, (_, i) => `http://s${i % 7}.test/${i}`);
    const links: Array<[number, number]> = [];
    for (let k = 0; k < 30_000; k++) links.push([Math.floor(random() * 3000), Math.floor(random() ** 2 * 3000)]);
    makeCrawl(path, { urls, links, fetchOrder: [0, 1, 2] });
    const db = new Sqlite(path, { readonly: true });
    const one = loadCrawlGraph(db, { threads: 1 });
    const three = loadCrawlGraph(db, { threads: 3 });
    expect(three.graph.targets.length).toBeGreaterThan(20_000);
    expect(adjacency(three.graph)).toEqual(adjacency(one.graph));
    expect([...three.graph.offsets]).toEqual([...one.graph.offsets]);

    const n = one.pageIds.length;
    const table = new Int32Array(new SharedArrayBuffer(4 * (n + 1))).fill(-1);
    one.pageIds.forEach((id, v) => (table[id] = v));
    const outdeg = new Uint32Array(n);
    const read = CrawlReader.over(db).readLinkTargets(one.pageIds, table, outdeg, 3);
    expect(read.threads).toBe(3); // really read by three workers, not the fallback
    expect([...read.targets]).toEqual([...one.graph.targets]);
    expect([...outdeg]).toEqual([...one.graph.offsets].slice(1).map((o, v) => o - one.graph.offsets[v]!));
    db.close();
  });
});

describe('site graph', () => {
  it('weighs an edge between two sites by the number of links between their pages', () => {
    const path = join(dir, 'sites.db');
    makeCrawl(path, {
      urls: ['http://a.test/', 'http://a.test/1', 'http://b.test/', 'http://b.test/1', 'http://c.test/'],
      links: [[0, 1], [0, 2], [1, 2], [1, 3], [2, 0], [3, 4], [2, 3]],
      fetchOrder: [0, 1, 2, 3, 4],
    });
    const store = CrawlStore.open(path, { readonly: true });
    const sg = loadSiteGraph(store.db);
    store.close();
    expect([...sg.siteIds]).toEqual([1, 2, 3]);
    const edges = adjacency(sg.graph).flatMap((ts, s) =>
      ts.map((t) => [s, t, sg.graph.weights[sg.graph.offsets[s]! + [...sg.graph.targets.subarray(sg.graph.offsets[s]!, sg.graph.offsets[s + 1]!)].indexOf(t)]]),
    );
    expect(edges).toEqual([[0, 1, 3], [1, 0, 1], [1, 2, 1]]); // a->b three links, b->a one, b->c one
  });
});

describe('stored PageRank runs', () => {
  it('rank stores a run; pageRankByUrl reuses the fresh run and recomputes a stale one', () => {
    const path = join(dir, 'runs.db');
    makeCrawl(path, {
      urls: ['http://a.test/', 'http://a.test/1', 'http://b.test/'],
      links: [[0, 1], [1, 2], [2, 0], [0, 2]],
      fetchOrder: [0, 1, 2],
      t0: 1000, // fetched long before any run is created
    });
    const computed = pageRankByUrl(path);
    const expected = pagerank(csrFromEdges(3, [0, 1, 2, 0], [1, 2, 0, 2])).ranks;
    expect(computed.get('http://a.test/1')).toBeCloseTo(expected[1]!, 12);

    let store = CrawlStore.open(path);
    const result = rankCrawl(store.db, { site: true });
    expect(result.page.nodes).toBe(3);
    expect(result.page.edges).toBe(4);
    expect(result.site!.nodes).toBe(2);
    expect(result.page.top[0]!.value).toBeCloseTo(Math.max(...expected), 12);
    expect(store.db.prepare('SELECT count(*) FROM pagerank WHERE run_id = ?').pluck().get(result.page.runId)).toBe(3);
    expect(store.db.prepare('SELECT count(*) FROM site_pagerank WHERE run_id = ?').pluck().get(result.site!.runId)).toBe(2);
    // Mark the stored values so that reading them back is visible.
    store.db.prepare('UPDATE pagerank SET value = 0.5 WHERE page_id = 2').run();
    store.close();
    expect(pageRankByUrl(path).get('http://a.test/1')).toBe(0.5);
    expect(pageRankByUrl(path, { damping: 0.5 }).get('http://a.test/1')).not.toBe(0.5); // no run at 0.5

    // A page fetched after the run makes it stale.
    store = CrawlStore.open(path);
    const id = store.insertPage({ url: 'http://b.test/new', siteId: 2, depth: 1, parentId: 3, redirects: 0, status: 'queued' });
    store.recordFetch(id, fetched(Date.now() + 60_000));
    store.commit();
    expect(CrawlReader.over(store.db).latestRun('page')).toBeDefined();
    expect(CrawlReader.over(store.db).latestFreshRun('page')).toBeUndefined();
    store.close();
    expect(pageRankByUrl(path).get('http://a.test/1')).not.toBe(0.5);
  });

  it('the migrations upgrade a schema-1 crawl when it is opened for writing', () => {
    const path = join(dir, 'v1.db');
    const db = new Sqlite(path);
    db.exec(schema1);
    db.pragma('user_version = 1');
    db.pragma(`application_id = ${0x43424e43}`); // "CBNC", as database.ts marks crawls
    db.prepare("INSERT INTO meta(key, value) VALUES ('settings', ?)").run(JSON.stringify(validateSettings({ seeds: ['http://a.test/'] })));
    db.close();
    expect(() => pageRankByUrl(path)).toThrow(expect.objectContaining({ code: ErrorCodes.DB_NOT_A_CRAWL }));
    const store = CrawlStore.open(path);
    expect(store.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(store.db.prepare("SELECT count(*) FROM sqlite_master WHERE name IN ('pagerank_runs', 'pagerank', 'site_pagerank')").pluck().get()).toBe(3);
    store.close();
    expect(pageRankByUrl(path).size).toBe(0);
  });

  it('pageRankByUrl refuses files that are not crawls with the store codes', () => {
    expect(() => pageRankByUrl(join(dir, 'missing.db'))).toThrow(expect.objectContaining({ code: ErrorCodes.DB_MISSING }));
    const other = join(dir, 'other.db');
    const db = new Sqlite(other);
    db.exec('CREATE TABLE t (x)');
    db.close();
    expect(() => pageRankByUrl(other)).toThrow(expect.objectContaining({ code: ErrorCodes.DB_NOT_A_CRAWL }));
  });
});
