import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startBrowserServer } from '../../core/api/browser-server.js';
import { EngineApi } from '../../core/api/engine-api.js';
import { connectWebSocket } from '../../core/api/ws-client.js';
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
