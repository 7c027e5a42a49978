/**
 * Browser mode refuses other local pages. Cookies are shared by every port of a host, so a
 * page served from another port of 127.0.0.1 gets the session cookie sent along with its
 * `no-cors` requests (SameSite gives no protection there): the API must not take the cookie
 * as authority. These requests are sent raw, with the headers a browser would send, since
 * fetch() will not let a script set Host, Origin, Cookie or Sec-Fetch-*.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserServer, type BrowserServer } from '../../core/api/browser-server.js';
import { EngineApi } from '../../core/api/engine-api.js';

interface RawReply {
  status: number;
  body: string;
  /** True when the server switched protocols (a WebSocket was opened). */
  upgraded: boolean;
}

function raw(port: number, opts: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers });
    req.on('response', (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => resolve({ status: r.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), upgraded: false }));
      r.on('error', reject);
    });
    req.on('upgrade', (r, socket) => {
      socket.destroy();
      resolve({ status: r.statusCode ?? 0, body: '', upgraded: true });
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** A WebSocket handshake with whatever headers the caller chooses. */
function upgrade(port: number, path: string, headers: Record<string, string>): Promise<RawReply> {
  return raw(port, {
    path,
    headers: {
      connection: 'Upgrade',
      upgrade: 'websocket',
      'sec-websocket-version': '13',
      'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      ...headers,
    },
  });
}

describe('browser mode refuses other local pages', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cb-guard2-'));
  const work = join(dir, 'ws');
  mkdirSync(join(dir, 'static'));
  const engine = new EngineApi(work);
  let s: BrowserServer;
  let own: string;
  let evil: string;
  const callBody = (name: string, data: unknown[]) => JSON.stringify({ kind: 'call', id: 1, name, data });

  beforeAll(async () => {
    s = await startBrowserServer({ api: engine, staticDir: join(dir, 'static') });
    own = `127.0.0.1:${s.port}`;
    evil = `http://127.0.0.1:${s.port === 65535 ? 65534 : s.port + 1}`;
    await engine.createCrawl({ name: 'keep', seedText: 'http://127.0.0.1:9/' });
    expect(existsSync(join(work, 'keep.db'))).toBe(true);
  });
  afterAll(async () => {
    await s?.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Exactly what `fetch(url, { method: 'POST', mode: 'no-cors', body: text })` from another port sends. */
  const crossPortAttack = (name: string, data: unknown[]) =>
    raw(s.port, {
      method: 'POST',
      path: '/api/call',
      headers: {
        host: own,
        'content-type': 'text/plain;charset=UTF-8',
        cookie: `crawlbench_token=${s.token}`,
        origin: evil,
        'sec-fetch-site': 'same-site',
        'sec-fetch-mode': 'no-cors',
        'sec-fetch-dest': 'empty',
      },
      body: callBody(name, data),
    });

  const ids = async () => (await engine.listCrawls()).map((c) => c.id).sort();

  it('refuses a cross-port no-cors deleteCrawl carrying the session cookie', async () => {
    const r = await crossPortAttack('deleteCrawl', ['keep']);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(existsSync(join(work, 'keep.db'))).toBe(true);
    expect(await ids()).toEqual(['keep']);
  });

  it('refuses a cross-port no-cors createCrawl carrying the session cookie', async () => {
    const r = await crossPortAttack('createCrawl', [{ name: 'evil', seedText: 'http://example.com/' }]);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(existsSync(join(work, 'evil.db'))).toBe(false);
    expect(await ids()).toEqual(['keep']);
  });

  it('does not take the cookie or ?token= as authority for /api/call, even with a JSON body', async () => {
    const json = { host: own, 'content-type': 'application/json' };
    const byCookie = await raw(s.port, { method: 'POST', path: '/api/call', headers: { ...json, cookie: `crawlbench_token=${s.token}` }, body: callBody('deleteCrawl', ['keep']) });
    expect(byCookie.status).toBe(401);
    const byQuery = await raw(s.port, { method: 'POST', path: `/api/call?token=${s.token}`, headers: json, body: callBody('deleteCrawl', ['keep']) });
    expect(byQuery.status).toBe(401);
    expect(await ids()).toEqual(['keep']);
  });

  it('wants a JSON content type on /api/call', async () => {
    const r = await raw(s.port, {
      method: 'POST',
      path: '/api/call',
      headers: { host: own, authorization: `Bearer ${s.token}`, 'content-type': 'text/plain;charset=UTF-8' },
      body: callBody('deleteCrawl', ['keep']),
    });
    expect(r.status).toBe(415);
    const none = await raw(s.port, { method: 'POST', path: '/api/call', headers: { host: own, authorization: `Bearer ${s.token}` }, body: callBody('deleteCrawl', ['keep']) });
    expect(none.status).toBe(415);
    expect(await ids()).toEqual(['keep']);
  });

  it('refuses a foreign Origin or a same-site / cross-site fetch even with the header token', async () => {
    const ok = { host: own, authorization: `Bearer ${s.token}`, 'content-type': 'application/json' };
    const body = callBody('listCrawls', []);
    for (const extra of [{ origin: evil }, { origin: 'null' }, { 'sec-fetch-site': 'same-site' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
      const r = await raw(s.port, { method: 'POST', path: '/api/call', headers: { ...ok, ...extra }, body });
      expect(r.status, JSON.stringify(extra)).toBe(403);
    }
    // The server's own origins, a same-origin fetch, a user-typed request: all pass.
    for (const extra of [
      {},
      { origin: `http://127.0.0.1:${s.port}`, 'sec-fetch-site': 'same-origin' },
      { host: `localhost:${s.port}`, origin: `http://localhost:${s.port}` },
      { 'sec-fetch-site': 'none' },
    ] as Record<string, string>[]) {
      const r = await raw(s.port, { method: 'POST', path: '/api/call', headers: { ...ok, ...extra }, body });
      expect(r.status, JSON.stringify(extra)).toBe(200);
      expect(JSON.parse(r.body).data.map((c: { id: string }) => c.id)).toEqual(['keep']);
    }
  });

  it('refuses a WebSocket with a foreign Host or Origin, even with the token, before any frame', async () => {
    const path = `/api?token=${s.token}`;
    const good = await upgrade(s.port, path, { host: own, origin: `http://${own}` });
    expect(good.upgraded).toBe(true);
    expect(good.status).toBe(101);
    for (const headers of [
      { host: 'evil.example' },
      { host: `evil.example:${s.port}`, origin: `http://evil.example:${s.port}` },
      { host: own, origin: evil },
      { host: own, origin: 'null' },
    ] as Record<string, string>[]) {
      const r = await upgrade(s.port, path, headers);
      expect(r.upgraded, JSON.stringify(headers)).toBe(false);
      expect([401, 403], JSON.stringify(headers)).toContain(r.status);
    }
  });

  it('answers a malformed percent-encoded path with 400, not 500', async () => {
    for (const path of ['/%E0%A4%A', '/assets/%E0%A4%A.js', '/api/%E0%A4%A', '/api/call/%E0%A4%A']) {
      const r = await raw(s.port, { path: `${path}?token=${s.token}`, headers: { host: own } });
      expect(r.status, path).toBe(400);
      const c = await raw(s.port, { path, headers: { host: own, cookie: `crawlbench_token=${s.token}` } });
      expect(c.status, path).toBe(400);
    }
  });
});
