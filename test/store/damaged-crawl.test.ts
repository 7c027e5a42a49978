/**
 * A crawl file damaged past its header (a bad disk, a copy cut and patched: it opens, then a
 * page of it is malformed) is a corrupt file to every command and to the server, said in one
 * line with CRAWL_DB_CORRUPT (exit 2), never an internal error with a stack trace; a merge of
 * a damaged part leaves no half-merged file; a start of it leaves no lock naming the server.
 */
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readdirSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineApi } from '../../core/api/engine-api.js';
import { generateWeb } from '../../core/testweb/generator.js';
import { seedUrls } from '../../core/testweb/web.js';
import { crawlbench } from '../helpers/run.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, serve, testSettings } from '../helpers/web.js';

const dir = tmpDir('crawlbench-damaged-');

/** `from` copied to `to`, every 64 KiB block after the first 32 KiB half overwritten with junk. */
function damaged(from: string, to: string): string {
  copyFileSync(from, to);
  const fd = openSync(to, 'r+');
  const junk = Buffer.alloc(32 * 1024, 0x5a);
  for (let at = 32 * 1024; at < statSync(to).size; at += 64 * 1024) writeSync(fd, junk, 0, junk.length, at);
  closeSync(fd);
  return to;
}

describe('a crawl file damaged past its header', async () => {
  const web = generateWeb({ seed: 4, sites: 10, pages: 400, latency: { maxMs: 0 } });
  const { port } = await serve(web);
  const good = join(dir, 'good.db');
  let bad = '';

  beforeAll(async () => {
    await crawl(good, testSettings(seedUrls(web, port), { c: 8 }));
    bad = damaged(good, join(dir, 'bad.db'));
  }, 120_000);

  it('every command that reads it says so in one line, exit 2', async () => {
    for (const args of [['rank', bad], ['eval', bad], ['export', bad, '--format', 'jsonl', '--what', 'pages', '--out', join(dir, 'x.jsonl')], ['compare', bad, good]]) {
      const r = await crawlbench(args);
      expect(r.code, `${args[0]}: ${r.stderr}`).toBe(2);
      expect(r.stderr.trim().split('\n'), args[0]).toHaveLength(1);
      expect(r.stderr, args[0]).toMatch(/corrupt.*\[CRAWL_DB_CORRUPT\]$/m);
    }
  }, 60_000);

  it('a merge of a damaged part refuses it in one line and leaves no half-merged file', async () => {
    const parts = join(dir, 'm.parts');
    mkdirSync(parts, { recursive: true });
    copyFileSync(good, join(parts, 'part-0.db'));
    damaged(good, join(parts, 'part-1.db'));
    const r = await crawlbench(['merge', parts, '--out', join(dir, 'm.db')]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/part-1\.db.*\[CRAWL_DB_CORRUPT\]/);
    expect(readdirSync(dir).filter((f) => f.startsWith('m.db'))).toEqual([]);
  }, 60_000);

  it('the server answers CRAWL_DB_CORRUPT for its reads, and a start of it leaves no lock behind', async () => {
    const ws = join(dir, 'ws');
    mkdirSync(ws, { recursive: true });
    damaged(good, join(ws, 'bad.db'));
    const api = new EngineApi(ws);
    afterAll(() => api.close());
    await expect(api.runPageRank('bad')).rejects.toMatchObject({ code: 'CRAWL_DB_CORRUPT' });
    // Read on the read worker and by the comparison's job: before, CRAWL_INTERNAL (found by a probe).
    await expect(api.listSites('bad', { limit: 50 })).rejects.toMatchObject({ code: 'CRAWL_DB_CORRUPT' });
    await expect(api.searchPages('bad', { limit: 50 })).rejects.toMatchObject({ code: 'CRAWL_DB_CORRUPT' });
    await expect(api.start('bad')).rejects.toMatchObject({ code: expect.stringMatching(/^CRAWL_DB_/) });
    expect(existsSync(join(ws, 'bad.db.lock'))).toBe(false);
  }, 60_000);
});
