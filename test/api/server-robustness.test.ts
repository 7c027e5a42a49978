/**
 * No request can take the server down (issue 23). A new user imported a 10 MB seed file: the
 * workbench sent it as one 5 MB WebSocket message, ws refused it (over the server's maxPayload),
 * nothing handled the socket's 'error' and `crawlbench serve` exited. Here a running
 * `crawlbench serve` gets that message and every other kind of malformed frame: each closes
 * (or is answered on) its own socket only, while another socket and a running crawl carry on.
 * And a method that throws what it did not mean to, a result JSON cannot hold, a broken frame,
 * an error outside any request: the caller gets CRAWL_INTERNAL, one log line names the method,
 * and health() answers afterwards.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBrowserServer } from '../../core/api/browser-server.js';
import type { CrawlbenchApi, HealthDto, StatsEvent } from '../../core/api/contract.js';
import { EngineApi } from '../../core/api/engine-api.js';
import { ipcClient, serveIpc } from '../../core/api/ipc.js';
import { connectWebSocket } from '../../core/api/ws-client.js';
import { generateWeb } from '../../core/testweb/generator.js';
import { seedUrls } from '../../core/testweb/web.js';
import { tmpDir } from '../helpers/tmp.js';
import { serve } from '../helpers/web.js';
import { startServe, type ServeProcess } from '../ui/serve-process.js';
import { fakeIpcPair } from './fake-ipc.js';

const WS = WebSocket as unknown as Parameters<typeof connectWebSocket>[1];

/** A raw socket to a server's API (no Origin, as a script's), with calls matched by id. */
class RawSocket {
  readonly ws: WebSocket;
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly replies = new Map<unknown, (msg: Record<string, unknown>) => void>();
  readonly others: Array<Record<string, unknown>> = [];
  private nextId = 1000;

  private constructor(url: string) {
    this.ws = new WebSocket(url, { maxPayload: 256 * 1024 * 1024 });
    // Writing a large message into a socket the server has closed: EPIPE here, on this side only.
    this.ws.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    this.ws.on('message', (raw) => {
      const msg = JSON.parse(raw.toString()) as Record<string, unknown>;
      if (msg.kind === 'event') return;
      const r = this.replies.get(msg.id);
      if (r) r(msg);
      else this.others.push(msg);
    });
  }

  static async open(port: number, token: string): Promise<RawSocket> {
    const s = new RawSocket(`ws://127.0.0.1:${port}/api?token=${token}`);
    await new Promise((resolve, reject) => {
      s.ws.once('open', resolve);
      s.ws.once('unexpected-response', () => reject(new Error('upgrade refused')));
    });
    return s;
  }

  /** Sends a call and resolves with its reply (result or error message). */
  call(name: string, data: unknown[] = []): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return this.reply(id, () => this.ws.send(JSON.stringify({ kind: 'call', id, name, data })));
  }

  reply(id: unknown, send: () => void): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${String(id)} in 10 s`)), 10_000);
      this.replies.set(id, (msg) => {
        clearTimeout(timer);
        resolve(msg);
      });
      send();
    });
  }

  /** Writes raw bytes on the TCP socket under the WebSocket (a frame ws would never send). */
  writeRaw(bytes: Buffer): void {
    (this.ws as unknown as { _socket: { write(b: Buffer): void } })._socket.write(bytes);
  }
}

/** A masked client frame with a reserved opcode (3): ws refuses it with 1002 and an 'error' event. */
const BROKEN_FRAME = Buffer.from([0x83, 0x80, 0x01, 0x02, 0x03, 0x04]);

/** The message: 230,000 lines of a seed URL, 5 MB in one WebSocket message. */
const FIVE_MB_CALL = JSON.stringify({ kind: 'call', id: 1, name: 'parseSeeds', data: ['http://127.0.0.1:9/x\n'.repeat(230_000)] });

describe('crawlbench serve gets the 5 MB message and malformed frames', async () => {
  const web = generateWeb({ seed: 23, sites: 12, pages: 400, latency: { maxMs: 10 } });
  const { port: webPort } = await serve(web);
  const dir = tmpDir('cb-robust-serve-');
  let s: ServeProcess;
  let bystander: RawSocket;

  beforeAll(async () => {
    s = await startServe(['--dir', join(dir, 'ws')], { captureStderr: true });
    bystander = await RawSocket.open(Number(new URL(s.origin).port), s.token);
    const seeds = seedUrls(web, webPort);
    const req = { name: 'running', seedText: seeds.join('\n'), resolve: [{ pattern: '*', address: '127.0.0.1' }], w: 400, c: 1, r: 12 };
    expect((await bystander.call('createCrawl', [req])).kind).toBe('result');
    expect((await bystander.call('start', ['running'])).kind).toBe('result');
  }, 60_000);
  afterAll(async () => {
    bystander?.ws.close();
    await s?.stop();
  });

  const port = () => Number(new URL(s.origin).port);
  const health = async (sock = bystander) => {
    const reply = await sock.call('health');
    expect(reply).toMatchObject({ kind: 'result', data: { ok: true, pid: s.child.pid } });
    return reply.data as HealthDto;
  };
  const pages = async () => ((await bystander.call('currentStats', ['running'])).data as StatsEvent | null)?.pages ?? 0;
  /** The crawl runs on: it is attached, running, and fetches more pages. */
  const crawlCarriesOn = async () => {
    expect((await health()).crawls).toContain('running');
    const before = await pages();
    await expect.poll(pages, { timeout: 15_000, interval: 200 }).toBeGreaterThan(before);
  };

  it('the 5 MB parseSeeds message closes only its own socket, with 1009 and the limit in words; the server, another socket and the running crawl carry on', async () => {
    await crawlCarriesOn();
    const victim = await RawSocket.open(port(), s.token);
    victim.ws.send(FIVE_MB_CALL);
    const closed = await victim.closed;
    expect(closed.code).toBe(1009);
    expect(closed.reason).toMatch(/a message of 4\.\d MiB is over the 4 MiB limit of one API message/);
    expect(s.child.exitCode).toBeNull();
    expect(bystander.ws.readyState).toBe(WebSocket.OPEN);
    await crawlCarriesOn();
    // A new socket is served as before.
    const again = await RawSocket.open(port(), s.token);
    expect((await health(again)).ok).toBe(true);
    again.ws.close();
  }, 60_000);

  it('text that is not JSON (NaN included), binary frames, a message past the hard cap and a broken frame close their own socket; JSON that is not a call is answered', async () => {
    const closes: Record<string, { code: number; reason: string }> = {};
    const cases: Array<[string, (sock: RawSocket) => void]> = [
      ['not JSON', (k) => k.ws.send('{"kind":"call","id":1,"name":"listCrawls"')],
      ['NaN and Infinity', (k) => k.ws.send('{"kind":"call","id":2,"name":"timeline","data":["running",NaN,Infinity]}')],
      ['binary', (k) => k.ws.send(Buffer.from(JSON.stringify({ kind: 'call', id: 3, name: 'listCrawls', data: [] })))],
      ['past the hard cap', (k) => k.ws.send('x'.repeat(17 * 1024 * 1024))],
      ['a broken frame', (k) => k.writeRaw(BROKEN_FRAME)],
    ];
    for (const [what, send] of cases) {
      const sock = await RawSocket.open(port(), s.token);
      send(sock);
      closes[what] = await sock.closed;
      expect(s.child.exitCode, what).toBeNull();
      expect((await health()).ok).toBe(true);
    }
    expect(closes['not JSON']).toEqual({ code: 1007, reason: 'not JSON' });
    expect(closes['NaN and Infinity']).toEqual({ code: 1007, reason: 'not JSON' });
    expect(closes.binary).toEqual({ code: 1003, reason: 'binary frames are not API calls: send JSON text' });
    // ws refuses it unread, with no reason (the workbench names the limit from the code).
    expect(closes['past the hard cap']!.code).toBe(1009);
    expect(closes['a broken frame']!.code).toBe(1002);

    // Answered on a socket that stays open.
    const sock = await RawSocket.open(port(), s.token);
    const answers = [
      await sock.reply(4, () => sock.ws.send(JSON.stringify({ id: 4, hello: 'world' }))),
      await sock.reply(5, () => sock.ws.send(JSON.stringify({ kind: 'call', id: 5, name: 'noSuchMethod', data: [] }))),
      await sock.reply(6, () => sock.ws.send(JSON.stringify({ kind: 'call', id: 6, name: 'listCrawls', data: { not: 'a list' } }))),
      await sock.reply(7, () => sock.ws.send(JSON.stringify({ kind: 'result', id: 7, data: 1 }))),
      await sock.reply(8, () => sock.ws.send(JSON.stringify({ kind: 'call', id: 8, name: 'listSites', data: ['running', { limit: 'x'.repeat(1_100_000) }] }))),
      await sock.reply(9, () => sock.ws.send(`{"kind":"call","id":9,"name":"listCrawls","data":[${'['.repeat(100_000)}${']'.repeat(100_000)}]}`)),
      // String(argument) would throw in the method (found by test/api/api-fuzz.test.ts).
      await sock.reply(10, () => sock.ws.send(JSON.stringify({ kind: 'call', id: 10, name: 'cancelPartition', data: [{ toString: 1 }] }))),
    ];
    for (const a of answers) expect(a).toMatchObject({ kind: 'error', error: { code: 'CRAWL_BAD_OPTION' } });
    expect((answers[1]!.error as { message: string }).message).toBe('unknown method noSuchMethod');
    expect((answers[4]!.error as { message: string }).message).toMatch(/at most 1,048,576 characters/);
    expect((answers[5]!.error as { message: string }).message).toMatch(/nested at most 64 deep/);
    expect((answers[6]!.error as { message: string }).message).toBe('cancelPartition: an argument cannot have a field named toString');
    expect(sock.ws.readyState).toBe(WebSocket.OPEN);
    expect((await health(sock)).ok).toBe(true);
    sock.ws.close();

    await crawlCarriesOn();
    expect(bystander.ws.readyState).toBe(WebSocket.OPEN);
    // Each socket error is one line on stderr, and the process is the one that started.
    expect(s.stderr.some((l) => /^crawlbench serve: WebSocket error \(WS_ERR_INVALID_OPCODE\)/.test(l))).toBe(true);
    expect(s.stderr.some((l) => /^crawlbench serve: WebSocket error \(WS_ERR_UNSUPPORTED_MESSAGE_LENGTH\): a message over 16 MiB was refused unread/.test(l))).toBe(true);
    expect(s.child.exitCode).toBeNull();
  }, 90_000);

  it('POST /api/call over the limit gets 413 naming it', async () => {
    const res = await fetch(`${s.origin}/api/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${s.token}` },
      body: FIVE_MB_CALL,
    });
    expect(res.status).toBe(413);
    expect(await res.text()).toMatch(/one call can be at most 4 MiB/);
    await crawlCarriesOn();
  });
});

/** The engine with methods that fail as no method means to: a TypeError, an unknown code, a thrown string, a BigInt result. */
function faulty(engine: EngineApi): CrawlbenchApi {
  const broken: Record<string, (...a: unknown[]) => Promise<unknown>> = {
    listSites: async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'rows')");
    },
    recentErrors: async () => {
      throw Object.assign(new Error('EACCES: permission denied, open the file'), { code: 'EACCES' });
    },
    parkedSites: async () => {
      throw 'a bare string';
    },
    listPolicies: async () => [{ name: 'big', summary: 'a BigInt', params: [], size: 10n }],
  };
  return new Proxy(engine, {
    get(target, key) {
      if (typeof key === 'string' && key in broken) return broken[key];
      const v = Reflect.get(target, key) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  }) as unknown as CrawlbenchApi;
}

describe('a method that throws what it did not mean, a socket error, an error outside any request', () => {
  const dir = tmpDir('cb-robust-inject-');
  mkdirSync(join(dir, 'static'), { recursive: true });
  const engine = new EngineApi(join(dir, 'ws'));
  const api = faulty(engine);
  const lines: string[] = [];
  const started = startBrowserServer({ api, staticDir: join(dir, 'static'), log: (l) => lines.push(l) });
  afterAll(async () => {
    await (await started).close();
    await engine.close();
  });

  it('over WebSocket: the caller gets CRAWL_INTERNAL, one log line names the method, health() answers', async () => {
    const server = await started;
    const conn = await connectWebSocket(`ws://127.0.0.1:${server.port}/api?token=${server.token}`, WS);
    const cases: Array<[string, () => Promise<unknown>, RegExp]> = [
      ['listSites', () => conn.api.listSites('x'), /^internal error in listSites: Cannot read properties of undefined \(reading 'rows'\)$/],
      ['recentErrors', () => conn.api.recentErrors('x'), /^internal error in recentErrors: EACCES: permission denied/],
      ['parkedSites', () => conn.api.parkedSites('x'), /^internal error in parkedSites: a bare string$/],
      ['listPolicies', () => conn.api.listPolicies(), /^internal error in listPolicies: Do not know how to serialize a BigInt$/],
    ];
    for (const [method, call, said] of cases) {
      await expect(call(), method).rejects.toMatchObject({ code: 'CRAWL_INTERNAL', message: expect.stringMatching(said) });
      expect(lines.filter((l) => l.startsWith(`internal error in ${method}: `)), method).toHaveLength(1);
    }
    // A socket error: a broken frame on another socket closes that socket only.
    const raw = await RawSocket.open(server.port, server.token);
    raw.writeRaw(BROKEN_FRAME);
    expect((await raw.closed).code).toBe(1002);
    expect(lines.some((l) => l.startsWith('WebSocket error (WS_ERR_INVALID_OPCODE)'))).toBe(true);
    const h = await conn.api.health();
    expect(h).toEqual({ ok: true, pid: process.pid, uptimeSeconds: expect.any(Number), crawls: [] });
    expect(await conn.api.listCrawls()).toEqual([]);
    conn.close();
  });

  it('over POST /api/call and over IPC: the same CRAWL_INTERNAL, the same log line', async () => {
    const server = await started;
    const res = await fetch(`http://127.0.0.1:${server.port}/api/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${server.token}` },
      body: JSON.stringify({ kind: 'call', id: 1, name: 'listSites', data: ['x'] }),
    });
    expect(await res.json()).toMatchObject({ kind: 'error', id: 1, error: { code: 'CRAWL_INTERNAL', message: expect.stringMatching(/^internal error in listSites: /) } });

    const ipcLines: string[] = [];
    const { ipcMain, ipcRenderer } = fakeIpcPair();
    const served = serveIpc(api, ipcMain, { log: (l) => ipcLines.push(l) });
    try {
      const client = ipcClient(ipcRenderer);
      await expect(client.listSites('x')).rejects.toMatchObject({ code: 'CRAWL_INTERNAL' });
      expect(ipcLines).toEqual(["internal error in listSites: Cannot read properties of undefined (reading 'rows')"]);
      expect((await client.health()).ok).toBe(true);
    } finally {
      served.close();
    }
  });

  it('crawlbench serve logs an error outside any request and serves on', async () => {
    const fixture = fileURLToPath(new URL('./fixtures/outside-error.mjs', import.meta.url));
    const child = spawn(process.execPath, [fixture], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(out).toBe('still serving: ok\n');
    const said = err.trim().split('\n').sort();
    expect(said).toHaveLength(2);
    expect(said[0]).toMatch(/^crawlbench serve: uncaught error outside any request, serving on: thrown in a timer \(at .*outside-error\.mjs/);
    expect(said[1]).toMatch(/^crawlbench serve: unhandled rejection outside any request, serving on: a promise nobody awaited/);
  });
});
