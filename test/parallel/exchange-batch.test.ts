/**
 * --exchange-batch (issue 25, item 5) and the lease traffic counted apart (item 3), end to end:
 * the built `crawlbench crawl --parts 4 ... --exchange-batch 2s` against a real nats-server (the
 * embedded one) and the real test web, each merged crawl compared with a single-process crawl of
 * the same web. Batching merges page messages into fewer messages and never loses or adds a URL:
 * the merged crawl's fetched URLs are the single crawl's; the summary's causes (messages merged
 * by batching, URL bytes a batch carried once) add up to the difference between partition-eval's
 * prediction and the measurement; a worker killed with SIGKILL while it holds URLs for a batch
 * loses none, and its batches are counted once on both sides.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { generateWeb } from '../../core/testweb/generator.js';
import { seedUrls } from '../../core/testweb/web.js';
import { BIN, crawlbench, type RunResult } from '../helpers/run.js';
import { fetchedUrls, sqlRows } from '../helpers/crawl-db.js';
import { tmpDir } from '../helpers/tmp.js';
import { serve } from '../helpers/web.js';
import { describeWith } from '../references.js';

const dir = tmpDir('crawlbench-exchange-batch-');

interface Count {
  worker: number;
  direction: 'sent' | 'received';
  messages: number;
  pageMessages: number;
}

interface Summary {
  merge: { pagesFetched: number; fetchedTwice: number; exchange: Count[]; workers: { part: number; pagesFetched: number; leaseRequests: number }[] };
  measured: { messages: number; volume: number; pageMessages: number; pageVolume: number };
  prediction: { messages: number; volume: number } | null;
  batching: { batchMs: number; messagesMerged: number; urlsMerged: number; bytesSaved: number; meanHeldMs: number } | null;
  difference: { messages: number; volume: number; unexplainedMessages: number; unexplainedVolume: number } | null;
  leases: { requests: number; bytes: number };
  workerRestarts: number;
}



/** Starts `crawlbench crawl ...`; `during` runs while it crawls. */
function crawl(args: string[], during?: () => Promise<void>): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'crawl', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b));
    child.stderr.on('data', (b: Buffer) => (stderr += b));
    child.on('error', reject);
    // A crawl that does not end is interrupted (it pauses) so that the test says what it printed.
    const guard = setTimeout(() => child.kill('SIGINT'), 100_000);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
    if (during) void during().catch(reject);
  });
}

/** Page messages a part holds for a batch (0 before its tables exist). */
function heldFor(partDb: string): number {
  try {
    return sqlRows<{ n: number }>(partDb, 'SELECT count(*) AS n FROM exchange_held')[0]!.n;
  } catch {
    return 0;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const total = (s: Summary, dir: 'sent' | 'received', f: (c: Count) => number) => s.merge.exchange.filter((e) => e.direction === dir).reduce((n, e) => n + f(e), 0);

describeWith(['nats-server'], 'parallel crawl with --exchange-batch: fewer messages, the same crawl', async () => {
  const web = generateWeb({ seed: 25, sites: 24, pages: 600, latency: { maxMs: 5 } });
  const { port } = await serve(web);
  const seeds = join(dir, 'seeds.txt');
  writeFileSync(seeds, seedUrls(web, port).join('\n') + '\n');
  const flags = ['--seeds', seeds, '--resolve', '*.demo=127.0.0.1', '--w', '0', '--r', '8', '--retry-base', '200ms'];
  const single = join(dir, 'single.db');
  let truth: string[] = [];

  beforeAll(async () => {
    const r = await crawlbench(['crawl', '--db', single, ...flags, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    truth = fetchedUrls(single);
    expect(truth.length).toBeGreaterThan(500);
  }, 120_000);

  /** The summary's account: batching merged page messages, and its causes are the whole difference from the prediction. */
  function expectCausesAddUp(s: Summary): void {
    expect(s.prediction).not.toBeNull();
    // Before batching the exchange is the thesis's: partition-eval's prediction exactly.
    expect(s.measured.pageMessages).toBe(s.prediction!.messages);
    expect(s.measured.pageVolume).toBe(s.prediction!.volume);
    expect(s.batching!.messagesMerged).toBeGreaterThan(0);
    expect(s.measured.messages).toBeLessThan(s.prediction!.messages);
    expect(s.prediction!.messages - s.measured.messages).toBe(s.batching!.messagesMerged);
    expect(s.prediction!.volume - s.measured.volume).toBe(s.batching!.bytesSaved);
    expect(s.difference).toEqual({ messages: s.batching!.messagesMerged, volume: s.batching!.bytesSaved, unexplainedMessages: 0, unexplainedVolume: 0 });
    // Every batch sent was taken in once, and the page messages it carried with it.
    expect(total(s, 'received', (e) => e.messages)).toBe(total(s, 'sent', (e) => e.messages));
    expect(total(s, 'received', (e) => e.pageMessages)).toBe(total(s, 'sent', (e) => e.pageMessages));
  }

  it('a site hash, K = 4, --exchange-batch 2s: the merged crawl is the single crawl; predicted - measured messages is what batching merged; no lease traffic', async () => {
    const db = join(dir, 'site-batch.db');
    const r = await crawl(['--db', db, ...flags, '--parts', '4', '--model', 'site', '--assign', 'hash', '--exchange-batch', '2s', '--predict-from', single, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout, r.stderr.slice(-3000)).toMatch(/^\{/);
    const s = JSON.parse(r.stdout) as Summary;
    expect(fetchedUrls(db)).toEqual(truth);
    expect(s.merge.fetchedTwice).toBe(0);
    expect(s.batching).toMatchObject({ batchMs: 2000 });
    // A page's URLs waited about the batch's time for it (sealed after a commit, about once a second).
    expect(s.batching!.meanHeldMs).toBeGreaterThanOrEqual(1000);
    expectCausesAddUp(s);
    // A site assignment keeps politeness local: no lease asked for, and none in the timelines.
    expect(s.leases.requests).toBe(0);
    expect(s.merge.workers.map((w) => w.leaseRequests)).toEqual([0, 0, 0, 0]);
    expect(sqlRows(db, "SELECT * FROM exchange_timeline WHERE direction = 'lease'")).toEqual([]);
  }, 120_000);

  it('a page hash, K = 4, --exchange-batch 2s: the same; the lease traffic counted apart in the live line, the summary and each worker\'s timeline', async () => {
    const db = join(dir, 'page-batch.db');
    const r = await crawl(['--db', db, ...flags, '--parts', '4', '--model', 'page', '--assign', 'hash', '--exchange-batch', '2s', '--predict-from', single]);
    expect(r.code, r.stderr).toBe(0);
    expect(fetchedUrls(db)).toEqual(truth);
    // The printed summary states the causes, and they add up to the difference.
    const m = /exchange measured\s+messages (\d+), volume (\d+) bytes/.exec(r.stdout);
    const p = /exchange predicted\s+messages (\d+), volume (\d+) bytes/.exec(r.stdout);
    const d = /difference \(predicted - measured\): (\d+) messages, (\d+) bytes; causes: merged by batching (\d+) messages and (\d+) bytes; not explained by them: (-?\d+) messages, (-?\d+) bytes/.exec(r.stdout);
    expect(m && p && d, r.stdout).toBeTruthy();
    const [measuredMessages, predictedMessages, merged] = [Number(m![1]), Number(p![1]), Number(d![3])];
    expect(merged).toBeGreaterThan(0);
    expect(predictedMessages - measuredMessages).toBe(merged);
    expect(Number(p![2]) - Number(m![2])).toBe(Number(d![4]));
    expect([d![5], d![6]]).toEqual(['0', '0']);
    // The same figures as partition-eval states for this assignment on the single crawl's graph.
    const ev = await crawlbench(['partition-eval', '--graph', single, '--model', 'page', '--parts', '4', '--assign', 'hash', '--json']);
    expect(ev.code, ev.stderr).toBe(0);
    expect((JSON.parse(ev.stdout) as { messages: number }).messages).toBe(predictedMessages);
    // Lease traffic: in the live line, in the summary, and in every worker's timeline.
    const live = [...r.stderr.matchAll(/lease requests (\d+); workers/g)].map((x) => Number(x[1]));
    expect(live.length, r.stderr).toBeGreaterThan(0);
    expect(Math.max(...live)).toBeGreaterThan(0);
    const leases = /lease traffic \(apart from the exchange\): (\d+) requests, (\d+) bytes/.exec(r.stdout);
    expect(Number(leases![1])).toBeGreaterThan(0);
    const timeline = sqlRows<{ worker: number; requests: number }>(db, "SELECT worker, max(messages) AS requests FROM exchange_timeline WHERE direction = 'lease' GROUP BY worker ORDER BY worker");
    expect(timeline.map((t) => t.worker)).toEqual([0, 1, 2, 3]);
    for (const t of timeline) expect(t.requests).toBeGreaterThan(0);
    // The exchange's timeline: each worker's messages to every other part, rising to its totals.
    const sent = sqlRows<{ worker: number; part: number; messages: number }>(db, "SELECT worker, part, max(messages) AS messages FROM exchange_timeline WHERE direction = 'sent' GROUP BY worker, part");
    const counts = sqlRows<{ worker: number; part: number; messages: number }>(db, "SELECT worker, part, messages FROM exchange_counts WHERE direction = 'sent'");
    expect(sent.length).toBe(12);
    for (const c of counts) expect(sent.find((x) => x.worker === c.worker && x.part === c.part)?.messages).toBeLessThanOrEqual(c.messages);
  }, 120_000);

  it('kill -9 of a worker while it holds URLs for a batch: restarted, it sends them; nothing lost, every batch counted once on each side', async () => {
    const db = join(dir, 'kill-batch.db');
    const parts = join(dir, 'kill-batch.parts');
    const r = await crawl(['--db', db, ...flags, '--quiet', '--parts', '4', '--model', 'site', '--assign', 'hash', '--exchange-batch', '3s', '--predict-from', single, '--json'], async () => {
      const file = join(parts, 'coordinator.json');
      for (let i = 0; i < 200 && !existsSync(join(parts, 'part-1.db')); i++) await sleep(100);
      // Once part 1 holds URLs for a batch (committed, not yet sent).
      for (let i = 0; i < 100; i++) {
        if (heldFor(join(parts, 'part-1.db')) > 0) break;
        await sleep(100);
      }
      const p = JSON.parse(readFileSync(file, 'utf8')) as { workers: number[] };
      process.kill(p.workers[1]!, 'SIGKILL');
    });
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout) as Summary;
    expect(s.workerRestarts).toBeGreaterThanOrEqual(1);
    expect(fetchedUrls(db)).toEqual(truth);
    expectCausesAddUp(s);
  }, 120_000);
});
