/**
 * Browser mode serves finished exports for download from WORKSPACE/exports under the same
 * token rules as its pages, and nothing else from there: not a file still being written, not
 * a path that leaves the folder.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserServer, type BrowserServer } from '../../core/api/browser-server.js';
import { EngineApi } from '../../core/api/engine-api.js';
import { tmpDir } from '../helpers/tmp.js';

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (r) => {
      let body = '';
      r.on('data', (c: Buffer) => (body += c));
      r.on('end', () => resolve({ status: r.statusCode ?? 0, headers: r.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('export downloads in browser mode', () => {
  const dir = tmpDir('crawlbench-download-');
  let server: BrowserServer;
  let api: EngineApi;
  beforeAll(async () => {
    api = new EngineApi(dir);
    mkdirSync(join(api.exportsDir, 'x-1'), { recursive: true });
    writeFileSync(join(api.exportsDir, 'x-1', 'x-pages.csv'), 'url\r\nhttp://a.test/\r\n');
    writeFileSync(join(api.exportsDir, 'x-1', '.x-links.csv.partial-1'), 'half');
    writeFileSync(join(dir, 'secret.txt'), 'not an export');
    server = await startBrowserServer({ api, staticDir: join(dir, 'no-renderer'), exportsDir: api.exportsDir, token: 't0ken' });
  });
  afterAll(async () => {
    await server.close();
    await api.close();
  });

  it('gives a finished file as an attachment with the token, and refuses without it', async () => {
    expect((await get(server.port, '/exports/x-1/x-pages.csv')).status).toBe(401);
    const ok = await get(server.port, '/exports/x-1/x-pages.csv', { cookie: 'crawlbench_token=t0ken' });
    expect(ok.status).toBe(200);
    expect(ok.headers['content-disposition']).toBe('attachment; filename="x-pages.csv"');
    expect(ok.body).toBe('url\r\nhttp://a.test/\r\n');
    expect((await get(server.port, '/exports/x-1/x-pages.csv?token=t0ken')).status).toBe(200);
  });

  it('does not serve a file being written, or anything outside the exports folder', async () => {
    const cookie = { cookie: 'crawlbench_token=t0ken' };
    expect((await get(server.port, '/exports/x-1/.x-links.csv.partial-1', cookie)).status).toBe(404);
    expect((await get(server.port, '/exports/../secret.txt', cookie)).status).toBe(404);
    expect((await get(server.port, '/exports/%2e%2e/secret.txt', cookie)).status).toBe(404);
    expect((await get(server.port, '/exports/x-1/missing.csv', cookie)).status).toBe(404);
  });
});
