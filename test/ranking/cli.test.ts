import Sqlite from '../../core/store/sqlite.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../core/errors.js';
import { tmpDir } from '../helpers/tmp.js';
import { makeCrawl } from './fixtures.js';
import { crawlbench } from '../helpers/run.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = tmpDir('crawlbench-rank-cli-');
const crawl = join(dir, 'crawl.db');
const notCrawl = join(dir, 'other.db');
const textFile = join(dir, 'notes.db');

const cli = (...args: string[]) => crawlbench(args, { cwd: dir });

beforeAll(() => {
  if (!existsSync(join(root, 'dist', 'core', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  makeCrawl(crawl, {
    urls: ['http://a.test/', 'http://a.test/1', 'http://a.test/2', 'http://b.test/', 'http://b.test/1'],
    links: [[0, 1], [0, 2], [1, 0], [2, 0], [3, 0], [0, 3], [4, 3], [3, 4], [1, 2]],
    fetchOrder: [0, 3, 1, 2, 4],
  });
  const db = new Sqlite(notCrawl);
  db.exec('CREATE TABLE something (x)');
  db.close();
  writeFileSync(textFile, 'just some text, not a database\n'.repeat(20));
});

describe('crawlbench rank', () => {
  it('ranks pages (and sites) and stores the run', async () => {
    const r = await cli('rank', crawl, '--site');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/iterations/);
    expect(r.stdout).toMatch(/http:\/\/a\.test\//);
    expect(r.stdout).toMatch(/PageRank of sites/);
    const j = await cli('rank', crawl, '--json', '--damping', '0.9', '--tolerance', '1e-12');
    expect(j.code).toBe(0);
    const out = JSON.parse(j.stdout);
    expect(out.page.damping).toBe(0.9);
    expect(out.page.nodes).toBe(5);
    expect(out.page.top[0].name).toBe('http://a.test/');
    expect(out.site).toBeUndefined();
  });

  it('rejects bad options and files that are not crawls with exit 2', async () => {
    // Independent runs, started together: each is a whole node process.
    const badOptions = await Promise.all(
      [
        [['--damping', '1.5'], '--damping'],
        [['--damping=-0.1'], '--damping'], // the = form: parseArgs takes "-0.1" alone for a flag
        [['--tolerance', '0'], '--tolerance'],
        [['--tolerance', 'abc'], '--tolerance'],
      ].map(async ([args, needle]) => ({ r: await cli('rank', crawl, ...(args as string[])), needle: needle as string })),
    );
    for (const { r, needle } of badOptions) {
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(needle);
      expect(r.stderr).toContain(ErrorCodes.BAD_OPTION);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    const [none, other, missing, text] = await Promise.all([
      cli('rank'),
      cli('rank', notCrawl),
      cli('rank', join(dir, 'missing.db')),
      cli('rank', textFile),
    ]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(ErrorCodes.BAD_OPTION);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(ErrorCodes.DB_NOT_A_CRAWL);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(ErrorCodes.DB_MISSING);
    expect(existsSync(join(dir, 'missing.db'))).toBe(false);
    expect(text.code).toBe(2);
    expect(text.stderr).toContain(ErrorCodes.DB_CORRUPT);
  });
});

describe('crawlbench eval', () => {
  it('prints the table, one JSON object, and the curves as CSV', async () => {
    const r = await cli('eval', crawl);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/average cumulative PageRank\s+0\.\d{3}/);
    expect(r.stdout).toMatch(/Kendall's tau-b/);
    const csv = join(dir, 'curve.csv');
    const j = await cli('eval', crawl, '--json', '--csv', csv, '--points', '3', '--oracle', crawl, '--threshold', '0.1');
    expect(j.code).toBe(0);
    const ev = JSON.parse(j.stdout);
    expect(ev.truth).toBe('oracle');
    expect(ev.pagesFetched).toBe(5);
    expect(ev.threshold.g).toBe(0.1);
    const lines = readFileSync(csv, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('fraction_pages,cumulative_pagerank,seconds,random,upper_bound');
    expect(lines).toHaveLength(4);
    expect(lines[3]!.split(',').map(Number)[0]).toBe(1);
  });

  it('exits 2 on a database that is not a crawl, a bad oracle, or a bad threshold', async () => {
    const [other, oracle, oracleMissing, points, ...thresholds] = await Promise.all([
      cli('eval', notCrawl),
      cli('eval', crawl, '--oracle', notCrawl),
      cli('eval', crawl, '--oracle', join(dir, 'nope.db')),
      cli('eval', crawl, '--points', '1'),
      ...['abc', '-1', ''].map((bad) => cli('eval', crawl, `--threshold=${bad}`)),
    ]);
    expect(other!.code).toBe(2);
    expect(other!.stderr).toContain(ErrorCodes.DB_NOT_A_CRAWL);
    expect(oracle!.code).toBe(2);
    expect(oracle!.stderr).toContain(ErrorCodes.DB_NOT_A_CRAWL);
    expect(oracleMissing!.code).toBe(2);
    expect(oracleMissing!.stderr).toContain(ErrorCodes.DB_MISSING);
    expect(points!.code).toBe(2);
    expect(points!.stderr).toContain('--points');
    for (const t of thresholds) {
      expect(t.code).toBe(2);
      expect(t.stderr).toContain('--threshold');
    }
  });
});
