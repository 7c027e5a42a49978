/**
 * `crawlbench crawl` refuses a w below 1 s for a crawl that reaches hosts outside this machine
 * unless --allow-short-w confirms it, and names out-of-range numbers by their flag. The
 * refused crawls are refused before any request; the confirmed one crawls a web on 127.0.0.1.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { handWeb } from '../../core/testweb/hand-web.js';
import { crawlbench } from '../helpers/run.js';
import { tmpDir } from '../helpers/tmp.js';
import { serve } from '../helpers/web.js';

const dir = tmpDir();

async function expectBadInput(args: string[], mention: RegExp): Promise<string> {
  const r = await crawlbench(args);
  expect(r.code, r.stderr).toBe(2);
  const lines = r.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(mention);
  return lines[0]!;
}

describe('crawlbench crawl: politeness cannot be switched off by accident', async () => {
  const { port } = await serve(handWeb([{ host: 'a.example', pages: [{ path: '/', title: 'home', links: ['/x', 'http://b.example/'] }, { path: '/x', title: 'x', links: [] }] }]));

  it('refuses a short w for a host outside this machine, naming --allow-short-w, and writes nothing', async () => {
    const db = join(dir, 'outside.db');
    await expectBadInput(['crawl', '--db', db, '--seed', 'http://10.255.255.1/', '--w', '50ms'], /--w: 50 ms .*10\.255\.255\.1.*--allow-short-w/);
    await expectBadInput(['crawl', '--db', db, '--seed', 'http://10.255.255.1/', '--w', '0'], /--allow-short-w.*CRAWL_SHORT_W_UNCONFIRMED/);
    // The seed is at home, but the scope reaches every host under .example.
    const seed = ['--seed', `http://a.example:${port}/`, '--resolve', 'a.example=127.0.0.1', '--scope', '.example'];
    await expectBadInput(['crawl', '--db', db, ...seed, '--w', '0'], /\*\.example.*--allow-short-w/);
    expect(existsSync(db)).toBe(false);
  });

  it('crawls with --allow-short-w (here only the host at home, by --max-pages)', async () => {
    const db = join(dir, 'confirmed.db');
    const seed = ['--seed', `http://a.example:${port}/`, '--resolve', 'a.example=127.0.0.1', '--scope', '.example'];
    const r = await crawlbench(['crawl', '--db', db, ...seed, '--w', '0', '--allow-short-w', '--max-pages', '1', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ pagesFetched: 1 });
  });

  it('names out-of-range numbers by their flag, in words', async () => {
    const db = join(dir, 'bounds.db');
    const seed = ['--seed', `http://127.0.0.1:${port}/`];
    await expectBadInput(['crawl', '--db', db, ...seed, '--w', `${1e12}s`], /^crawlbench crawl: --w: must be a duration from 0 ms to 1 hour/);
    await expectBadInput(['crawl', '--db', db, ...seed, '--r', '1000000000'], /--r: must be a whole number from 1 to 10,000/);
    await expectBadInput(['crawl', '--db', db, ...seed, '--max-depth', '99999999999'], /--max-depth: must be a whole number from 0 to 1,000/);
    await expectBadInput(['crawl', '--db', db, ...seed, '--max-site-pages', '99999999999'], /--max-site-pages: must be/);
    expect(existsSync(db)).toBe(false);
  });
});
