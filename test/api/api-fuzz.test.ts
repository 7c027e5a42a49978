/**
 * Every API call fuzzed (issue 23): every method of API_METHODS called over the WebSocket
 * transport and over the IPC transport with arbitrary arguments (wrong types, huge strings and
 * lists, deep nesting, NaN and Infinity where numbers go, unknown fields, very long ids), and
 * whole messages that are not calls, against a real EngineApi whose workspace holds a finished
 * crawl. Over WebSocket also raw frames JSON cannot read (NaN and Infinity spelt out, cut text).
 *
 * Every call is answered in time (a result, or an error with a stable CRAWL_ code), health()
 * answers afterwards, and the finished crawl is unchanged: its listCrawls() entry and its
 * file's bytes. Methods that would change it legitimately (start, stop, delete, PageRank) and
 * the long jobs (export, partition, compare, simulation, evaluation) never get its id.
 *
 * Bounded and seeded: NUM_RUNS runs per property, seed SEED (CRAWLBENCH_FUZZ_SEED overrides
 * it); a failure prints the seed and the shrunk counterexample (fast-check's report), so
 * `CRAWLBENCH_FUZZ_SEED=<seed> npx vitest run test/api/api-fuzz.test.ts` replays it.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBrowserServer, type BrowserServer } from '../../core/api/browser-server.js';
import { API_METHODS, type CrawlInfo } from '../../core/api/contract.js';
import { EngineApi } from '../../core/api/engine-api.js';
import { IPC_CALL, serveIpc } from '../../core/api/ipc.js';
import { API_LIMITS } from '../../core/api/limits.js';
import type { RpcMessage } from '../../core/api/rpc.js';
import { generateWeb } from '../../core/testweb/generator.js';
import { seedUrls } from '../../core/testweb/web.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, serve, testSettings } from '../helpers/web.js';
import { fakeIpcPair } from './fake-ipc.js';

const SEED = process.env.CRAWLBENCH_FUZZ_SEED ? Number(process.env.CRAWLBENCH_FUZZ_SEED) : 230_023;
const NUM_RUNS = process.env.CRAWLBENCH_FUZZ_RUNS ? Number(process.env.CRAWLBENCH_FUZZ_RUNS) : 1000;
/** Every call is answered within this, or the run fails. */
const ANSWER_MS = 10_000;
/** The finished crawl of the workspace. */
const FIN = 'fin';

/**
 * Methods that change a crawl they are given, or start long work on it: never given FIN's id
 * (a run whose arguments name it is skipped). Every other method may read FIN.
 */
const NOT_WITH_FIN = new Set<string>(['start', 'resume', 'stop', 'pause', 'deleteCrawl', 'runPageRank', 'runEvaluation', 'startExport', 'partitionCrawl', 'exportGraph', 'compareCrawls', 'startSimulation']);

/** Arguments nested `depth` deep, alternating lists and objects. */
function nested(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { deeper: v };
  return v;
}

const number = fc.oneof(fc.double(), fc.constantFrom(NaN, Infinity, -Infinity, -0, 2 ** 53 + 1, -1, 0, 1e308), fc.integer());
const id = fc.oneof(
  fc.constantFrom(FIN, 'nope', '../fin', 'fin.db', 'fin/../fin', '', ' ', '.', '\u0000', 'con', 'a'.repeat(101), 'x'.repeat(20_000), 'CRAWL_INTERNAL', '__proto__', 'constructor'),
  fc.string({ maxLength: 40 }),
);
/** Fields the API's requests have, with values of any type. */
const FIELDS = ['name', 'seedText', 'seedUploadId', 'demoWeb', 'policy', 'policyParams', 'w', 'c', 'r', 'batch', 'maxPages', 'maxDepth', 'limit', 'offset', 'sort', 'descending', 'host', 'state', 'errorsOnly', 'url', 'status', 'type', 'depth', 'format', 'what', 'out', 'models', 'parts', 'runs', 'jobId', 'source', 'policies', 'uploadId', 'linkLimit', 'inOffset', 'outOffset', 'top', 'oracle', 'points', 'threshold'];
const leaf = fc.oneof(number, fc.string({ maxLength: 60 }), fc.boolean(), fc.constant(null), id);
const requestLike = fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 12 })), fc.oneof(leaf, fc.array(leaf, { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 8 }), leaf, { maxKeys: 3 })), { maxKeys: 6 });
const huge = fc.oneof(
  fc.integer({ min: 100_000, max: 1_200_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 1_000, max: 120_000 }).map((n) => new Array<number>(n).fill(7)),
  fc.integer({ min: 1_000, max: 120_000 }).map((n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]))),
  fc.integer({ min: 10, max: 1_000 }).map(nested),
);
const arg = fc.oneof({ arbitrary: leaf, weight: 4 }, { arbitrary: requestLike, weight: 4 }, { arbitrary: fc.jsonValue({ maxDepth: 4 }), weight: 2 }, { arbitrary: huge, weight: 1 });
/**
 * A call: a method, its first argument most often the finished crawl's id or another id (so
 * that the reading methods get past it), then anything, with one to three arguments most often.
 */
const call = fc
  .record({
    name: fc.constantFrom(...API_METHODS),
    first: fc.oneof({ arbitrary: fc.constant(FIN), weight: 3 }, { arbitrary: id, weight: 2 }, { arbitrary: arg, weight: 2 }),
    rest: fc.array(arg, { maxLength: 4 }),
    argCount: fc.oneof({ arbitrary: fc.integer({ min: 1, max: 3 }), weight: 4 }, { arbitrary: fc.integer({ min: 0, max: 9 }), weight: 1 }),
  })
  .map(({ name, first, rest, argCount }) => ({ name, data: [first, ...rest].slice(0, argCount) }));
/** A whole message that may not be a call at all. */
const message = fc.oneof(
  { arbitrary: call.map((c) => ({ kind: 'call', ...c }) as Record<string, unknown>), weight: 6 },
  { arbitrary: fc.record({ kind: fc.oneof(fc.constantFrom('call', 'result', 'event', 'host-call', 'nope'), leaf), name: fc.oneof(fc.constantFrom(...API_METHODS), leaf), data: arg }, { requiredKeys: [] }), weight: 2 },
  { arbitrary: requestLike, weight: 1 },
);

/** Whether a call would give FIN's id to a method that must never get it. */
function touchesFin(msg: Record<string, unknown>): boolean {
  return typeof msg.name === 'string' && NOT_WITH_FIN.has(msg.name) && JSON.stringify(msg).includes(`"${FIN}`);
}

/** What an answer must be: a result, or an error with a stable code. Returns its code (or 'result'). */
function checkAnswer(reply: RpcMessage | undefined, sent: Record<string, unknown>): string {
  expect(reply, 'an answer').toBeDefined();
  expect(['result', 'error']).toContain(reply!.kind);
  if (reply!.kind === 'result') return 'result';
  expect(reply!.error?.code, JSON.stringify(reply!.error)).toMatch(/^CRAWL_[A-Z0-9_]+$/);
  expect(typeof reply!.error?.message).toBe('string');
  if (typeof sent.id === 'number') expect(reply!.id).toBe(sent.id);
  return reply!.error!.code;
}

/** One connection for the fuzz, opened again whenever a raw frame closes it. */
class FuzzSocket {
  private ws: WebSocket | undefined;
  private waiting: ((m: { reply?: RpcMessage; closed?: { code: number; reason: string } }) => void) | null = null;
  constructor(private readonly url: string) {}

  async open(): Promise<void> {
    const ws = (this.ws = new WebSocket(this.url, { maxPayload: 256 * 1024 * 1024 }));
    ws.on('error', () => undefined);
    ws.on('message', (raw) => {
      const msg = JSON.parse(raw.toString()) as RpcMessage;
      if (msg.kind !== 'event') this.waiting?.({ reply: msg });
    });
    ws.on('close', (code, reason) => this.waiting?.({ closed: { code, reason: reason.toString() } }));
    await new Promise((resolve) => ws.once('open', resolve));
  }

  /** Sends one frame and resolves with the next answer or the close, or fails after ANSWER_MS. */
  async send(frame: string): Promise<{ reply?: RpcMessage; closed?: { code: number; reason: string } }> {
    if (this.ws?.readyState !== WebSocket.OPEN) await this.open();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer in ${ANSWER_MS} ms to ${frame.slice(0, 200)}`)), ANSWER_MS);
      this.waiting = (m) => {
        clearTimeout(timer);
        this.waiting = null;
        resolve(m);
      };
      this.ws!.send(frame);
    });
  }

  close(): void {
    this.ws?.close();
  }
}

describe(`every API call fuzzed over WebSocket and IPC (fast-check, seed ${SEED}, ${NUM_RUNS} runs each)`, async () => {
  const web = generateWeb({ seed: 7, sites: 3, pages: 40, latency: { maxMs: 0 } });
  const { port } = await serve(web);
  const dir = tmpDir('cb-fuzz-');
  const workspace = join(dir, 'ws');
  mkdirSync(join(dir, 'static'), { recursive: true });
  mkdirSync(workspace, { recursive: true });
  const seeds = seedUrls(web, port);
  await crawl(join(workspace, `${FIN}.db`), testSettings(seeds, { scope: { hosts: seeds.map((s) => new URL(s).hostname) } }));

  let engine: EngineApi;
  let server: BrowserServer;
  const logged: string[] = [];
  const codes = new Map<string, Map<string, number>>();
  let before: { info: CrawlInfo; sha: string };

  const snapshot = async () => {
    const info = (await engine.listCrawls()).find((c) => c.id === FIN)!;
    const sha = createHash('sha256').update(readFileSync(join(workspace, `${FIN}.db`))).digest('hex');
    return { info, sha };
  };
  const count = (transport: string, msg: Record<string, unknown>, code: string) => {
    const key = `${transport} ${msg.kind === 'call' && (API_METHODS as readonly unknown[]).includes(msg.name) ? msg.name : '(not a call)'}`;
    const m = codes.get(key) ?? new Map<string, number>();
    m.set(code, (m.get(code) ?? 0) + 1);
    codes.set(key, m);
  };

  beforeAll(async () => {
    engine = new EngineApi(workspace);
    server = await startBrowserServer({ api: engine, staticDir: join(dir, 'static'), log: (l) => logged.push(l) });
    before = await snapshot();
    expect(before.info).toMatchObject({ id: FIN, status: 'finished' });
    expect(before.info.pagesFetched).toBeGreaterThan(10);
  });
  afterAll(async () => {
    await engine?.close();
    await server?.close();
  });

  const finUnchanged = async () => {
    const after = await snapshot();
    expect(after.info).toEqual(before.info);
    expect(after.sha).toBe(before.sha);
    const h = await engine.health();
    expect(h).toMatchObject({ ok: true, crawls: [] });
  };

  it('over WebSocket: every message answered with a result or a stable code; frames JSON cannot read close only their socket', async () => {
    const sock = new FuzzSocket(`ws://127.0.0.1:${server.port}/api?token=${server.token}`);
    let nextId = 1;
    try {
      await fc.assert(
        fc.asyncProperty(message, fc.constantFrom('json', 'json', 'json', 'raw-numbers', 'cut'), async (m, how) => {
          fc.pre(!touchesFin(m));
          const msg = { ...m, id: nextId++ };
          if (how === 'json') {
            const frame = JSON.stringify(msg);
            const got = await sock.send(frame);
            if (Buffer.byteLength(frame) > API_LIMITS.messageBytes) {
              expect(got.closed?.code).toBe(1009);
              count('ws', msg, 'closed 1009');
            } else {
              expect(got.closed, `closed on ${frame.slice(0, 200)}`).toBeUndefined();
              count('ws', msg, checkAnswer(got.reply, msg));
            }
          } else {
            // NaN and Infinity spelt out, as JSON has no words for them; or the frame cut short.
            const frame = how === 'cut' ? JSON.stringify(msg).slice(0, -1) : `{"kind":"call","id":${msg.id},"name":${JSON.stringify(typeof (msg as { name?: unknown }).name === 'string' ? (msg as { name: string }).name : 'listCrawls')},"data":["${FIN}",NaN,Infinity,-Infinity]}`;
            const got = await sock.send(frame);
            expect(got.closed).toEqual({ code: 1007, reason: 'not JSON' });
            count('ws', msg, 'closed 1007');
          }
        }),
        { seed: SEED, numRuns: NUM_RUNS, endOnFailure: true },
      );
    } finally {
      sock.close();
    }
    await finUnchanged();
    // health() over the transport too, on a fresh socket.
    const fresh = new FuzzSocket(`ws://127.0.0.1:${server.port}/api?token=${server.token}`);
    const h = await fresh.send(JSON.stringify({ kind: 'call', id: 1, name: 'health', data: [] }));
    expect(h.reply).toMatchObject({ kind: 'result', id: 1, data: { ok: true, pid: process.pid } });
    fresh.close();
  }, 180_000);

  it('over IPC: every message answered with a result or a stable code (NaN, Infinity and undefined arrive as they are)', async () => {
    const { ipcMain, ipcRenderer } = fakeIpcPair();
    const served = serveIpc(engine, ipcMain, { log: (l) => logged.push(l) });
    let nextId = 1;
    try {
      await fc.assert(
        fc.asyncProperty(message, async (m) => {
          fc.pre(!touchesFin(m));
          const msg = { ...m, id: nextId++ };
          let timer: ReturnType<typeof setTimeout> | undefined;
          const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${ANSWER_MS} ms`)), ANSWER_MS)));
          try {
            const reply = await Promise.race([ipcRenderer.invoke(IPC_CALL, msg as unknown as RpcMessage), late]);
            count('ipc', msg, checkAnswer(reply, msg));
          } finally {
            clearTimeout(timer);
          }
        }),
        { seed: SEED, numRuns: NUM_RUNS, endOnFailure: true },
      );
      const health = await ipcRenderer.invoke(IPC_CALL, { kind: 'call', id: 1, name: 'health', data: [] });
      expect(health).toMatchObject({ kind: 'result', data: { ok: true, pid: process.pid } });
    } finally {
      served.close();
    }
    await finUnchanged();
  }, 180_000);

  it('reached every method on both transports, and said each internal error in one line naming its method', () => {
    for (const t of ['ws', 'ipc']) {
      const reached = API_METHODS.filter((name) => codes.has(`${t} ${name}`));
      expect(reached, t).toEqual([...API_METHODS]);
    }
    if (process.env.CRAWLBENCH_FUZZ_REPORT) for (const [k, m] of [...codes].sort()) console.log(k, Object.fromEntries(m));
    const internal = [...codes].filter(([, m]) => m.has('CRAWL_INTERNAL'));
    expect(logged.filter((l) => l.startsWith('internal error in ')).length).toBe(internal.reduce((n, [, m]) => n + m.get('CRAWL_INTERNAL')!, 0));
  });
});
