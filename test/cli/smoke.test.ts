/**
 * The end-to-end smoke test .ci/run also runs on the machine's own Node after the full suite
 * on another: the built `crawlbench` command crawls a small web on loopback, ranks it and
 * exports it, as a user's first session would, through better-sqlite3 built for that Node.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { handWeb } from '../../core/testweb/hand-web.js';
import { crawlbench } from '../helpers/run.js';
import { tmpDir } from '../helpers/tmp.js';
import { serve } from '../helpers/web.js';

describe('smoke: crawl, rank, export', async () => {
  const dir = tmpDir('crawlbench-smoke-');
  const web = handWeb([
    { host: 'a.smoke', pages: [{ path: '/', links: ['/x', 'http://b.smoke/'] }, { path: '/x', links: ['/'] }] },
    { host: 'b.smoke', pages: [{ path: '/', links: ['http://a.smoke/x', '/y'] }, { path: '/y' }] },
  ]);
  const { port } = await serve(web);
  const db = join(dir, 'smoke.db');

  it('crawls the web to its end, ranks its pages and exports them as JSON Lines', async () => {
    const crawl = await crawlbench(['crawl', '--db', db, '--seed', `http://a.smoke:${port}/`, '--resolve', '*.smoke=127.0.0.1', '--w', '0', '--scope', '.smoke', '--quiet', '--json']);
    expect(crawl.stderr).toBe('');
    expect(JSON.parse(crawl.stdout)).toMatchObject({ pagesFetched: 4, sites: 2, stopReason: 'finished' });

    const rank = await crawlbench(['rank', db, '--json']);
    expect(rank.code, rank.stderr).toBe(0);
    expect(JSON.parse(rank.stdout)).toMatchObject({ page: { nodes: 4, edges: 5 } });

    const out = join(dir, 'pages.jsonl');
    const exp = await crawlbench(['export', db, '--format', 'jsonl', '--out', out]);
    expect(exp.code, exp.stderr).toBe(0);
    const pages = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { url: string; pagerank: number | null });
    expect(pages.map((p) => new URL(p.url).pathname + new URL(p.url).hostname).sort()).toEqual(['/a.smoke', '/b.smoke', '/xa.smoke', '/yb.smoke']);
    const total = pages.reduce((s, p) => s + (p.pagerank ?? 0), 0);
    expect(total).toBeCloseTo(1, 6);
  });
});
