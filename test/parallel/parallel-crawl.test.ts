/**
 * The parallel crawl (issue 25) end to end: the built `crawlbench crawl --parts 4` against a
 * real nats-server (the embedded one it starts) and the real test web, each parallel crawl
 * merged and compared with a single-process crawl of the same web: the same fetched URLs, and
 * the link exchange it measured equal to partition-eval's prediction for the same assignment
 * on the single crawl's graph. Then the faults: a worker killed with SIGKILL mid-crawl,
 * nats-server stopped (SIGSTOP) for 10 s, nats-server killed (SIGKILL) and started again by the
 * coordinator (in the worker's crawl); and the refusals.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { fetchedUrls, parallelCrawl, parallelTestWeb, processes, singleCrawlTruth, sleep, type ParallelSummaryJson } from '../helpers/parallel.js';
import { politenessViolations } from '../helpers/politeness.js';
import { crawlbench, run, type RunResult } from '../helpers/run.js';
import { tmpDir } from '../helpers/tmp.js';
import { describeWith, itWith, refPath } from '../references.js';

const dir = tmpDir('crawlbench-parallel-');

type Summary = ParallelSummaryJson;

describeWith(['nats-server'], 'parallel crawl: K = 4 workers over NATS JetStream', async () => {
  // 600 pages: a crawl lasts long enough for the faults.
  const { web, server, flags } = await parallelTestWeb(dir, 600);
  const single = join(dir, 'single.db');
  const truth = singleCrawlTruth(single, flags, 500, server);

  let lastRequests: typeof server.requests = [];
  /** The w of the crawls whose politeness is checked (the others crawl at w = 0). */
  const W = 20;
  const politeW = ['--w', `${W}ms`];
  const robotsOf = new Map(web.sites.map((site) => [site.host, site.robots]));
  /**
   * The test web's own log of the last parallel crawl against the politeness rules (c = 1, the
   * default): one connection to a site at a time across the workers, W between them (a site's
   * Crawl-delay where it states one), one request over each (robots.txt and each redirect hop it
   * follows included), and each site fetched by one worker.
   */
  function expectPolite(name: string): void {
    const conns = new Map([...server.connections].filter(([id]) => lastRequests.some((q) => q.connId === id)));
    const wFor = (host: string) => (robotsOf.get(host) === 'crawl-delay' ? 1000 : W);
    expect(politenessViolations(lastRequests, conns, { w: W, c: 1, wFor })).toEqual([]);
    const workersOf = new Map<string, Set<number>>();
    for (let part = 0; part < 4; part++) {
      for (const url of fetchedUrls(join(dir, `${name}.parts`, `part-${part}.db`))) {
        const host = new URL(url).hostname;
        workersOf.set(host, (workersOf.get(host) ?? new Set()).add(part));
      }
    }
    expect([...workersOf].filter(([, parts]) => parts.size > 1)).toEqual([]);
  }

  /** Runs one parallel crawl; checks the merge against the single crawl and the exchange against the prediction. */
  async function crawlAndCompare(name: string, assign: string[], during?: (partsDir: string) => Promise<void>): Promise<Summary> {
    const db = join(dir, `${name}.db`);
    const before = server.requests.length;
    const r = await parallelCrawl(db, [...flags, '--parts', '4', ...assign, '--predict-from', single, '--json'], during);
    lastRequests = server.requests.slice(before);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout, r.stderr).toMatch(/^\{/);
    const s = JSON.parse(r.stdout) as Summary;
    expect(fetchedUrls(db)).toEqual(truth());
    expect(s.merge.pagesFetched).toBe(truth().length);
    // Every part fetched something: the work was shared.
    for (const w of s.merge.workers) expect(w.pagesFetched).toBeGreaterThan(0);
    return s;
  }

  it('a site hash: the merged crawl is the single crawl, the exchange is partition-eval\'s prediction; at w = 20 ms the test web\'s log shows one connection per site, w apart, across the workers; the same crawl started twice is refused', async () => {
    let second: RunResult | null = null;
    const s = await crawlAndCompare('site-hash', ['--model', 'site', '--assign', 'hash', ...politeW], async (parts) => {
      await processes(parts);
      second = await crawlbench(['crawl', '--db', join(dir, 'site-hash.db'), ...flags, '--parts', '4', '--model', 'site', '--assign', 'hash']);
    });
    expect(second!.code).toBe(2);
    expect(second!.stderr).toMatch(/already running.*\[CRAWL_PARALLEL_CRAWL_RUNNING\]/);
    expect(s.prediction).not.toBeNull();
    expect(s.measured.messages).toBe(s.prediction!.messages);
    expect(s.measured.volume).toBe(s.prediction!.volume);
    expect(s.measured.messages).toBeGreaterThan(0);
    // What was sent was received, message for message.
    const total = (dir: string) => s.merge.exchange.filter((e) => e.direction === dir).reduce((n, e) => n + e.messages, 0);
    expect(total('received')).toBe(total('sent'));
    expect(s.merge.fetchedTwice).toBe(0);
    expectPolite('site-hash');
    // The readers take the merged crawl as they take any other.
    const ev = await crawlbench(['partition-eval', '--graph', join(dir, 'site-hash.db'), '--model', 'site', '--parts', '4', '--assign', 'hash', '--json']);
    expect(ev.code, ev.stderr).toBe(0);
    expect(JSON.parse(ev.stdout)).toMatchObject({ messages: s.measured.messages, volume: s.measured.volume });
  }, 120_000);

  it('a page hash: the same; crawlbench merge on its parts again gives the same crawl', async () => {
    const s = await crawlAndCompare('page-hash', ['--model', 'page', '--assign', 'hash']);
    expect(s.measured.messages).toBe(s.prediction!.messages);
    expect(s.measured.volume).toBe(s.prediction!.volume);
    // crawlbench merge on the parts again: the same crawl, each worker's counters stated.
    const again = join(dir, 'page-hash-again.db');
    const m = await crawlbench(['merge', join(dir, 'page-hash.parts'), '--out', again, '--json']);
    expect(m.code, m.stderr).toBe(0);
    expect(fetchedUrls(again)).toEqual(truth());
    expect((JSON.parse(m.stdout) as Summary['merge']).workers.map((w) => w.pagesFetched)).toEqual(s.merge.workers.map((w) => w.pagesFetched));
    const refused = await crawlbench(['merge', join(dir, 'page-hash.parts'), '--out', again]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/exists \(--force writes over it\) \[CRAWL_OUTPUT_EXISTS\]/);
  }, 120_000);

  itWith(['metis'], 'a METIS site partition of the earlier crawl: the same, with the vector read through its id map, and as polite', async () => {
    const graph = join(dir, 'sites.metis');
    const ex = await crawlbench(['export-graph', '--graph', single, '--model', 'site', '--format', 'metis', '--out', graph]);
    expect(ex.code, ex.stderr).toBe(0);
    const gp = await run(refPath('metis'), ['-ptype=kway', '-ubvec=1.05 1.05', '-seed=1', graph, '4']);
    expect(gp.code, gp.stdout + gp.stderr).toBe(0);
    const s = await crawlAndCompare('site-metis', ['--model', 'site', '--assign', `${graph}.part.4`, ...politeW]);
    expectPolite('site-metis');
    expect(s.measured.messages).toBe(s.prediction!.messages);
    expect(s.measured.volume).toBe(s.prediction!.volume);
  }, 120_000);

  it('kill -9 of a worker mid-crawl, then of nats-server: the worker, restarted, resumes from its database and consumer; the coordinator starts nats-server again on its storage; nothing lost', async () => {
    // One crawl for both faults (each a crawl of its own before: about 10 s of the file's run).
    const s = await crawlAndCompare('kill-worker-broker', ['--model', 'site', '--assign', 'hash'], async (parts) => {
      const p = await processes(parts);
      // Once part 1 crawls (its database exists), a second later; nats-server half a second after.
      for (let i = 0; i < 100 && !existsSync(join(parts, 'part-1.db')); i++) await sleep(100);
      await sleep(1000);
      process.kill(p.workers[1]!, 'SIGKILL');
      await sleep(500);
      process.kill(p.brokerPid, 'SIGKILL');
    });
    expect(s.workerRestarts).toBeGreaterThanOrEqual(1);
    expect(s.brokerRestarts).toBe(1);
  }, 120_000);

  it('nats-server stopped (SIGSTOP) for 10 s: the workers wait and go on; nothing lost', async () => {
    await crawlAndCompare('stop-broker', ['--model', 'page', '--assign', 'hash'], async (parts) => {
      const p = await processes(parts);
      await sleep(1500);
      process.kill(p.brokerPid, 'SIGSTOP');
      await sleep(10_000);
      process.kill(p.brokerPid, 'SIGCONT');
    });
  }, 120_000);

  it('--max-pages holds for the crawl as a whole: split among the parts', async () => {
    const db = join(dir, 'max-pages.db');
    const r = await parallelCrawl(db, [...flags, '--parts', '4', '--model', 'page', '--assign', 'hash', '--max-pages', '101', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as Summary;
    expect(s.merge.pagesFetched).toBe(101);
    expect(s.merge.workers.map((w) => w.pagesFetched)).toEqual([26, 25, 25, 25]);
    expect(fetchedUrls(db).every((u) => truth().includes(u))).toBe(true);
    // Ended at its limit, as a crawl of one process: the same command with a higher limit goes on from the parts.
    const more = await parallelCrawl(db, [...flags, '--parts', '4', '--model', 'page', '--assign', 'hash', '--max-pages', '150']);
    expect(more.code, more.stderr).toBe(0);
    expect(more.stdout).toMatch(/^parallel crawl max-pages: 4 parts, at its page limit, merged into /);
    expect(fetchedUrls(db)).toHaveLength(150);
    expect(fetchedUrls(db).every((u) => truth().includes(u))).toBe(true);
  }, 120_000);

  it('bad part vectors and brokers are refused in one line naming the file or the flag', async () => {
    const graph = join(dir, 'pages.metis');
    const ex = await crawlbench(['export-graph', '--graph', single, '--model', 'page', '--format', 'metis', '--out', graph]);
    expect(ex.code, ex.stderr).toBe(0);
    const n = readFileSync(`${graph}.ids.tsv`, 'utf8').trim().split('\n').length - 1;
    const refuse = async (file: string, text: string, more: string[] = []) => {
      if (text) writeFileSync(file, text);
      const r = await crawlbench(['crawl', '--db', join(dir, 'refused.db'), ...flags, '--parts', '4', '--model', 'page', '--assign', file, ...more]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      return r.stderr;
    };
    expect(await refuse(`${graph}.short`, '0\n1\n')).toMatch(/pages\.metis\.short line 3: missing.*\[CRAWL_BAD_PART_FILE\]/);
    expect(await refuse(`${graph}.big`, Array.from({ length: n }, (_, i) => (i === 5 ? '4' : '0')).join('\n') + '\n')).toMatch(/line 6: part 4 is outside 0\.\.3/);
    const lone = join(dir, 'lone.part.4');
    expect(await refuse(lone, Array.from({ length: n }, () => '0').join('\n') + '\n')).toMatch(/no id map beside it.*--ids/);
    expect(await refuse(`${graph}.short`, '', ['--ids', join(dir, 'nowhere.tsv')])).toMatch(/--ids: .*nowhere\.tsv does not exist/);
    const remote = await crawlbench(['crawl', '--db', join(dir, 'refused.db'), ...flags, '--parts', '4', '--model', 'site', '--assign', 'hash', '--broker', 'nats://192.0.2.1:4222']);
    expect(remote.code).toBe(2);
    expect(remote.stderr).toMatch(/outside this machine and no credentials.*\[CRAWL_BROKER_NO_CREDENTIALS\]/);
    const noServer = await crawlbench(['crawl', '--db', join(dir, 'refused.db'), ...flags, '--parts', '4', '--model', 'site', '--assign', 'hash', '--nats-server', join(dir, 'no-nats-server')]);
    expect(noServer.code).toBe(2);
    expect(noServer.stderr).toMatch(/--nats-server .* is not a program \[CRAWL_TOOL_MISSING\]/);
    expect(existsSync(join(dir, 'refused.db'))).toBe(false);
  }, 60_000);
});
