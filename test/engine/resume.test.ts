import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { generateWeb, seedUrls } from '../../core/testweb/generator.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, serve, testSettings } from '../helpers/web.js';

const BIN = join(__dirname, '../../bin/crawlbench.js');
const dir = tmpDir();

function fetchedUrls(db: string): Set<string> {
  const store = CrawlStore.open(db, { readonly: true });
  const urls = store.db.prepare('SELECT url FROM pages WHERE fetch_seq IS NOT NULL').pluck().all() as string[];
  store.close();
  return new Set(urls);
}

function counts(db: string): { pages: number; links: number; known: number } {
  const store = CrawlStore.open(db, { readonly: true });
  const t = store.totals();
  store.close();
  return { pages: t.pagesFetched, links: t.links, known: t.pagesKnown };
}

/**
 * The resume guarantee (issue 2): a page whose result was committed is never requested
 * again; only requests in flight at the kill, plus at most one uncommitted batch (about a
 * second), may repeat; the resumed crawl ends with the same pages as an uninterrupted one.
 * The crawler runs as the real CLI in a child process and is killed with SIGKILL.
 */
describe('SIGKILL and resume', async () => {
  const web = generateWeb({ seed: 21, sites: 30, pages: 1500, latency: { maxMs: 2 } });
  const { server, port } = await serve(web);
  const seedsFile = join(dir, 'seeds.txt');
  writeFileSync(seedsFile, seedUrls(web, port).join('\n'));
  const flags = ['--seeds', seedsFile, '--scope', '.demo', '--resolve', '*.demo=127.0.0.1', '--w', '40ms', '--c', '2', '--r', '8', '--max-crawl-delay', '40ms'];

  it('three kills at different moments, each resumed, end with the pages of an uninterrupted crawl', async () => {
    const refDb = join(dir, 'reference.db');
    const refStart = server.requests.length;
    await crawl(refDb, testSettings(seedUrls(web, port), { scope: { suffixes: ['.demo'] }, resolve: [{ pattern: '*.demo', address: '127.0.0.1' }], w: 40, c: 2, r: 8, maxCrawlDelay: 40 }));
    const reference = fetchedUrls(refDb);
    const refRequests = server.requests.length - refStart;
    expect(reference.size).toBeGreaterThan(1000);

    const db = join(dir, 'killed.db');
    const start = server.requests.length;
    const kills: Array<{ at: number; committed: Set<string>; logIndex: number }> = [];
    for (const share of [0.05, 0.5, 0.9]) {
      const args = kills.length === 0 ? ['crawl', '--db', db, ...flags, '--quiet'] : ['crawl', '--db', db, '--quiet'];
      // The first and last killed runs write through a writer thread (whose sealed batches a kill
      // may also lose), the middle one on the crawl's own thread, whatever this machine's cores
      // would choose (engine/thread-plan.ts): a resume may change its threads too.
      const env = { ...process.env, CRAWLBENCH_WRITER: kills.length === 1 ? '0' : '1' };
      const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      const target = start + Math.floor(refRequests * share);
      // The first kill comes before anything is committed; the later ones once the resumed
      // crawl has committed progress of its own (a batch commits every second), so that each
      // resume has something to keep. What was seen committed must survive the kill.
      const before = kills.at(-1)?.committed.size ?? -1;
      let seenCommitted = 0;
      await new Promise<void>((resolve, reject) => {
        const poll = setInterval(() => {
          if (server.requests.length < target) return;
          if (before >= 0) {
            seenCommitted = fetchedUrls(db).size;
            if (seenCommitted <= before) return;
          }
          clearInterval(poll);
          child.kill('SIGKILL');
          resolve();
        }, 2);
        exited.then((code) => {
          clearInterval(poll);
          reject(new Error(`crawler exited (${code}) before the kill: ${stderr}`));
        });
      });
      const at = performance.timeOrigin + performance.now();
      await exited;
      kills.push({ at, committed: fetchedUrls(db), logIndex: server.requests.length });
      expect(kills.at(-1)!.committed.size).toBeGreaterThanOrEqual(seenCommitted);
    }
    // Growing commits: each kill found more committed than the one before.
    expect(kills[0]!.committed.size).toBeLessThan(kills[1]!.committed.size);
    expect(kills[1]!.committed.size).toBeLessThan(kills[2]!.committed.size);

    const last = spawn(process.execPath, [BIN, 'crawl', '--db', db, '--quiet', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    last.stdout.on('data', (d) => (out += d));
    expect(await new Promise((r) => last.once('exit', r))).toBe(0);
    expect(JSON.parse(out).stopReason).toBe('finished');

    // 1. Nothing committed before a kill is requested after it.
    const pageUrl = (host: string, path: string) => `http://${host}:${port}${path}`;
    for (const kill of kills) {
      const after = server.requests.slice(kill.logIndex).filter((r) => r.path !== '/robots.txt');
      const again = after.map((r) => pageUrl(r.host, r.path)).filter((u) => kill.committed.has(u));
      expect(again).toEqual([]);
    }
    // 2. What was requested twice was requested (the first time) within the last second
    //    or so before a kill: in flight, or in the batch that was not yet committed.
    const seen = new Map<string, number>();
    const repeats: Array<{ url: string; first: number }> = [];
    for (const r of server.requests.slice(start)) {
      if (r.path === '/robots.txt') continue;
      const u = pageUrl(r.host, r.path);
      const first = seen.get(u);
      if (first === undefined) seen.set(u, r.t);
      else repeats.push({ url: u, first });
    }
    for (const rep of repeats) {
      // A request already on the wire reaches the server a moment after the kill signal.
      const nearKill = kills.some((k) => rep.first <= k.at + 50 && rep.first >= k.at - 1500);
      expect(nearKill, `${rep.url} repeated, first requested long before any kill`).toBe(true);
    }
    // 3. Same pages and links as the uninterrupted crawl.
    expect(fetchedUrls(db)).toEqual(reference);
    expect(counts(db)).toEqual(counts(refDb));
    // 4. Every URL once, though no UNIQUE index keeps it so (the URL-seen index is rebuilt
    //    in memory at each resume), and the finished crawl has its indexes for reading.
    const store = CrawlStore.open(db, { readonly: true });
    const [rows, distinct] = store.db.prepare('SELECT count(*), count(DISTINCT url) FROM pages').raw().get() as [number, number];
    const indexes = store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").pluck().all();
    store.close();
    expect(distinct).toBe(rows);
    expect(indexes).toEqual(expect.arrayContaining(['pages_url', 'links_dst']));
  });
});
