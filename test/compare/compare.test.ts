/**
 * `crawlbench compare` on two crawls of a hand-made web and its "months later" revision, each
 * crawled to the end by the real crawler on 127.0.0.1 (the same port, so URLs match). Every
 * figure is checked against values computed here from the two webs' own specification: the
 * sets by plain set operations on URLs, the link changes from the link lists, PageRank by
 * Debian's networkx, tau-b and rho by their textbook O(n^2) formulas in Python.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineApi } from '../../core/api/engine-api.js';
import type { CompareReport } from '../../core/compare/compare.js';
import { handWeb, type HandSite } from '../../core/testweb/hand-web.js';
import { TestWebServer } from '../../core/testweb/server.js';
import { crawlbench, run } from '../helpers/run.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, testSettings } from '../helpers/web.js';
import { PYTHON, itWith } from '../references.js';

const dir = tmpDir();

// Revision 1: three sites. a.test's home links everywhere; /p5 and c.test exist.
const webA: HandSite[] = [
  {
    host: 'a.test',
    pages: [
      { path: '/', title: 'A home', links: ['/p1', '/p2', '/p3', '/p4', '/p5', '/p6', 'http://b.test/', 'http://c.test/'] },
      { path: '/p1', title: 'p1', links: ['/', '/p2'] },
      { path: '/p2', title: 'p2', links: ['/p1', '/p3'] },
      { path: '/p3', title: 'p3', links: ['/p4'] },
      { path: '/p4', title: 'p4', links: ['/', 'http://b.test/q1'] },
      { path: '/p5', title: 'p5', links: ['/p6'] },
      { path: '/p6', title: 'p6', links: ['/'] },
    ],
  },
  { host: 'b.test', pages: [{ path: '/', title: 'B home', links: ['/q1', '/q2', 'http://a.test/'] }, { path: '/q1', title: 'q1', links: ['/q2'] }, { path: '/q2', title: 'q2', links: ['/'] }] },
  { host: 'c.test', pages: [{ path: '/', title: 'C home', links: ['/r1'] }, { path: '/r1', title: 'r1', links: ['http://a.test/p1'] }] },
];

// Revision 2, months later: /p6 and c.test gone, /p5 gone but still linked (404), /p3 retitled,
// /p7 and d.test new, links changed on the home page and on /p2.
const webB: HandSite[] = [
  {
    host: 'a.test',
    pages: [
      { path: '/', title: 'A home', links: ['/p1', '/p2', '/p3', '/p4', '/p5', '/p7', 'http://b.test/', 'http://d.test/'] },
      { path: '/p1', title: 'p1', links: ['/', '/p2'] },
      { path: '/p2', title: 'p2', links: ['/p1', '/p7', 'http://d.test/s1'] },
      { path: '/p3', title: 'p3, revised', links: ['/p4'] },
      { path: '/p4', title: 'p4', links: ['/', 'http://b.test/q1'] },
      { path: '/p7', title: 'p7', links: ['/p1'] },
    ],
  },
  { host: 'b.test', pages: [{ path: '/', title: 'B home', links: ['/q1', '/q2', 'http://a.test/'] }, { path: '/q1', title: 'q1', links: ['/q2'] }, { path: '/q2', title: 'q2', links: ['/'] }] },
  { host: 'd.test', pages: [{ path: '/', title: 'D home', links: ['/s1'] }, { path: '/s1', title: 's1', links: ['http://a.test/'] }] },
];

/** The crawl a web gives, from its specification alone: pages reached from a.test's home (200, or 404 when linked but absent) and links. */
function expectedCrawl(web: HandSite[], port: number) {
  const url = (host: string, path: string) => `http://${host}:${port}${path}`;
  const exists = new Map<string, string[]>();
  const title = new Map<string, string>();
  for (const s of web) for (const p of s.pages) {
    const u = url(s.host, p.path);
    exists.set(u, (p.links ?? []).map((l) => new URL(typeof l === 'string' ? l : l.href, u).href.replace(/^(http:\/\/[^/:]+)\//, `$1:${port}/`)));
    title.set(u, `${p.title}|${JSON.stringify(p.links)}`);
  }
  const known = new Set<string>([url('a.test', '/')]);
  const queue = [url('a.test', '/')];
  const links: Array<[string, string]> = [];
  while (queue.length > 0) {
    const u = queue.shift()!;
    for (const t of new Set(exists.get(u) ?? [])) {
      if (t !== u) links.push([u, t]);
      if (!known.has(t)) {
        known.add(t);
        queue.push(t);
      }
    }
  }
  const fetched = new Set([...known].filter((u) => exists.has(u)));
  return { known, fetched, links, content: title };
}

const python = (code: string) => run(PYTHON, ['-c', code]);

describe('crawlbench compare', () => {
  let port = 0;
  const dbA = join(dir, 'a.db');
  const dbB = join(dir, 'b.db');
  let report: CompareReport;
  let exA: ReturnType<typeof expectedCrawl>;
  let exB: ReturnType<typeof expectedCrawl>;

  beforeAll(async () => {
    // The same port for both revisions: a URL is the same page in both crawls.
    for (const [web, db] of [[webA, dbA], [webB, dbB]] as const) {
      const server = new TestWebServer(handWeb([...web]), { port });
      port = await server.start();
      try {
        await crawl(db, testSettings([`http://a.test:${port}/`], { scope: { suffixes: ['.test'] }, r: 4, c: 10 }));
      } finally {
        await server.stop();
      }
    }
    exA = expectedCrawl(webA, port);
    exB = expectedCrawl(webB, port);
    const out = await crawlbench(['compare', dbA, dbB, '--json', '--quiet']);
    expect(out.code, out.stderr).toBe(0);
    report = JSON.parse(out.stdout) as CompareReport;
  }, 60_000);
  afterAll(() => undefined);

  it('counts the pages and sites in each crawl and in both', () => {
    // Same seeds, same scope, enough overlap: nothing to warn of.
    expect(report.warnings).toEqual([]);
    const both = [...exA.fetched].filter((u) => exB.fetched.has(u));
    expect(report.pages).toMatchObject({ inA: exA.fetched.size, inB: exB.fetched.size, both: both.length, onlyA: exA.fetched.size - both.length, onlyB: exB.fetched.size - both.length });
    expect(report.pages.jaccard).toBeCloseTo(both.length / (exA.fetched.size + exB.fetched.size - both.length), 12);
    const sites = (s: Set<string>) => new Set([...s].map((u) => new URL(u).hostname));
    const [sa, sb] = [sites(exA.fetched), sites(exB.fetched)];
    const sboth = [...sa].filter((h) => sb.has(h)).length;
    expect(report.sites).toMatchObject({ inA: sa.size, inB: sb.size, both: sboth, onlyA: sa.size - sboth, onlyB: sb.size - sboth });
  });

  it('finds the status and content changes of common pages', () => {
    // /p5: fetched in A, a 404 in B; everything else known to both kept its class.
    expect(report.statusChanges.filter((s) => s.from !== s.to)).toEqual([{ from: 'in', to: 'client-error', pages: 1 }]);
    expect(report.statusClasses.find((s) => s.status === 'client-error')).toEqual({ status: 'client-error', a: 0, b: 1 });
    const common = [...exA.fetched].filter((u) => exB.fetched.has(u));
    const changed = common.filter((u) => exA.content.get(u) !== exB.content.get(u));
    expect(changed.map((u) => new URL(u).pathname).sort()).toEqual(['/', '/p2', '/p3']);
    expect(report.common).toMatchObject({ pages: common.length, contentChanged: changed.length });
  });

  it('lists the added, removed and changed pages (all of them here: fewer than --top), highest PageRank first', () => {
    const urls = (kind: 'added' | 'removed' | 'changed') => report.pageLists[kind].map((p) => p.url).sort();
    expect(urls('added')).toEqual([...exB.fetched].filter((u) => !exA.fetched.has(u)).sort());
    expect(urls('removed')).toEqual([...exA.fetched].filter((u) => !exB.fetched.has(u)).sort());
    expect(urls('changed')).toEqual([...exA.fetched].filter((u) => exB.fetched.has(u) && exA.content.get(u) !== exB.content.get(u)).sort());
    expect(report.pageLists.added.length).toBe(report.pages.onlyB);
    expect(report.pageLists.removed.length).toBe(report.pages.onlyA);
    for (const p of report.pageLists.added) expect(p).toMatchObject({ pageRankA: null, pageRankB: expect.any(Number) });
    for (const p of report.pageLists.removed) expect(p).toMatchObject({ pageRankA: expect.any(Number), pageRankB: null });
    const b = report.pageLists.changed.map((p) => p.pageRankB!);
    expect(b).toEqual([...b].sort((x, y) => y - x));
  });

  it('counts new and vanished links among pages fetched in both', () => {
    const common = new Set([...exA.fetched].filter((u) => exB.fetched.has(u)));
    const set = (links: Array<[string, string]>) => new Set(links.filter(([s]) => common.has(s)).map(([s, t]) => `${s} ${t}`));
    const [la, lb] = [set(exA.links), set(exB.links)];
    const kept = [...la].filter((l) => lb.has(l)).length;
    expect(report.links).toMatchObject({ linksA: la.size, linksB: lb.size, kept, added: lb.size - kept, vanished: la.size - kept });
    expect(report.links.newShare).toBeCloseTo((lb.size - kept) / lb.size, 12);
  });

  it('gives per-site growth and changes', () => {
    const host = (u: string) => new URL(u).hostname;
    for (const site of ['a.test', 'b.test', 'c.test', 'd.test']) {
      const inA = [...exA.fetched].filter((u) => host(u) === site);
      const inB = [...exB.fetched].filter((u) => host(u) === site);
      const both = inA.filter((u) => exB.fetched.has(u));
      const changed = both.filter((u) => exA.content.get(u) !== exB.content.get(u));
      const row = report.perSite.find((s) => s.site === site)!;
      expect(row, site).toMatchObject({ pagesA: inA.length, pagesB: inB.length, added: inB.length - both.length, removed: inA.length - both.length, changed: changed.length });
      if (inA.length > 0) expect(row.growth).toBeCloseTo(inB.length / inA.length - 1, 12);
      else expect(row.growth).toBeNull();
    }
    // By hand, for the reader: a.test lost /p5 (now a 404) and /p6, gained /p7; c.test is gone.
    expect(report.perSite.find((s) => s.site === 'a.test')).toMatchObject({ pagesA: 7, pagesB: 6, added: 1, removed: 2, changed: 3 });
    expect(report.perSite.find((s) => s.site === 'c.test')).toMatchObject({ pagesA: 2, pagesB: 0, removed: 2, growth: -1 });
  });

  itWith(['networkx'], 'compares PageRank as networkx computes it: tau-b, rho, top-k overlap, shares, risers', async () => {
    const spec = { a: { nodes: [...exA.known], edges: exA.links }, b: { nodes: [...exB.known], edges: exB.links }, inA: [...exA.fetched], inB: [...exB.fetched] };
    const file = join(dir, 'spec.json');
    writeFileSync(file, JSON.stringify(spec));
    const code = [
      'import json, math, networkx as nx',
      `s = json.load(open(${JSON.stringify(file)}))`,
      'def pr(g):',
      '  G = nx.DiGraph(); G.add_nodes_from(g["nodes"]); G.add_edges_from(g["edges"])',
      '  return nx.pagerank(G, alpha=0.85, tol=1e-13, max_iter=10000), G.number_of_nodes()',
      '(pa, na), (pb, nb) = pr(s["a"]), pr(s["b"])',
      'inA, inB = set(s["inA"]), set(s["inB"])',
      'common = sorted(inA & inB)',
      'x = [pa[u] for u in common]; y = [pb[u] for u in common]; n = len(x)',
      'sgn = lambda v: (v > 0) - (v < 0)',
      'c = sum(sgn(x[i]-x[j]) * sgn(y[i]-y[j]) for i in range(n) for j in range(i+1, n))',
      'tx = sum(1 for i in range(n) for j in range(i+1, n) if x[i] == x[j])',
      'ty = sum(1 for i in range(n) for j in range(i+1, n) if y[i] == y[j])',
      'n0 = n*(n-1)/2',
      'tau = c / math.sqrt((n0 - tx) * (n0 - ty))',
      'def ranks(v):',
      '  return [sum(1 for w in v if w < a) + (sum(1 for w in v if w == a) + 1) / 2 for a in v]',
      'rx, ry = ranks(x), ranks(y); mx, my = sum(rx)/n, sum(ry)/n',
      'rho = sum((a-mx)*(b-my) for a, b in zip(rx, ry)) / math.sqrt(sum((a-mx)**2 for a in rx) * sum((b-my)**2 for b in ry))',
      'share = sum(pb[u] for u in common) / sum(pb[u] for u in inB)',
      'change = {u: math.log2((pb[u]*nb)/(pa[u]*na)) for u in common}',
      'riser = max(common, key=lambda u: change[u]); faller = min(common, key=lambda u: change[u])',
      'print(json.dumps({"tau": tau, "rho": rho, "pages": len(common)/len(inB), "share": share, "riser": riser, "faller": faller, "n": len(common)}))',
    ].join('\n');
    const out = await python(code);
    expect(out.code, out.stderr).toBe(0);
    const want = JSON.parse(out.stdout) as { tau: number; rho: number; pages: number; share: number; riser: string; faller: string; n: number };
    const p = report.pagerank;
    expect(p.sourceA).toBe('computed');
    expect(p.common).toBe(want.n);
    expect(p.kendallTauB).toBeCloseTo(want.tau, 9);
    expect(p.spearmanRho).toBeCloseTo(want.rho, 9);
    expect(p.pagesShareInA).toBeCloseTo(want.pages, 12);
    expect(p.pageRankShareInA).toBeCloseTo(want.share, 6);
    expect(p.risers[0]!.url).toBe(want.riser);
    expect(p.fallers[0]!.url).toBe(want.faller);
    // Fewer fetched pages than k: the top-k of each crawl is all its fetched pages.
    const both = report.pages.both;
    for (const t of p.topK) expect(t.overlap).toBeCloseTo(both / Math.min(t.k, report.pages.inA, report.pages.inB), 12);
    expect(p.curveA[p.curveA.length - 1]!.cumulative).toBeCloseTo(1, 9);
    expect(p.curveB[0]).toMatchObject({ pages: 0, cumulative: 0 });
  });

  it('writes every table as CSV, refuses an existing folder without --force', async () => {
    const out = join(dir, 'tables');
    expect((await crawlbench(['compare', dbA, dbB, '--out', out, '--quiet'])).code).toBe(0);
    expect(readdirSync(out).sort()).toContain('sites.csv');
    const sites = readFileSync(join(out, 'sites.csv'), 'utf8').trim().split('\r\n');
    expect(sites[0]).toBe('site,pagesA,pagesB,growth,added,removed,changed,bytesA,bytesB,errorsA,errorsB,connectMsA,connectMsB,pagesPerConnectionA,pagesPerConnectionB');
    expect(sites.length).toBe(report.perSite.length + 1);
    const again = await crawlbench(['compare', dbA, dbB, '--out', out, '--quiet']);
    expect(again.code).toBe(2);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
    expect(again.stderr).toMatch(/--out: .*exists.*--force/);
    expect((await crawlbench(['compare', dbA, dbB, '--out', out, '--force', '--quiet'])).code).toBe(0);
  });

  it('limits the per-page figures to one host with --host', async () => {
    const out = await crawlbench(['compare', dbA, dbB, '--json', '--quiet', '--host', 'b.test']);
    const r = JSON.parse(out.stdout) as CompareReport;
    expect(r.pages).toMatchObject({ inA: 3, inB: 3, both: 3, onlyA: 0, onlyB: 0 });
    expect(r.perSite.length).toBe(report.perSite.length);
  });

  it('answers the same report through the API, with progress, and can be cancelled', async () => {
    const api = new EngineApi(dir);
    try {
      const steps: string[] = [];
      const off = api.onCompareProgress((e) => e.jobId === 'j1' && steps.push(e.step));
      const r = await api.compareCrawls('a', 'b', { jobId: 'j1' });
      off();
      // The same, the crawls named by their files in the workspace (the CLI's user typed the paths; the workbench's sees no path of the engine's machine).
      expect(JSON.parse(JSON.stringify(r))).toEqual({ ...report, a: { ...report.a, path: 'a.db' }, b: { ...report.b, path: 'b.db' } });
      expect(steps[0]).toBe('reading A');
      expect(steps[steps.length - 1]).toBe('done');
      const cancelled = api.compareCrawls('a', 'b', { jobId: 'j2' });
      await api.cancelCompare('j2');
      await expect(cancelled).rejects.toMatchObject({ code: 'CRAWL_CANCELLED' });
      await expect(api.compareCrawls('a', 'nope')).rejects.toMatchObject({ code: 'CRAWL_DB_MISSING' });
    } finally {
      await api.close();
    }
  });

  it('refuses the same file twice, and a file that is not a crawl, naming it', async () => {
    const same = await crawlbench(['compare', dbA, dbA]);
    expect(same.code).toBe(2);
    expect(same.stderr).toMatch(/the same crawl/);
    const junk = join(dir, 'junk.db');
    writeFileSync(junk, 'not a database at all');
    const bad = await crawlbench(['compare', dbA, junk]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/junk\.db/);
    expect(existsSync(junk)).toBe(true);
  });
});
