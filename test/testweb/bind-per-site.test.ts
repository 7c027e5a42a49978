import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { handWeb, TestWebServer } from '../../core/testweb/index.js';
import { siteAddresses } from '../../core/testweb/server.js';

/** GET over a fresh connection to `address`, with `host` in the Host header. */
function getAt(address: string, port: number, host: string, path: string): Promise<{ status: number; body: string; local: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: address, port, path, agent: false, headers: { host: `${host}:${port}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, local: res.socket.localAddress ?? '' }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('TestWebServer with bindPerSite', () => {
  it('gives loopback literals their own address and other hosts 127.1.0.x in order', () => {
    const m = siteAddresses(['a.test', '127.1.0.1', 'b.test', '127.7.8.9']);
    expect([...m]).toEqual([
      ['127.1.0.1', '127.1.0.1'],
      ['127.7.8.9', '127.7.8.9'],
      ['a.test', '127.1.0.2'],
      ['b.test', '127.1.0.3'],
    ]);
    const many = siteAddresses(Array.from({ length: 300 }, (_, i) => `s${i}.test`));
    expect(many.get('s0.test')).toBe('127.1.0.1');
    expect(many.get('s253.test')).toBe('127.1.0.254');
    expect(many.get('s254.test')).toBe('127.1.1.1');
    expect(new Set(many.values()).size).toBe(300);
  });

  it('serves each site on its own address, all on one port, and nothing on 127.0.0.1', async () => {
    const web = handWeb([
      { host: 'a.test', pages: [{ path: '/', links: ['/x'] }, { path: '/x' }] },
      { host: '127.3.0.7', pages: [{ path: '/', links: ['http://a.test/'] }] },
    ]);
    const server = new TestWebServer(web, { bindPerSite: true });
    const port = await server.start();
    try {
      expect(server.addresses.get('a.test')).toBe('127.1.0.1');
      expect(server.addresses.get('127.3.0.7')).toBe('127.3.0.7');
      const a = await getAt('127.1.0.1', port, 'a.test', '/x');
      expect(a.status).toBe(200);
      const b = await getAt('127.3.0.7', port, '127.3.0.7', '/');
      expect(b.status).toBe(200);
      expect(b.body).toContain(`href="http://a.test:${port}/"`);
      await expect(getAt('127.0.0.1', port, 'a.test', '/')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      expect(server.requests.map((r) => `${r.host}${r.path} ${r.status}`)).toEqual(['a.test/x 200', '127.3.0.7/ 200']);
    } finally {
      await server.stop();
    }
    expect(server.openConnections()).toBe(0);
    await expect(getAt('127.1.0.1', port, 'a.test', '/')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
