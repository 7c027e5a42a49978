/**
 * The parallel crawl's faults that a restart or a cluster answers (issue 25, "Bad input and
 * faults"; README "Parallel crawling"), each compared with a single-process crawl of the same
 * web, as in parallel-crawl.test.ts: the built `crawlbench crawl --parts 4` against a real
 * nats-server and the real test web.
 *
 * - kill -9 of the coordinator mid-crawl, then the same command run again: the workers the
 *   coordinator left pause on their own (its pipe closed), the new run stops the nats-server it
 *   left on the crawl's storage and starts its own there, and resumes; nothing lost. Then the
 *   coordinator killed together with its nats-server: the workers pause without a broker.
 * - a 3-node NATS cluster on loopback keeping 3 copies of the crawl's stream and buckets, the
 *   server leading the stream killed mid-crawl: the crawl goes on; nothing lost.
 * - messages on a part's subject that are not the exchange's; a worker that keeps dying; a
 *   page whose links pass the broker's largest message.
 *
 * A crawl paused whole (a refused part, a full disk, Ctrl-C) and resumed is in parallel-pause.test.ts.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it, onTestFinished } from 'vitest';
import { connect } from '@nats-io/transport-node';
import { jetstream } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { EmbeddedBroker, findNatsServer } from '../../core/parallel/broker.js';
import { commandLine } from '../../core/parallel/stale-run.js';
import { now } from '../../core/testweb/request-log.js';
import { NatsCluster } from '../helpers/nats-cluster.js';
import { eventKinds, fetchedUrls, killLeftovers, parallelCrawl, parallelTestWeb, partsBegun, processes, sleep, startCrawl, within, withoutLatency, type ParallelSummaryJson } from '../helpers/parallel.js';
import { crawlbench } from '../helpers/run.js';
import { tmpDir } from '../helpers/tmp.js';
import { serve } from '../helpers/web.js';
import { handWeb } from '../../core/testweb/hand-web.js';
import { describeWith } from '../references.js';

const dir = tmpDir('crawlbench-parallel-faults-');

describeWith(['nats-server'], 'parallel crawl: the coordinator killed, a cluster losing a node', async () => {
  // 1,200 pages answered in up to 60 ms (one connection a site): a crawl lasts long enough for two faults.
  const { server, flags } = await parallelTestWeb(dir, 1200, 60);
  const single = join(dir, 'single.db');
  let truth: string[] = [];
  /** Requests per URL of the single crawl (a page answered with an error is asked again there too). */
  const singleCount = new Map<string, number>();
  const key = (r: { host: string; path: string }) => `${r.host}${r.path}`;

  beforeAll(async () => {
    const from = server.requests.length;
    const r = await withoutLatency(server, () => crawlbench(['crawl', '--db', single, ...flags]));
    expect(r.code, r.stderr).toBe(0);
    truth = fetchedUrls(single);
    expect(truth.length).toBeGreaterThan(1000);
    for (const q of server.requests.slice(from)) singleCount.set(key(q), (singleCount.get(key(q)) ?? 0) + 1);
  }, 120_000);

  /** Page requests of the test web's log from `from` on beyond the single crawl's: each with when it was first asked. */
  function repeats(from: number): { url: string; first: number }[] {
    const seen = new Map<string, { n: number; first: number }>();
    for (const q of server.requests.slice(from)) {
      if (q.path.includes('robots')) continue; // each worker of a page assignment reads a site's robots.txt (and where it redirects)
      const s = seen.get(key(q)) ?? { n: 0, first: q.t };
      s.n++;
      seen.set(key(q), s);
    }
    return [...seen].filter(([k, s]) => s.n > (singleCount.get(k) ?? 1)).map(([url, s]) => ({ url, first: s.first }));
  }

  it('kill -9 of the coordinator mid-crawl, then of the next one with its nats-server: each time the workers pause on their own; the same command run again takes over what the dead one left, resumes, and loses nothing', async () => {
    const db = join(dir, 'kill-coordinator.db');
    const parts = join(dir, 'kill-coordinator.parts');
    const args = [...flags, '--parts', '4', '--model', 'site', '--assign', 'hash', '--json'];
    onTestFinished(() => killLeftovers(parts));
    const from = server.requests.length;
    const kills: number[] = [];
    // 1. The coordinator alone: its workers and its nats-server outlive it.
    const first = startCrawl(db, args);
    const run1 = await processes(parts);
    await partsBegun(parts, 4);
    await sleep(1000);
    kills.push(now());
    first.child.kill('SIGKILL');
    await first.exited;
    expect(server.requests.length - from).toBeGreaterThan(0);
    // 2. The same command at once, while those workers still pause: it waits for them and stops that nats-server.
    const second = startCrawl(db, args);
    await within(first.done, 30_000, "the killed coordinator's workers did not end");
    const run2 = await processes(parts, 4, second.child.pid);
    for (const pid of [run1.brokerPid, ...run1.workers]) expect(commandLine(pid) ?? 'gone', `process ${pid} of the first run`).not.toMatch(/nats-server| worker /);
    // Once every part crawls again (its second start is committed), a moment later.
    const started = (p: number) => eventKinds(join(parts, `part-${p}.db`)).filter((k) => k === 'start').length;
    for (let i = 0; i < 300 && [0, 1, 2, 3].some((p) => started(p) < 2); i++) await sleep(100);
    await sleep(500);
    // 3. This coordinator dies with its nats-server: its workers pause with no broker to talk to, and end all the same.
    expect(second.child.exitCode, 'the second run ended before its kill').toBeNull();
    kills.push(now());
    process.kill(run2.brokerPid, 'SIGKILL');
    second.child.kill('SIGKILL');
    const ended = await within(second.done, 30_000, 'the workers of a coordinator killed with its nats-server did not end');
    expect(ended.stderr).toMatch(/stopping the nats-server \(process \d+\) the last coordinator left running/);
    // The kills came mid-crawl: the parts, paused, hold fewer pages than the web (the test web's
    // log would count robots.txt and pages asked again, too).
    const partPages = [0, 1, 2, 3].reduce((n, p) => n + fetchedUrls(join(parts, `part-${p}.db`)).length, 0);
    expect(partPages).toBeGreaterThan(0);
    expect(partPages).toBeLessThan(truth.length);
    // 4. Once more, to the end (the web's latency off: the faults are over, and at up to 60 ms a page the rest took 20 s).
    const third = await withoutLatency(server, () => parallelCrawl(db, args));
    expect(third.code, third.stderr).toBe(0);
    expect(third.stderr).not.toMatch(/did not pause: killed/);
    const s = JSON.parse(third.stdout) as ParallelSummaryJson;
    expect(fetchedUrls(db)).toEqual(truth);
    expect(s.merge.pagesFetched).toBe(truth.length);
    expect(s.merge.fetchedTwice).toBe(0);
    // Every part committed its pause in both runs before the last run's finish.
    for (let p = 0; p < 4; p++) {
      const kinds = eventKinds(join(parts, `part-${p}.db`));
      expect(kinds.filter((k) => k === 'pause'), `part ${p}`).toHaveLength(2);
      expect(kinds.at(-1)).toBe('finish');
    }
    for (const pid of [run2.brokerPid, ...run2.workers]) expect(commandLine(pid) ?? 'gone', `process ${pid} of the second run`).not.toMatch(/nats-server| worker /);
    // A page asked twice was asked the first time shortly before a kill (in flight, or in the
    // batch its pause committed) or after it.
    const again = repeats(from);
    for (const r of again) expect(kills.some((k) => r.first > k - 1500 && r.first < k + 20_000), `${r.url} asked again`).toBe(true);
    process.stderr.write(`kill -9 of the coordinator, then of the next with its nats-server: ${again.length} pages asked twice\n`);
  }, 150_000);

  it('a 3-node NATS cluster keeping 3 copies of the crawl\'s stream and buckets: the server leading the stream killed (kill -9) mid-crawl, the crawl goes on through the other two; nothing lost', async () => {
    const cluster = await NatsCluster.start(findNatsServer(), join(dir, 'cluster'));
    try {
      const name = 'cluster';
      const db = join(dir, `${name}.db`);
      onTestFinished(() => killLeftovers(join(dir, `${name}.parts`)));
      const from = server.requests.length;
      let before: Awaited<ReturnType<typeof cluster.stream>> | null = null;
      let killed = '';
      // A page assignment: the site leases go through a replicated bucket too. Once the leader is
      // killed, the web answers without its latency: the rest of the crawl need not take 30 s.
      onTestFinished(() => void server.setTimeFactor(1));
      const r = await parallelCrawl(db, [...flags, '--parts', '4', '--model', 'page', '--assign', 'hash', '--broker', cluster.urls, '--json'], async (parts) => {
        await processes(parts);
        await partsBegun(parts, 4);
        await sleep(1000);
        before = await cluster.stream(`crawlbench_${name}`);
        killed = before.leader;
        cluster.kill(killed);
        server.setTimeFactor(0);
      });
      expect(r.code, r.stderr).toBe(0);
      const s = JSON.parse(r.stdout) as ParallelSummaryJson & { replicas: number };
      // Three copies, taken from the cluster's size (no --replicas given): a leader and two followers.
      expect(s.replicas).toBe(3);
      expect(before).toMatchObject({ replicas: 3, leader: expect.stringMatching(/^n\d$/), followers: [expect.any(String), expect.any(String)] });
      for (const bucket of [`KV_crawlbench_${name}`, `KV_crawlbench_${name}_leases`]) expect((await cluster.stream(bucket)).replicas).toBe(3);
      // The stream lives on, led by another server.
      expect((await cluster.stream(`crawlbench_${name}`)).leader).not.toBe(killed);
      expect(fetchedUrls(db)).toEqual(truth);
      expect(s.merge.pagesFetched).toBe(truth.length);
      expect(s.merge.fetchedTwice).toBe(0);
      // No worker died: no page was asked twice.
      expect(repeats(from)).toEqual([]);
    } finally {
      await cluster.stop();
    }
  }, 150_000);

  it("messages on a part's subject that are not the exchange's (not JSON, fields of the wrong type, a part that does not exist) are refused and dropped: the crawl ends whole", async () => {
    // Before: not JSON came back every 5 s and the crawl never ended; a field of the wrong type
    // broke the writer's batch and the worker died and was restarted on the same message.
    const name = 'foreign';
    const db = join(dir, `${name}.db`);
    onTestFinished(() => killLeftovers(join(dir, `${name}.parts`)));
    onTestFinished(() => void server.setTimeFactor(1));
    const broker = await EmbeddedBroker.start(findNatsServer(), join(dir, 'foreign-broker'), null, () => {});
    const nc = await connect({ servers: broker.url });
    try {
      const r = await parallelCrawl(db, [...flags, '--parts', '2', '--model', 'site', '--assign', 'hash', '--broker', broker.url, '--json'], async (parts) => {
        await processes(parts, 2);
        await partsBegun(parts, 2);
        const js = jetstream(nc);
        for (const payload of ['garbage{', '{"id":"x1","from":{},"links":[]}', '{"id":"x2","from":"abc","links":[["http://a.test/",0,0,null,0]]}', '{"id":"x3","from":9,"links":[]}', '{"id":"x4","from":1,"links":[["http://a.test/",-1000000,-7,null,0]]}']) {
          await js.publish(`crawlbench.${name}.part.0`, payload, { msgID: `foreign-${payload.length}-${payload.slice(0, 12)}` });
        }
        // A status that is not a worker's, written over part 0's for 3 s (its worker writes its own every 500 ms, the coordinator reads it as often).
        const kv = await new Kvm(nc).open(`crawlbench_${name}`);
        for (let i = 0; i < 60; i++) {
          await kv.put('status.0', i % 2 ? 'garbage{' : JSON.stringify({ part: 0, idle: 'yes' }));
          await sleep(50);
        }
        // What was sent is sent: the rest of the crawl without the web's latency.
        server.setTimeFactor(0);
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/part 0: a message on its subject was refused, not JSON/);
      // Told once (before: taken for the broker being away, in silence), and the crawl still ends.
      expect(r.stderr.match(/part 0's status in the broker is not a worker's \((not JSON|pid: )/g), r.stderr).toHaveLength(1);
      expect(fetchedUrls(db)).toEqual(truth);
      const s = JSON.parse(r.stdout) as ParallelSummaryJson;
      expect(s.merge.pagesFetched).toBe(truth.length);
    } finally {
      await nc.close();
      await broker.stop();
    }
  }, 150_000);

  it('a worker that keeps dying at once is started again later each time, not every 300 ms for ever', async () => {
    const name = 'unopenable';
    const db = join(dir, `${name}.db`);
    onTestFinished(() => killLeftovers(join(dir, `${name}.parts`)));
    // Part 1's write-ahead log is a folder: SQLite cannot open the part, its worker dies at once (exit 1), every time.
    mkdirSync(join(dir, `${name}.parts`, 'part-1.db-wal'), { recursive: true });
    const run = startCrawl(db, [...flags, '--parts', '2', '--model', 'site', '--assign', 'hash']);
    // Until the coordinator has said three times when it starts worker 1 again (each start is a
    // process of its own: a fixed 12 s saw only two on a loaded machine, and waited out 12 s on any other).
    let said = '';
    run.child.stderr!.on('data', (b: Buffer) => (said += b));
    for (let i = 0; i < 600 && (said.match(/worker 1 \(parts 1\) ended \(exit 1\); starting it again/g) ?? []).length < 3; i++) await sleep(100);
    run.child.kill('SIGINT');
    const r = await run.done;
    const waits = [...r.stderr.matchAll(/worker 1 \(parts 1\) ended \(exit 1\); starting it again in ([\d.]+) s/g)].map((m) => Number(m[1]));
    expect(waits.length, r.stderr).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBe(Math.min(60, 2 * waits[i - 1]!));
    expect(r.stdout).toMatch(/^paused: every worker committed its part/m);
  }, 120_000);

  it("a page whose links to another part pass the broker's largest message is sent in several: the crawl ends with every page", async () => {
    // Before: one message a page and part, over 1 MiB, refused by the broker at every try; the crawl never ended.
    const n = 4000;
    const long = (i: number) => `/p${i}?${'q'.repeat(600)}`;
    const { port } = await serve(handWeb([{ host: 'big.test', latencyMs: 0, pages: [{ path: '/', links: Array.from({ length: n }, (_, i) => long(i)) }, ...Array.from({ length: n }, (_, i) => ({ path: long(i), links: [] }))] }]));
    const db = join(dir, 'wide.db');
    onTestFinished(() => killLeftovers(join(dir, 'wide.parts')));
    const r = await parallelCrawl(db, ['--seed', `http://big.test:${port}/`, '--resolve', 'big.test=127.0.0.1', '--w', '0', '--r', '8', '--c', '100', '--quiet', '--parts', '2', '--model', 'page', '--assign', 'hash', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/max_payload/);
    expect(fetchedUrls(db)).toHaveLength(n + 1);
  }, 150_000);

});
