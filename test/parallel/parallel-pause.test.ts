/**
 * A parallel crawl paused whole and resumed (issue 25, "Bad input and faults"; README "Parallel
 * crawling"): a part its worker refuses, a disk that fills (--max-db-size, and a real 3 MB file
 * system holding the crawl and its broker), Ctrl-C with a worker on another machine, parts split
 * between machines (--local-workers), the same crawl made again on a broker that ran it, and
 * --replicas refused. Each compared with a single-process crawl of the same web: the built
 * `crawlbench crawl --parts K` against a real nats-server and the real test web. The faults a
 * restart or a cluster answers are in parallel-faults.test.ts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { commandLine } from '../../core/parallel/stale-run.js';
import { fetchedUrls, killLeftovers, parallelCrawl, parallelTestWeb, partsBegun, processes, sleep, singleCrawlTruth, startCrawl, within, withBroker, withoutLatency, type ParallelSummaryJson } from '../helpers/parallel.js';
import { BIN, crawlbench } from '../helpers/run.js';
import { tmpDir } from '../helpers/tmp.js';
import { serve } from '../helpers/web.js';
import { handWeb } from '../../core/testweb/hand-web.js';
import { describeWith } from '../references.js';

const dir = tmpDir('crawlbench-parallel-pause-');

describeWith(['nats-server'], 'parallel crawl: paused whole, resumed whole', async () => {
  // 1,200 pages answered in up to 20 ms (one connection a site): each crawl lasts some seconds, long enough for a Ctrl-C.
  const { server, flags } = await parallelTestWeb(dir, 1200, 20);
  const single = join(dir, 'single.db');
  const truth = singleCrawlTruth(single, flags, 1000, server);

  it('a worker that refuses its part (not a crawl file) pauses the crawl in one line naming it, rather than being started again for ever', async () => {
    const name = 'refused';
    const db = join(dir, `${name}.db`);
    onTestFinished(() => killLeftovers(join(dir, `${name}.parts`)));
    mkdirSync(join(dir, `${name}.parts`, 'part-1.db'), { recursive: true });
    const r = await within(parallelCrawl(db, [...flags, '--parts', '2', '--model', 'site', '--assign', 'hash']), 60_000, 'the crawl paused');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/part-1\.db: cannot be read .*\[CRAWL_DB_CORRUPT\]/);
    expect(r.stderr).toMatch(/^crawlbench crawl: part 1 \(worker 1\) refused to run \(exit 2; its own line above says why\); every worker paused.*\[CRAWL_PARALLEL_WORKER_REFUSED\]$/m);
    expect(r.stderr).not.toMatch(/starting it again/);
  }, 120_000);

  it('a part whose disk fills pauses the whole crawl (exit 3, in words, nothing started again); the same command with room resumes it and loses nothing', async () => {
    // Before: the full part's worker was started again for ever (it ended at once each time) while the other parts went on: the crawl never ended.
    const name = 'full';
    const db = join(dir, `${name}.db`);
    onTestFinished(() => killLeftovers(join(dir, `${name}.parts`)));
    const args = [...flags, '--parts', '2', '--model', 'page', '--assign', 'hash'];
    const full = await within(startCrawl(db, [...args, '--max-db-size', '300KB']).done, 60_000, 'the crawl paused');
    expect(full.code, full.stderr).toBe(3);
    expect(full.stdout).toMatch(/^PAUSED: parts? [\d,]+ .*the disk \(or --max-db-size\) is full; every worker paused.*run the same command to resume/m);
    expect(full.stderr).not.toMatch(/starting it again/);
    expect(existsSync(db)).toBe(false);
    // The resumed run to the end with the web's latency off (the pause is over).
    const resumed = await withoutLatency(server, () => crawlbench(['crawl', '--db', db, ...args, '--max-db-size', '50MB', '--json'], { killAfterMs: 100_000 }));
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/each part's database may now grow to 50,000,000 bytes/);
    expect(fetchedUrls(db)).toEqual(truth());
  }, 180_000);

  it('a disk that really fills (a 3 MB file system holding the crawl and its broker\'s store): paused whole, exit 3, again while it is full, and resumed whole once there is room', async (ctx) => {
    // Before: the worker died on the failed COMMIT at close (exit 1) and was started again, and
    // run again the coordinator died on a stack trace (its run file) or the broker's "insufficient storage".
    const mnt = join(dir, 'small-disk');
    mkdirSync(mnt, { recursive: true });
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', mnt]);
    if (mounted.status !== 0) {
      console.log(`skipped: a full disk needs a small file system, and mount -t tmpfs was refused here (${String(mounted.stderr).trim()})`);
      return ctx.skip();
    }
    const db = join(mnt, 'real.db');
    onTestFinished(() => {
      killLeftovers(join(mnt, 'real.parts'));
      spawnSync('umount', ['-l', mnt]);
    });
    const args = ['crawl', '--db', db, ...flags, '--parts', '2', '--model', 'site', '--assign', 'hash'];
    for (const run of ['fills', 'still full']) {
      const r = await crawlbench(args, { killAfterMs: 100_000 });
      expect(r.code, `${run}: ${r.stderr}`).toBe(3);
      expect(r.stdout, run).toMatch(/^PAUSED: .*(disk|storage).* is full/m);
      expect(r.stderr, run).not.toMatch(/starting it again|internal error/);
      // Before: each failed write of coordinator.json (every heartbeat) left its temporary file on the full disk.
      expect(readdirSync(join(mnt, 'real.parts')).filter((f) => f.includes('.tmp-')), run).toEqual([]);
    }
    expect(spawnSync('mount', ['-o', 'remount,size=300m', mnt]).status).toBe(0);
    const room = await crawlbench([...args, '--json'], { killAfterMs: 100_000 });
    expect(room.code, room.stderr).toBe(0);
    expect(fetchedUrls(db)).toEqual(truth());
  }, 300_000);

  it('--local-workers 2 of 3 parts: this machine runs parts 0 and 1 only, a worker elsewhere takes part 2; paused there, the coordinator says so and how to take it on; the merged crawl is whole', async () => {
    // Before: the 2 local processes took every part round robin (0,2 and 1), so part 2 had two
    // workers; and a worker elsewhere that paused left the crawl waiting in silence.
    const name = 'spread';
    const db = join(dir, `${name}.db`);
    const parts = join(dir, `${name}.parts`);
    onTestFinished(() => killLeftovers(parts));
    await withBroker(join(dir, 'spread-broker'), async (broker) => {
      const run = startCrawl(db, [...flags, '--parts', '3', '--model', 'site', '--assign', 'hash', '--broker', broker.url, '--local-workers', '2', '--json']);
      let said = '';
      run.child.stderr!.on('data', (b: Buffer) => (said += b));
      const local = await processes(parts, 2);
      expect(local.workers).toHaveLength(2);
      for (const pid of local.workers) expect(commandLine(pid)).toMatch(/--parts-to-take [01] /);
      const worker = ['worker', '--broker', broker.url, '--crawl', name, '--parts-to-take', '2', '--dir', parts];
      // Part 2's worker on "another machine", stopped with Ctrl-C once it has begun: it pauses.
      const first = spawn(process.execPath, [BIN, ...worker], { stdio: 'ignore' });
      await partsBegun(parts, 3);
      await sleep(1500); // it has written its status as running (every 500 ms) before it is stopped
      first.kill('SIGINT');
      await new Promise((r) => first.once('exit', r));
      for (let i = 0; i < 100 && !/part 2 \(worker \d+ on [^)]+\) paused/.test(said); i++) await sleep(100);
      expect(said).toMatch(/^part 2 \(worker \d+ on [^)]+\) paused: the crawl waits for its part; on the machine holding its part file, run crawlbench worker --broker nats:\/\/127\.0\.0\.1:\d+ --crawl spread --parts-to-take 2 /m);
      const again = await crawlbench(worker, { killAfterMs: 100_000 });
      expect(again.code, again.stderr).toBe(0);
      const r = await run.done;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/part 2 is left to other workers: crawlbench worker --broker nats:\/\/127\.0\.0\.1:\d+ --crawl spread --parts-to-take 2 /);
      expect(fetchedUrls(db)).toEqual(truth());
      expect((JSON.parse(r.stdout) as ParallelSummaryJson).merge.workers.map((x) => x.part)).toEqual([0, 1, 2]);
    });
  }, 150_000);

  it('a crawl paused with Ctrl-C: a worker started elsewhere before the coordinator runs again is not paused by the last run\'s pause, and the resumed crawl is whole', async () => {
    const name = 'repause';
    const db = join(dir, `${name}.db`);
    const parts = join(dir, `${name}.parts`);
    onTestFinished(() => killLeftovers(parts));
    await withBroker(join(dir, 'repause-broker'), async (broker) => {
      const args = [...flags, '--parts', '2', '--model', 'site', '--assign', 'hash', '--broker', broker.url, '--local-workers', '1'];
      const first = startCrawl(db, args);
      await processes(parts, 1); // the coordinator has put the crawl in the broker: a worker elsewhere finds it
      const elsewhere1 = crawlbench(['worker', '--broker', broker.url, '--crawl', name, '--parts-to-take', '1', '--dir', parts], { killAfterMs: 100_000 });
      await partsBegun(parts, 2);
      first.child.kill('SIGINT');
      expect((await first.done).stdout).toMatch(/^paused/m);
      expect((await elsewhere1).code).toBe(0); // paused through the bucket's pause key
      // Before the coordinator runs again, part 1's worker starts: the last run's pause is not for it.
      let ended = false;
      const elsewhere2 = crawlbench(['worker', '--broker', broker.url, '--crawl', name, '--parts-to-take', '1', '--dir', parts], { killAfterMs: 100_000 }).finally(() => (ended = true));
      await sleep(3000);
      expect(ended).toBe(false);
      const again = await withoutLatency(server, () => parallelCrawl(db, args));
      expect(again.code, again.stderr).toBe(0);
      // Ended by the crawl's end, not paused by its 100 s guard (which exits 0 too: one run saw that).
      const w2 = await elsewhere2;
      expect(w2.code).toBe(0);
      expect(w2.stderr).toMatch(/part-1\.db: finished, \d+ pages fetched/);
      expect(fetchedUrls(db)).toEqual(truth());
    });
  }, 200_000);

  it("the same crawl made again from nothing on a broker that ran it minutes before: its parts' messages are not taken for the first run's, and nothing is lost", async () => {
    // Before: message ids were numbered by the part file's rows, so the new files sent ids the
    // broker had seen within its 10-minute window, and it dropped them in silence. A web where
    // every page is linked from one page only, most of them on another site: a message dropped
    // is pages lost.
    const sites = 6;
    const perSite = 200;
    const host = (s: number) => `t${s}.test`;
    const { port } = await serve(handWeb(Array.from({ length: sites }, (_, s) => ({
      host: host(s), latencyMs: 0,
      pages: Array.from({ length: perSite }, (_, i) => ({ path: `/p${i}`, links: [2 * i + 1, 2 * i + 2].filter((j) => j < perSite).map((j) => `http://${host((s + 1) % sites)}/p${j}`) })),
    }))));
    const name = 'again';
    const db = join(dir, `${name}.db`);
    onTestFinished(() => killLeftovers(join(dir, `${name}.parts`)));
    await withBroker(join(dir, 'again-broker'), async (broker) => {
      const seeds = Array.from({ length: sites }, (_, s) => ['--seed', `http://${host(s)}:${port}/p0`]).flat();
      const args = [...seeds, '--resolve', '*.test=127.0.0.1', '--w', '0', '--quiet', '--parts', '2', '--model', 'site', '--assign', 'hash', '--broker', broker.url];
      const first = await parallelCrawl(db, args);
      expect(first.code, first.stderr).toBe(0);
      expect(fetchedUrls(db)).toHaveLength(sites * perSite);
      rmSync(db);
      rmSync(join(dir, `${name}.parts`), { recursive: true });
      const second = await parallelCrawl(db, args);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stderr).toMatch(/resuming the crawl again with the definition the broker holds/);
      expect(fetchedUrls(db)).toHaveLength(sites * perSite);
    });
  }, 200_000);

  it('--replicas above 1 without a cluster, or out of 1..5, is refused in one line naming the flag', async () => {
    const refuse = async (more: string[]) => {
      const r = await crawlbench(['crawl', '--db', join(dir, 'refused.db'), ...flags, '--parts', '4', '--model', 'site', '--assign', 'hash', ...more]);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      return r.stderr;
    };
    expect(await refuse(['--replicas', '3'])).toMatch(/--replicas: 3 copies need a NATS cluster.*--broker.*\[CRAWL_BAD_OPTION\]/);
    expect(await refuse(['--replicas', '6'])).toMatch(/--replicas: "6" is not a number of copies from 1 to 5/);
    // A single server given as the broker: it cannot keep 3 copies, and says why.
    await withBroker(join(dir, 'single-server'), async (single) => {
      expect(await refuse(['--broker', single.url, '--replicas', '3'])).toMatch(/--replicas: the broker cannot keep 3 copies .*needs a NATS cluster of at least 3 servers/);
    });
    expect(existsSync(join(dir, 'refused.db'))).toBe(false);
  }, 60_000);
});
