import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../core/errors.js';
import { HttpConnection } from '../../core/fetch/http-connection.js';
import { handWeb, TestWebServer } from '../../core/testweb/index.js';

const limits = (requestTimeout: number) => ({
  connectTimeout: 2000,
  headersTimeout: 5000,
  bodyTimeout: 5000,
  requestTimeout,
  maxBodyBytes: 1 << 20,
});

describe('HttpConnection request deadline', () => {
  const web = handWeb([
    { host: 'fast.test', pages: [{ path: '/' }, { path: '/2' }] },
    // 20 KB at 4 KB/s: each chunk arrives well within bodyTimeout, the whole takes ~5 s.
    { host: 'drip.test', bytesPerSec: 4000, pages: [{ path: '/', bodyBytes: 20_000 }] },
  ]);
  const server = new TestWebServer(web);
  let port = 0;
  beforeAll(async () => {
    port = await server.start();
  });
  afterAll(() => server.stop());

  it('cuts a response that trickles in for longer than requestTimeout, and the connection is done', async () => {
    const conn = new HttpConnection(`http://drip.test:${port}`, '127.0.0.1', limits(600), 'test', null);
    const t0 = performance.now();
    await expect(conn.request('/')).rejects.toMatchObject({ code: ErrorCodes.FETCH_TIMEOUT });
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(conn.open).toBe(false);
    await conn.close();
  });

  it('gives each request its own deadline: idle time between requests does not count', async () => {
    const conn = new HttpConnection(`http://fast.test:${port}`, '127.0.0.1', limits(300), 'test', null);
    expect((await conn.request('/')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect((await conn.request('/2')).status).toBe(200);
    expect(conn.open).toBe(true);
    await conn.close();
  });
});
