/**
 * The Sites and Pages reads in worker threads (core/api/read-pool.ts): listSites, searchPages and
 * getPage answered through the EngineApi are the reads this thread makes of the same file (and
 * listCrawls' summary of each crawl is read there too, not on the server's thread), refusals
 * keep their code and field, a crawl read many times at once leaves no file open in the process
 * (worker threads share its file descriptors) and can be deleted while reads are under way, and a
 * worker that dies fails only its read, in words, the next read starting another.
 */
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCrawlRead } from '../../core/api/crawl-reads.js';
import { EngineApi } from '../../core/api/engine-api.js';
import { defaultReadWorker, ReadPool } from '../../core/api/read-pool.js';
import { CrawlError } from '../../core/errors.js';
import { tmpDir } from '../helpers/tmp.js';
import { copyFixtureInto, FIXTURE_ID } from '../ui/e2e-kit.js';

const dir = tmpDir('crawlbench-read-pool-');
const workspace = join(dir, 'workspace');
const dbPath = join(workspace, `${FIXTURE_ID}.db`);
let api: EngineApi;

beforeAll(async () => {
  await copyFixtureInto(workspace);
  await copyFixtureInto(workspace, 'doomed');
  api = new EngineApi(workspace);
}, 300_000);
afterAll(async () => {
  await api?.close();
});

/** The files of `prefix` this process holds open (Linux: /proc/self/fd), worker threads' included. */
function openFiles(prefix: string): string[] {
  if (!existsSync('/proc/self/fd')) return [];
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(join('/proc/self/fd', fd));
      return target.startsWith(prefix) ? [target] : [];
    } catch {
      return [];
    }
  });
}

async function refusal(p: Promise<unknown>): Promise<CrawlError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(CrawlError);
  return err as CrawlError;
}

describe('Sites and Pages reads in worker threads', () => {
  it('answers listSites, searchPages and getPage as this thread reads the same file', async () => {
    expect(existsSync(defaultReadWorker()), 'the read worker is built (npm run build): the reads go to worker threads').toBe(true);
    const query = { sort: 'bytes', descending: false, limit: 20, offset: 3 } as const;
    const sites = await api.listSites(FIXTURE_ID, query);
    expect(sites.rows).toHaveLength(20);
    expect(sites).toEqual(runCrawlRead({ what: 'sites', path: dbPath, query }));
    const search = await api.searchPages(FIXTURE_ID, { sort: 'pagerank', limit: 30 });
    expect(search.rows.length).toBeGreaterThan(0);
    expect(search).toEqual(runCrawlRead({ what: 'search', path: dbPath, query: { sort: 'pagerank', limit: 30 } }));
    const url = search.rows[0]!.url;
    const page = await api.getPage(FIXTURE_ID, url, { linkLimit: 5 });
    expect(page?.url).toBe(url);
    expect(page).toEqual(runCrawlRead({ what: 'page', path: dbPath, url, links: { linkLimit: 5 } }));
    expect(await api.getPage(FIXTURE_ID, 'http://no-such-page.example/')).toBeNull();
  });

  it('refuses a bad field by name, and a crawl that is not there, as before', async () => {
    const sort = await refusal(api.listSites(FIXTURE_ID, { sort: 'nope' as never }));
    expect([sort.code, sort.field]).toEqual(['CRAWL_BAD_OPTION', 'sort']);
    expect(sort.message).toContain('must be one of');
    const limit = await refusal(api.searchPages(FIXTURE_ID, { limit: 0 }));
    expect([limit.code, limit.field]).toEqual(['CRAWL_BAD_OPTION', 'limit']);
    const links = await refusal(api.getPage(FIXTURE_ID, 'http://x.example/', { inOffset: -1 }));
    expect([links.code, links.field]).toEqual(['CRAWL_BAD_OPTION', 'inOffset']);
    expect((await refusal(api.listSites('no-such-crawl'))).code).toBe('CRAWL_DB_MISSING');
  });

  it('holds no crawl file open after its reads, and a crawl read at that moment can be deleted', async () => {
    const many = await Promise.all(Array.from({ length: 12 }, (_, i) => api.listSites(FIXTURE_ID, { offset: i })));
    expect(new Set(many.map((p) => p.total)).size).toBe(1);
    expect(openFiles(dbPath), 'no file of the crawl left open').toEqual([]);

    const doomed = join(workspace, 'doomed.db');
    const reads = Array.from({ length: 6 }, () => api.listSites('doomed').then(() => 'read', (e: CrawlError) => e.code));
    await api.deleteCrawl('doomed');
    // Each read either answered before the files went, or found no crawl: none failed otherwise.
    for (const r of await Promise.all(reads)) expect(['read', 'CRAWL_DB_MISSING']).toContain(r);
    expect(readdirSync(workspace).filter((f) => f.startsWith('doomed'))).toEqual([]);
    expect(openFiles(doomed)).toEqual([]);
    expect((await refusal(api.listSites('doomed'))).code).toBe('CRAWL_DB_MISSING');
  });

  it("reads listCrawls' summary of each crawl in a read worker, as this thread reads it", async () => {
    // The pool's worker, wrapped to log each read it is sent: the file and the thread that got it.
    const log = join(dir, 'reads.log');
    const logging = join(dir, 'logging-worker.mjs');
    writeFileSync(
      logging,
      `import { appendFileSync } from 'node:fs';\nimport { parentPort, isMainThread } from 'node:worker_threads';\n` +
        `parentPort.on('message', (m) => appendFileSync(${JSON.stringify(log)}, JSON.stringify({ what: m.read.what, path: m.read.path, isMainThread }) + '\\n'));\n` +
        `await import(${JSON.stringify(pathToFileURL(defaultReadWorker()).href)});\n`,
    );
    const logged = new EngineApi(workspace, { readWorker: logging });
    try {
      const crawls = await logged.listCrawls();
      const mine = crawls.find((c) => c.id === FIXTURE_ID)!;
      const stored = runCrawlRead({ what: 'summary', path: dbPath });
      expect(mine.status).toBe(stored.state);
      expect([mine.pagesFetched, mine.pagesKnown, mine.queued, mine.sites, mine.errorTotal]).toEqual([stored.pagesFetched, stored.pagesKnown, stored.queued, stored.sites, stored.errorTotal]);
      expect(mine.pagesFetched).toBeGreaterThan(0);
      const reads = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { what: string; path: string; isMainThread: boolean });
      expect(reads.filter((r) => r.what === 'summary').map((r) => r.path).sort()).toEqual(crawls.map((c) => join(workspace, `${c.id}.db`)).sort());
      expect(reads.every((r) => !r.isMainThread)).toBe(true);
      // A file that is not a crawl is listed unreadable, in words, as before.
      writeFileSync(join(workspace, 'junk.db'), 'not a database at all, just text');
      const junk = (await logged.listCrawls()).find((c) => c.id === 'junk')!;
      expect(junk.status).toBe('unreadable');
      expect(junk.problem).toMatch(/junk\.db/);
    } finally {
      await logged.close();
      rmSync(join(workspace, 'junk.db'), { force: true });
    }
  });

  it('fails only the read of a worker that dies, in words, and starts another for the next', async () => {
    const dying = join(dir, 'dying-worker.mjs');
    writeFileSync(dying, "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => process.exit(3));\n");
    const pool = new ReadPool({ workerFile: dying, threads: 1 });
    try {
      for (let i = 0; i < 2; i++) {
        const err = await refusal(pool.run({ what: 'sites', path: dbPath, query: {} }));
        expect(err.code).toBe('CRAWL_INTERNAL');
        expect(err.message).toMatch(/read worker ended before answering \(exit code 3\)/);
      }
    } finally {
      await pool.close();
    }
    const closed = await refusal(pool.run({ what: 'sites', path: dbPath, query: {} }));
    expect(closed.message).toMatch(/closing/);
  });
});
