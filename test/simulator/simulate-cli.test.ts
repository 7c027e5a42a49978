import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateWeb, seedUrls } from '../../core/testweb/generator.js';
import { exportGraphDir } from '../../core/testweb/graph-files.js';
import { crawlbench } from '../helpers/run.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, serve, testSettings } from '../helpers/web.js';

const dir = tmpDir();
const graph = join(dir, 'graph');
/** Many sites of similar size, so that politeness on one big site does not bound every r. */
const even = join(dir, 'even');

interface Outcome {
  policy: string;
  pagesFetched: number;
  averageCumulativePageRank: number;
  upperBoundAverage: number;
  kendallTau: number;
  simulatedSeconds: number;
  pagesAt: Array<{ share: number; pages: number | null }>;
}

describe('crawlbench simulate', () => {
  beforeAll(async () => {
    await exportGraphDir(generateWeb({ seed: 21, sites: 40, pages: 1500, latency: false }), graph);
    await exportGraphDir(generateWeb({ seed: 21, sites: 60, pages: 1500, maxSitePages: 40, latency: false }), even);
  });

  it('compares policies in one table; the omniscient reference beats the real policies', async () => {
    const res = await crawlbench(['simulate', '--graph', graph, '--policy', 'breadth-first,opic,omniscient', '--r', '4', '--w', '1s', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const report = JSON.parse(res.stdout) as { reachable: number; policies: Outcome[] };
    expect(report.policies.map((p) => p.policy)).toEqual(['breadth-first', 'opic', 'omniscient']);
    const by = Object.fromEntries(report.policies.map((p) => [p.policy, p]));
    for (const p of report.policies) {
      expect(p.pagesFetched).toBe(report.reachable);
      expect(p.averageCumulativePageRank).toBeGreaterThan(0.5);
      expect(p.averageCumulativePageRank).toBeLessThanOrEqual(p.upperBoundAverage + 1e-9);
      expect(p.simulatedSeconds).toBeGreaterThan(0);
      expect(p.pagesAt.map((a) => a.share)).toEqual([0.5, 0.8, 0.95]);
    }
    expect(by.omniscient!.averageCumulativePageRank).toBeGreaterThan(by['breadth-first']!.averageCumulativePageRank);
    expect(by.omniscient!.kendallTau).toBeGreaterThan(by['breadth-first']!.kendallTau);
  }, 60_000);

  it('--policy all runs every policy of the papers with the references, and writes the curves', async () => {
    const csv = join(dir, 'curves.csv');
    const res = await crawlbench(['simulate', '--graph', graph, '--policy', 'all', '--r', '8', '--w', '1s', '--csv', csv]);
    expect(res.code, res.stderr).toBe(0);
    for (const name of ['breadth-first', 'backlink-count', 'batch-pagerank', 'partial-pagerank', 'opic', 'larger-sites-first',
      'historical-pagerank-zero', 'historical-pagerank-random', 'historical-pagerank-parent', 'historical-partial-pagerank', 'historical-pagerank-omniscient',
      'omniscient', 'performance', 'quality', 'crawl-ability']) {
      expect(res.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    }
    expect(res.stdout).not.toMatch(/^ {2}topic /m); // only with --topic
    expect(res.stdout).toContain('history: derived: 55%');
    const lines = readFileSync(csv, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('series,policy,x,y');
    expect(lines.some((l) => l.startsWith('pagerank_by_pages,omniscient,'))).toBe(true);
    expect(lines.some((l) => l.startsWith('open_connections,opic,'))).toBe(true);
  }, 120_000);

  it('several r and bandwidth values: a speed-up table, faster with more connections', async () => {
    const res = await crawlbench(['simulate', '--graph', even, '--policy', 'larger-sites-first', '--r', '1,16', '--bandwidth', '2KB,2MB', '--w', '0', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as { cells: Array<{ r: number; bandwidth: number; speedup: number; simulatedSeconds: number }> };
    expect(out.cells.map((c) => [c.bandwidth, c.r])).toEqual([[2000, 1], [2000, 16], [2e6, 1], [2e6, 16]]);
    const at = (b: number, r: number) => out.cells.find((c) => c.bandwidth === b && c.r === r)!;
    expect(at(2e6, 16).speedup).toBeGreaterThan(1.8);
    // A thin link is saturated by a few connections: more of them hardly help.
    expect(at(2000, 16).speedup).toBeLessThan(1.5);
    expect(at(2000, 1).simulatedSeconds).toBeGreaterThan(at(2e6, 1).simulatedSeconds);
  }, 60_000);

  it('replays a crawl database, with the servers it measured', async () => {
    const web = generateWeb({ seed: 4, sites: 6, pages: 150, latency: { maxMs: 30 } });
    const { port } = await serve(web);
    const db = join(dir, 'crawl.db');
    await crawl(db, testSettings(seedUrls(web, port), { r: 4, maxCrawlDelay: 0 }));
    const res = await crawlbench(['simulate', '--graph', db, '--policy', 'breadth-first', '--json']);
    expect(res.code, res.stderr).toBe(0);
    const report = JSON.parse(res.stdout) as { pages: number; policies: Outcome[] };
    expect(report.pages).toBeGreaterThan(100);
    expect(report.policies[0]!.pagesFetched).toBeGreaterThan(100);
  }, 60_000);

  it('--per-ip on a dataset folder: no addresses recorded, every host its own, the same crawl', async () => {
    const args = ['simulate', '--graph', graph, '--policy', 'breadth-first', '--r', '8', '--w', '1s'];
    const [text, on, off] = await Promise.all([crawlbench([...args, '--per-ip']), crawlbench([...args, '--per-ip', '--json']), crawlbench([...args, '--json'])]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('politeness per IP address as well: 40 sites on 40 addresses');
    const seconds = (r: typeof on) => (JSON.parse(r.stdout) as { policies: Outcome[] }).policies[0]!.simulatedSeconds;
    expect(seconds(on)).toBe(seconds(off));
  }, 60_000);

  it('bad input: one line naming the problem, exit 2', async () => {
    const bad = join(dir, 'no-links');
    mkdirSync(bad);
    writeFileSync(join(bad, 'pages.tsv.gz'), '');
    // Both files there, gzip, and empty: before, every column NaN and exit 0.
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    for (const f of ['pages.tsv.gz', 'links.tsv.gz']) writeFileSync(join(empty, f), gzipSync(''));
    const notDb = join(dir, 'not-a-db.db');
    writeFileSync(notDb, 'hello');
    const cases: Array<[string[], RegExp]> = [
      [['--policy', 'opic'], /--graph: required/],
      [['--graph', join(dir, 'missing')], /--policy: choose at least one policy/],
      [['--graph', join(dir, 'missing'), '--policy', 'opic'], /does not exist \[CRAWL_BAD_GRAPH\]/],
      [['--graph', bad, '--policy', 'opic'], /has no links.tsv.gz .*\[CRAWL_BAD_GRAPH\]/],
      [['--graph', empty, '--policy', 'opic'], /pages.tsv.gz lists no page .*\[CRAWL_BAD_GRAPH\]/],
      [['--graph', notDb, '--policy', 'opic'], /CRAWL_DB_/],
      [['--graph', graph, '--policy', 'fastest'], /--policy: "fastest" is not a policy of the simulator/],
      [['--graph', graph, '--policy', 'opic', '--bandwidth', '0'], /--bandwidth/],
      [['--graph', graph, '--policy', 'opic', '--w', '15'], /--w: "15" needs a unit/],
      [['--graph', graph, '--policy', 'opic,breadth-first', '--r', '1,64'], /exactly one policy/],
      [['--graph', graph, '--policy', 'historical-pagerank-zero', '--history-share', '1.5'], /--history-share/],
      [['--graph', graph, '--policy', 'topic'], /--topic: the topic policy needs a topic word/],
      [['--graph', graph, '--policy', 'opic', '--topic-order', 'backlink-count'], /--topic-order: only the topic policy uses it/],
      [['--graph', graph, '--policy', 'topic', '--topic', 'x', '--topic-order', 'opic'], /--topic-order: must be one of breadth-first, backlink-count, batch-pagerank/],
      [['--graph', graph, '--policy', 'topic', '--topic', 'x', '--topic-radius', '2.5'], /--topic-radius: must be a whole number of links from 0 to 100/],
      [['--graph', graph, '--policy', 'opic', '--measure', 'ir', '--hot-backlinks', '5'], /--hot-backlinks: only the similarity measure's topic rule takes it/],
    ];
    for (const [args, message] of cases) {
      const res = await crawlbench(['simulate', ...args]);
      expect(res.code, `${args.join(' ')}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toMatch(message);
      expect(res.stderr.trim().split('\n')).toHaveLength(1);
    }
  }, 60_000);

  it('a dataset file that inflates past what crawlbench reads (a gzip bomb) is refused in one line, not read into memory without end', async () => {
    // Before: 13 MB of pages.tsv.gz made 3 GB and took the process to 7.7 GB before it failed with a stack trace.
    const bomb = join(dir, 'bomb');
    mkdirSync(bomb, { recursive: true });
    const line = Buffer.from('1\thttp://a.test/' + 'x'.repeat(1000) + '\n');
    const chunk = Buffer.concat(Array.from({ length: 1024 }, () => line)); // about 1 MiB
    await pipeline(Readable.from((function* () {
      for (let i = 0; i < 560; i++) yield chunk; // 560 MiB, past V8's longest string
    })()), createGzip({ level: 1 }), createWriteStream(join(bomb, 'pages.tsv.gz')));
    writeFileSync(join(bomb, 'links.tsv.gz'), gzipSync('1\t1\n'));
    const r = await crawlbench(['simulate', '--graph', bomb, '--policy', 'opic']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^crawlbench simulate: --graph: .*pages\.tsv\.gz decompresses to more than \d+ MiB, past what crawlbench reads of a dataset's pages\.tsv\.gz \[CRAWL_BAD_GRAPH\]\n$/);
    // Short lines under the byte limit: 151 million links of 4 bytes (604 MB; two arrays of them would be 1.2 GB more).
    const many = join(dir, 'many-links');
    mkdirSync(many, { recursive: true });
    writeFileSync(join(many, 'pages.tsv.gz'), gzipSync('0\thttp://a.test/\n1\thttp://a.test/b\n'));
    const links = Buffer.alloc(4 * 1024 * 1024, '0\t1\n');
    await pipeline(Readable.from((function* () {
      for (let i = 0; i < 145; i++) yield links; // 152 million lines
    })()), createGzip({ level: 1 }), createWriteStream(join(many, 'links.tsv.gz')));
    const r2 = await crawlbench(['simulate', '--graph', many, '--policy', 'opic']);
    expect(r2.code, r2.stderr).toBe(2);
    expect(r2.stderr).toMatch(/links\.tsv\.gz holds 152,043,520 lines, past the 150,000,000 crawlbench reads of a dataset's links\.tsv\.gz \[CRAWL_BAD_GRAPH\]/);
  }, 60_000);

  it('the omniscient references are refused by a real crawl', async () => {
    const res = await crawlbench(['crawl', '--db', join(dir, 'o.db'), '--seed', 'http://a.test/', '--policy', 'omniscient']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/omniscient needs the true PageRank .* only in the simulator/);
  });
});
