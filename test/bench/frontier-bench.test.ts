/**
 * bench/frontier (issue 28) measures the store's writes on the crawl thread or on a writer
 * thread (--writer): its figures compare the two only if both leave the same crawl behind.
 * The bench's synthetic web and virtual clock are deterministic, so a small run each way must
 * give the same pages (URL, site, depth, status, fetch order), links, frontier and site
 * counters, row for row.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import Sqlite from '../../core/store/sqlite.js';
import { tmpDir } from '../helpers/tmp.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const BENCH = join(ROOT, 'dist', 'bench', 'frontier', 'frontier-bench.js');
const dir = tmpDir();

interface FrontierResult {
  writerThread: boolean;
  urlsDiscovered: number;
  pagesFetched: number;
  linkRows: number;
  queued: number;
  commits: number;
}

function run(name: string, extra: string[], env: NodeJS.ProcessEnv = {}): { result: FrontierResult; db: string } {
  const db = join(dir, name);
  const out = execFileSync(
    process.execPath,
    [BENCH, '--urls', '40000', '--sites', '800', '--seeds', '50', '--every', '20000', '--json', '--keep', '--db', db, ...extra],
    { env: { ...process.env, CRAWLBENCH_WRITER: '0', ...env }, encoding: 'utf8' },
  );
  return { result: JSON.parse(out) as FrontierResult, db };
}

/** A digest of what a crawl file holds, table by table. */
function contents(path: string): Record<string, string> {
  const db = new Sqlite(path, { readonly: true });
  try {
    const digest = (sql: string) => {
      const h = createHash('sha256');
      for (const row of db.prepare(sql).raw().iterate()) h.update(JSON.stringify(row));
      return h.digest('hex');
    };
    return {
      pages: digest('SELECT id, url, site_id, depth, parent_id, status, error_code, attempts, fetch_seq FROM pages ORDER BY id'),
      links: digest('SELECT src, dst, kind FROM links ORDER BY src, dst'),
      frontier: digest('SELECT page_id, site_id, priority FROM frontier ORDER BY page_id'),
      sites: digest('SELECT id, host, pages_known, pages_fetched, not_before FROM sites ORDER BY id'),
    };
  } finally {
    db.close();
  }
}

describe('bench/frontier', () => {
  it('leaves the same crawl with its writes on a writer thread as on the crawl thread', () => {
    expect(existsSync(BENCH), 'the bench is built (npx tsc -p tsconfig.json)').toBe(true);
    const direct = run('direct.db', []);
    const threaded = run('writer.db', ['--writer']);
    expect(direct.result.writerThread).toBe(false);
    expect(threaded.result.writerThread).toBe(true);
    // It ran to its target: 40,000 URLs known, pages fetched, their links stored.
    expect(direct.result.urlsDiscovered).toBeGreaterThanOrEqual(40_000);
    expect(direct.result.pagesFetched).toBeGreaterThan(5_000);
    expect(direct.result.linkRows).toBeGreaterThan(direct.result.pagesFetched * 5);
    const counts = (r: FrontierResult) => [r.urlsDiscovered, r.pagesFetched, r.linkRows, r.queued];
    expect(counts(threaded.result)).toEqual(counts(direct.result));
    expect(contents(threaded.db)).toEqual(contents(direct.db));
  }, 120_000);

  it('refuses a --db file that exists, and leaves it as it was', () => {
    const { db } = run('kept.db', []);
    const before = contents(db);
    let status: number | null = null;
    let stderr = '';
    try {
      execFileSync(process.execPath, [BENCH, '--urls', '1000', '--db', db], { encoding: 'utf8', stdio: 'pipe' });
    } catch (err) {
      ({ status, stderr } = err as { status: number; stderr: string });
    }
    expect(status).toBe(2);
    expect(stderr).toContain('already exists');
    expect(contents(db)).toEqual(before);
  }, 120_000);

  it('follows the thread plan when not told: CRAWLBENCH_WRITER=1 gives it a writer thread', () => {
    const { result } = run('planned.db', [], { CRAWLBENCH_WRITER: '1' });
    expect(result.writerThread).toBe(true);
  }, 120_000);
});
