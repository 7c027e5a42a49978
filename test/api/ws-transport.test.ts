import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { EventEmitter } from 'node:events';
import { createServer, request } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBrowserServer } from '../../core/api/browser-server.js';
import { EngineApi } from '../../core/api/engine-api.js';
import { connectWebSocket } from '../../core/api/ws-client.js';
import { attachWebSocketApi } from '../../core/api/ws-server.js';
import { contractSuite } from './contract-suite.js';
import { shapeSuite } from './shape-suite.js';

const WS = WebSocket as unknown as Parameters<typeof connectWebSocket>[1];

const harness = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cb-ws-'));
  const engine = new EngineApi(join(dir, 'ws'));
  const server = await startBrowserServer({ api: engine, staticDir: dir });
  const conn = await connectWebSocket(`ws://127.0.0.1:${server.port}/api?token=${server.token}`, WS);
  return {
    api: conn.api,
    close: async () => {
      conn.close();
      await engine.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
shapeSuite('WebSocket (browser mode)', harness);
contractSuite('WebSocket (browser mode)', harness);

describe('browser-mode guard', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cb-guard-'));
  mkdirSync(join(dir, 'static'));
  const engine = new EngineApi(join(dir, 'ws'));
  const started = startBrowserServer({ api: engine, staticDir: join(dir, 'static') });
  afterAll(async () => {
    await (await started).close();
    rmSync(dir, { recursive: true, force: true });
  });
  const call = { kind: 'call', id: 1, name: 'listCrawls', data: [] };

  it('refuses HTTP requests and sockets without the token', async () => {
    const s = await started;
    const base = `http://127.0.0.1:${s.port}`;
    expect((await fetch(`${base}/`)).status).toBe(401);
    expect((await fetch(`${base}/api/call`, { method: 'POST', body: JSON.stringify(call) })).status).toBe(401);
    expect((await fetch(`${base}/api/call`, { method: 'POST', headers: { authorization: 'Bearer wrong' }, body: '{}' })).status).toBe(401);
    await expect(connectWebSocket(`ws://127.0.0.1:${s.port}/api?token=wrong`, WS)).rejects.toThrow(/cannot connect/);
    await expect(connectWebSocket(`ws://127.0.0.1:${s.port}/api`, WS)).rejects.toThrow(/cannot connect/);
  });

  it('answers with the token, with a strict CSP, and refuses other Host headers', async () => {
    const s = await started;
    const res = await fetch(`http://127.0.0.1:${s.port}/api/call`, { method: 'POST', headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' }, body: JSON.stringify(call) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ kind: 'result', id: 1, data: [] });
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self'/);
    // fetch() will not send another Host header; a raw request will (as a DNS-rebinding page would).
    const status = await new Promise<number>((resolve, reject) =>
      request({ host: '127.0.0.1', port: s.port, path: `/?token=${s.token}`, headers: { host: 'evil.example' } }, (r) => {
        r.resume();
        resolve(r.statusCode ?? 0);
      })
        .on('error', reject)
        .end(),
    );
    expect(status).toBe(403);
  });
});

describe('a WebSocket client that stops reading', () => {
  it('has its events skipped past the backlog instead of queued without end, and gets every answer and the events again once it reads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-backlog-'));
    const engine = new EngineApi(join(dir, 'ws'));
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const port = (server.address() as { port: number }).port;
    const lines: string[] = [];
    const wsApi = attachWebSocketApi(server, engine, { token: 'tok', allowedOrigins: () => [], allowedHosts: () => [`127.0.0.1:${port}`], log: (l) => lines.push(l), eventBacklogBytes: 256 * 1024 });
    const client = new WebSocket(`ws://127.0.0.1:${port}/api?token=tok`);
    await new Promise((resolve, reject) => client.once('open', resolve).once('error', reject));
    let events = 0;
    const answers: unknown[] = [];
    client.on('message', (d) => {
      const m = JSON.parse(String(d)) as { kind: string };
      if (m.kind === 'event') events++;
      else answers.push(m);
    });
    const emit = (data: object) => (engine as unknown as { events: EventEmitter }).events.emit('stats', { crawlId: 'x', ...data });
    try {
      // The client stops reading, and 400 events of 64 KB (25 MB) are sent to it.
      (client as unknown as { _socket: Socket })._socket.pause();
      for (let i = 0; i < 400; i++) emit({ pad: 'x'.repeat(64 * 1024) });
      expect(lines.filter((l) => /events are skipped until it reads/.test(l))).toHaveLength(1);
      (client as unknown as { _socket: Socket })._socket.resume();
      await expect.poll(() => events, { timeout: 10_000 }).toBeGreaterThan(0);
      const settle = async () => {
        let before = -1;
        while (before !== events) {
          before = events;
          await new Promise((r) => setTimeout(r, 200));
        }
      };
      await settle();
      const received = events;
      expect(received).toBeGreaterThan(0);
      expect(received).toBeLessThan(400);
      // Caught up: the next event comes, and a call is answered.
      emit({ small: 1 });
      await expect.poll(() => events, { timeout: 5000 }).toBe(received + 1);
      expect(lines.some((l) => /caught up: \d+ events were skipped/.test(l))).toBe(true);
      client.send(JSON.stringify({ kind: 'call', id: 7, name: 'listCrawls', data: [] }));
      await expect.poll(() => answers.length, { timeout: 5000 }).toBe(1);
      expect(answers[0]).toMatchObject({ kind: 'result', id: 7 });
    } finally {
      client.close();
      wsApi.close();
      await engine.close();
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
