/**
 * A crawl never dies with the server (issue 23): each running crawl has its own process, so
 * a `crawlbench serve` killed with SIGKILL while two crawls run takes neither with it; the
 * server started again attaches to both without a user action, and each ends with the same
 * fetched URLs as an uninterrupted crawl of the same web. And the engine's host (Electron's
 * utility process, a forked Node child here) is started again by the supervisor after a
 * crash, its API object working on.
 */
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { CrawlInfo, CrawlbenchApi, StatsEvent } from '../../core/api/contract.js';
import { superviseEngine, type EngineChild } from '../../core/api/engine-supervisor.js';
import { workspaceHost } from '../../core/api/host.js';
import type { RpcMessage } from '../../core/api/rpc.js';
import { generateWeb } from '../../core/testweb/generator.js';
import { seedUrls } from '../../core/testweb/web.js';
import { fetchedUrls } from '../helpers/crawl-db.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, serve, testSettings } from '../helpers/web.js';
import { httpCall, startServe, type ServeProcess } from '../ui/serve-process.js';

const web = generateWeb({ seed: 23, sites: 12, pages: 500, latency: { maxMs: 10 } });
const dir = tmpDir('crawlbench-crash-');


async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('a crawl outlives its server', async () => {
  const { port } = await serve(web);
  const seeds = seedUrls(web, port);
  const request = (name: string, w: number) => ({ name, seedText: seeds.join('\n'), resolve: [{ pattern: '*', address: '127.0.0.1' }], w, c: 1, r: 8 });
  let serveProc: ServeProcess | undefined;
  afterAll(async () => serveProc?.stop());

  it('SIGKILL of serve with two crawls running: a new serve attaches to both, and they end as uninterrupted crawls do', async () => {
    const workspace = join(dir, 'ws');
    serveProc = await startServe(['--dir', workspace]);
    const call = async <T>(s: ServeProcess, name: string, data: unknown[]) => {
      const r = await httpCall(s.origin, s.token, name, data);
      if (r.status !== 200) throw new Error(`${name}: ${JSON.stringify(r.body)}`);
      return (r.body as { data: T }).data;
    };
    for (const [name, w] of [['one', 60], ['two', 90]] as const) {
      await call(serveProc, 'createCrawl', [request(name, w)]);
      await call(serveProc, 'start', [name]);
    }
    // Both under way, neither near its end.
    const first = serveProc;
    await until('pages in both crawls', async () => {
      const stats = await Promise.all(['one', 'two'].map((id) => call<StatsEvent | null>(first, 'currentStats', [id])));
      return stats.every((s) => (s?.pages ?? 0) >= 20) ? true : undefined;
    });
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    expect(existsSync(join(workspace, 'one.db.runner')) && existsSync(join(workspace, 'two.db.runner'))).toBe(true);

    // Started again: nobody presses Start.
    serveProc = await startServe(['--dir', workspace]);
    const second = serveProc;
    const listed = await call<CrawlInfo[]>(second, 'listCrawls', []);
    expect(listed.map((c) => [c.id, c.status]).sort()).toEqual([['one', 'running'], ['two', 'running']]);
    const ended = await until('both crawls finished', async () => {
      const all = await call<CrawlInfo[]>(second, 'listCrawls', []);
      return all.every((c) => c.status === 'finished') ? all : undefined;
    });
    expect(ended).toHaveLength(2);

    const reference = join(dir, 'uninterrupted.db');
    await crawl(reference, testSettings(seeds, { scope: { hosts: seeds.map((s) => new URL(s).hostname) }, r: 8 }));
    const want = fetchedUrls(reference);
    expect(want.length).toBeGreaterThan(400);
    expect(fetchedUrls(join(workspace, 'one.db'))).toEqual(want);
    expect(fetchedUrls(join(workspace, 'two.db'))).toEqual(want);
  }, 180_000);
});

const CHILD = fileURLToPath(new URL('./fixtures/engine-child.mjs', import.meta.url));

describe('the engine host started again after a crash', async () => {
  const { port } = await serve(web);
  const seeds = seedUrls(web, port);

  it('kill -9 of the engine process: the pending call fails with CRAWL_INTERNAL, a new process attaches to the running crawl, the same API object answers', async () => {
    const workspace = join(dir, 'supervised');
    const pids: number[] = [];
    const engine = superviseEngine(() => {
      const child = fork(CHILD, [workspace], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      pids.push(child.pid!);
      return {
        send: (msg: RpcMessage) => child.connected && child.send(msg),
        onMessage: (cb) => child.on('message', cb),
        onExit: (cb) => child.once('exit', (code) => cb(code)),
        kill: () => void child.kill('SIGTERM'),
      } satisfies EngineChild;
    }, { host: workspaceHost });
    const api: CrawlbenchApi = engine.api;
    try {
      await api.createCrawl({ name: 'held', seedText: seeds.join('\n'), resolve: [{ pattern: '*', address: '127.0.0.1' }], w: 60, c: 1, r: 8 });
      await api.start('held');
      await until('pages', async () => ((await api.currentStats('held'))?.pages ?? 0) >= 20 || undefined);
      // Stopped first, so the call is surely pending (a running engine could answer it before the kill lands).
      process.kill(pids[0]!, 'SIGSTOP');
      const pending = api.listCrawls();
      process.kill(pids[0]!, 'SIGKILL');
      await expect(pending).rejects.toMatchObject({ code: 'CRAWL_INTERNAL' });
      const running = await until('the new engine', async () => {
        const all = await api.listCrawls().catch(() => undefined);
        return all?.find((c) => c.id === 'held');
      });
      expect(running.status).toBe('running');
      expect(engine.restarts()).toBe(1);
      expect(pids).toHaveLength(2);
      const done = await until('the end of the crawl', async () => {
        const c = (await api.listCrawls()).find((x) => x.id === 'held');
        return c?.status === 'finished' ? c : undefined;
      });
      expect(done.pagesFetched).toBe(fetchedUrls(join(workspace, 'held.db')).length);
    } finally {
      engine.close();
    }
  }, 180_000);
});
