/**
 * What an export does with bad input and bad luck: an existing output, an unknown format, a
 * crawl without content asked for a WARC, a cancel mid-way, a running crawl, a full disk.
 * Each leaves no file that looks whole.
 */
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExportOptions } from '../../core/export/options.js';
import { runExport } from '../../core/export/run-export.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { crawlbench } from '../helpers/run.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, testSettings } from '../helpers/web.js';
import { ExportWeb } from './export-web.js';

describe('export safety', () => {
  const web = new ExportWeb();
  const dir = tmpDir('crawlbench-export-safety-');
  const plain = join(dir, 'plain.db');
  const withContent = join(dir, 'content.db');

  beforeAll(async () => {
    const port = await web.start();
    await crawl(plain, testSettings([`http://a.test:${port}/`], { maxAttempts: 1 }));
    await crawl(withContent, testSettings([`http://a.test:${port}/`], { maxAttempts: 1, storeContent: true }));
  }, 60_000);
  afterAll(() => web.stop());

  it('refuses a WARC of a crawl without content, saying why and what to do; other formats work', async () => {
    const out = join(dir, 'no-warc');
    const r = await crawlbench(['export', plain, '--format', 'warc', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/stored no content .*--store-content.*\[CRAWL_EXPORT_NO_CONTENT\]/);
    expect(existsSync(out)).toBe(false);
    const ok = await crawlbench(['export', plain, '--format', 'csv', '--out', join(dir, 'plain.csv')]);
    expect(ok.code).toBe(0);
  });

  it('names the valid formats and tables for a wrong one (exit 2, one line)', async () => {
    const f = await crawlbench(['export', plain, '--format', 'zip', '--out', join(dir, 'x')]);
    expect(f.code).toBe(2);
    expect(f.stderr).toMatch(/^crawlbench export: --format: "zip" is not a format .*warc, jsonl, csv, parquet \[CRAWL_BAD_OPTION\]\n$/);
    const w = await crawlbench(['export', plain, '--format', 'csv', '--what', 'nodes', '--out', join(dir, 'x')]);
    expect(w.code).toBe(2);
    expect(w.stderr).toMatch(/--what: "nodes" is not a table .*pages, sites, links/);
    const s = await crawlbench(['export', plain, '--format', 'csv', '--status', 'ok', '--out', join(dir, 'x')]);
    expect(s.stderr).toMatch(/--status: "ok" is not an HTTP status/);
  });

  it('refuses an existing output unless --force', async () => {
    const out = join(dir, 'exists.jsonl');
    writeFileSync(out, 'mine\n');
    const r = await crawlbench(['export', plain, '--format', 'jsonl', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/already exists \(use --force to replace it\) \[CRAWL_OUTPUT_EXISTS\]/);
    expect(readFileSync(out, 'utf8')).toBe('mine\n');
    const forced = await crawlbench(['export', plain, '--format', 'jsonl', '--out', out, '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^\{"url":/);
    const warcDir = join(dir, 'warc-twice');
    expect((await crawlbench(['export', withContent, '--format', 'warc', '--out', warcDir])).code).toBe(0);
    const again = await crawlbench(['export', withContent, '--format', 'warc', '--out', warcDir]);
    expect(again.code).toBe(2);
    expect((await crawlbench(['export', withContent, '--format', 'warc', '--out', warcDir, '--force'])).code).toBe(0);
    expect(readdirSync(warcDir)).toHaveLength(1);
  });

  it('two exports to one file at once (two jobs of the server, or a save dialog answered twice) each write their own temporary file: both end, the file is whole', async () => {
    const single = join(dir, 'single.csv');
    await runExport(plain, parseExportOptions({ format: 'csv', what: 'pages', out: single }));
    const twiceDir = join(dir, 'twice');
    mkdirSync(twiceDir);
    const out = join(twiceDir, 'pages.csv');
    const options = parseExportOptions({ format: 'csv', what: 'pages', out, force: true });
    // Interleaved at every chunk, as two worker threads of one process are: the same pid, and before, the same temporary name.
    const both = await Promise.allSettled([runExport(plain, options), runExport(plain, options)]);
    expect(both.map((r) => (r.status === 'fulfilled' ? r.value.rows : String(r.reason)))).toEqual([expect.any(Number), expect.any(Number)]);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(single, 'utf8'));
    expect(readdirSync(twiceDir)).toEqual(['pages.csv']);
  });

  it('a cancelled export leaves no file behind', async () => {
    for (const format of ['warc', 'parquet'] as const) {
      const out = join(dir, `cancelled-${format}`, format === 'warc' ? 'warc' : 'pages.parquet');
      let ticks = 0;
      const err = await runExport(withContent, parseExportOptions({ format, out, throttleMs: 1 }), {
        progressEveryMs: 0,
        onProgress: () => void ticks++,
        cancelled: () => ticks >= 1,
      }).catch((e: { code: string }) => e);
      expect(err).toMatchObject({ code: 'CRAWL_CANCELLED' });
      expect(existsSync(join(dir, `cancelled-${format}`))).toBe(false);
    }
  });

  it('reads a running crawl as of one moment, and says so', async () => {
    const store = CrawlStore.open(withContent);
    store.setState('running');
    let added = false;
    const out = join(dir, 'running.jsonl');
    const summary = await runExport(withContent, parseExportOptions({ format: 'jsonl', out, throttleMs: 1 }), {
      progressEveryMs: 0,
      onProgress: () => {
        if (added) return;
        added = true;
        // A fetch stored while the export runs: after its snapshot.
        store.begin();
        const site = store.insertSite('late.test');
        const id = store.insertPage({ url: 'http://late.test/', siteId: site, depth: 0, parentId: null, redirects: 0, status: 'queued' });
        store.recordFetch(id, { status: 'fetched', httpStatus: 200, contentType: 'text/html', bytes: 1, contentHash: null, duplicateOf: null, title: null, noindex: false, errorCode: null, attempts: 1, fetchedAt: Date.now(), responseMs: 1 });
        store.commit();
      },
    });
    store.setState('finished');
    store.close();
    expect(added).toBe(true);
    expect(summary.warnings).toContainEqual(expect.stringMatching(/the crawl is running: exported as of one moment/));
    expect(readFileSync(out, 'utf8')).not.toContain('late.test');
  });

  it("says in its notes what a crawl stored before schema 5 lacks", async () => {
    const old = join(dir, 'old.db');
    await crawl(old, testSettings([`http://a.test:${web.port}/`], { maxAttempts: 1, storeContent: true }));
    // As schema 4 stored it: headers rebuilt, no robots.txt answers kept.
    const store = CrawlStore.open(old);
    store.db.exec('UPDATE content SET raw = 0; DELETE FROM robots_content;');
    store.close();
    const summary = await runExport(old, parseExportOptions({ format: 'warc', out: join(dir, 'old-warc') }));
    expect(summary.warnings).toEqual(expect.arrayContaining([
      expect.stringMatching(/response\(s\) were stored by a crawlbench older than schema 5: their status line has no reason phrase/),
      expect.stringMatching(/robots\.txt answers were not kept by this crawl/),
      expect.stringMatching(/final 5xx and 429 answers .* were not kept before schema 5/),
    ]));
  });

  const canMount = process.getuid?.() === 0 && (() => {
    try {
      const probe = join(dir, 'probe');
      mkdirSync(probe);
      execSync(`mount -t tmpfs -o size=4k tmpfs ${probe} && umount ${probe}`, { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  it.skipIf(!canMount)('a full disk gives a clear error and removes the temporary files (a 4 KiB tmpfs)', async () => {
    const small = join(dir, 'small');
    mkdirSync(small);
    execSync(`mount -t tmpfs -o size=4k tmpfs ${small}`);
    try {
      const r = await crawlbench(['export', withContent, '--format', 'warc', '--out', join(small, 'warc')]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^crawlbench export: the disk is full \(writing .*\): the partial export was removed; free some space and export again \[CRAWL_DISK_FULL\]\n$/);
      expect(readdirSync(small)).toEqual([]);
    } finally {
      execSync(`umount ${small}`);
    }
  });
});
