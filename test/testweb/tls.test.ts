/**
 * HTTPS in the test web (issue 26 part 1): a share of the sites on TLS, on the port that
 * serves http, with certificates from a test CA made at start; sites on https only, on http
 * only and on both (http redirecting); and the TLS fault sites, each failing a client the way
 * it should. Asked through node:https, whose errors are OpenSSL's and Node's own.
 */
import https from 'node:https';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateWeb, pageUrl, seedUrls, TestCa, TestWebServer, TLS_FAULT_HOSTS, TLS_FAULT_KINDS } from '../../core/testweb/index.js';
import { get, hrefs } from './http-helper.js';
import { tmpDir } from '../helpers/tmp.js';

interface TlsGot {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

/** GET over TLS to the test web, the host named by SNI and the Host header; rejects with the TLS error. */
function tlsGet(port: number, host: string, path: string, opts: { ca?: string; timeoutMs?: number; servername?: string } = {}): Promise<TlsGot> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: '127.0.0.1', port, path, servername: opts.servername ?? host, headers: { host: `${host}:${port}` }, ca: opts.ca, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.setTimeout(opts.timeoutMs ?? 5000, () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', reject);
    req.end();
  });
}

async function tlsError(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
  return 'no error';
}

async function errorMessage(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as Error).message;
  }
  return 'no error';
}

describe('a test web with sites on TLS', () => {
  const web = generateWeb({ seed: 3, sites: 40, pages: 600, faults: true, tls: 0.5 });
  const server = new TestWebServer(web, { timeFactor: 0 });
  let port = 0;
  let ca = '';
  beforeAll(async () => {
    port = await server.start();
    ca = server.ca!.certPem;
  });
  afterAll(() => server.stop());
  const ordinary = web.sites.filter((s) => !s.fault);

  it('puts about the share asked on TLS, a third of those on both schemes, the same way every time', () => {
    const tls = ordinary.filter((s) => s.scheme === 'https' || s.scheme === 'both');
    expect(tls.length).toBeGreaterThanOrEqual(12);
    expect(tls.length).toBeLessThanOrEqual(28);
    expect(tls.some((s) => s.scheme === 'both')).toBe(true);
    expect(tls.some((s) => s.scheme === 'https')).toBe(true);
    expect(ordinary.some((s) => (s.scheme ?? 'http') === 'http')).toBe(true);
    const again = generateWeb({ seed: 3, sites: 40, pages: 600, faults: true, tls: 0.5 });
    expect(again.sites.map((s) => s.scheme)).toEqual(web.sites.map((s) => s.scheme));
    for (const kind of TLS_FAULT_KINDS) expect(web.sites.find((s) => s.host === TLS_FAULT_HOSTS[kind])?.scheme).toBe('https');
  });

  it('a web without TLS is the web it always was: no TLS fault sites, every URL http', () => {
    const plain = generateWeb({ seed: 3, sites: 40, pages: 600, faults: true });
    expect(plain.sites.some((s) => s.scheme !== undefined)).toBe(false);
    expect(seedUrls(plain, 80).every((u) => u.startsWith('http://'))).toBe(true);
  });

  it('serves a site on TLS over https with a certificate from its CA, and its links carry each target\'s scheme', async () => {
    const site = ordinary.find((s) => s.scheme === 'https')!;
    const res = await tlsGet(port, site.host, '/', { ca });
    expect(res.status).toBe(200);
    for (const href of hrefs(res.body)) {
      const m = /^(https?:)?\/\/([^:/]+)/.exec(href);
      if (!m) continue;
      const target = web.sites.find((s) => s.host === m[2])!;
      // A link may say http only to a site that answers http; https only to one on TLS.
      if (m[1] === 'http:') expect(target.scheme ?? 'http').not.toBe('https');
      else expect(target.scheme === 'https' || target.scheme === 'both').toBe(true);
    }
    expect(pageUrl(web, site.first, port)).toBe(`https://${site.host}:${port}/`);
  });

  it('an https-only site answers plain http with 400; a site on both redirects http to the same path over https', async () => {
    const only = ordinary.find((s) => s.scheme === 'https')!;
    expect((await get(port, only.host, '/')).status).toBe(400);
    const both = ordinary.find((s) => s.scheme === 'both')!;
    const r = await get(port, both.host, '/robots.txt?x=1');
    expect(r.status).toBe(301);
    expect(r.headers.location).toBe(`https://${both.host}:${port}/robots.txt?x=1`);
    expect((await tlsGet(port, both.host, '/', { ca })).status).toBe(200);
    expect(seedUrls(web, port)).toContain(`http://${both.host}:${port}/`);
  });

  it('an http-only site refuses a handshake', async () => {
    const plain = ordinary.find((s) => (s.scheme ?? 'http') === 'http')!;
    expect(await tlsError(tlsGet(port, plain.host, '/', { ca }))).toBe('ECONNRESET');
    expect((await get(port, plain.host, '/')).status).toBe(200);
  });

  it('each TLS fault fails a client that verifies the way its table says', async () => {
    const H = TLS_FAULT_HOSTS;
    expect(await tlsError(tlsGet(port, H['tls-expired'], '/', { ca }))).toBe('CERT_HAS_EXPIRED');
    expect(await tlsError(tlsGet(port, H['tls-self-signed'], '/', { ca }))).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(await tlsError(tlsGet(port, H['tls-wrong-name'], '/', { ca }))).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
    // Past the verify depth: OpenSSL stops building the chain (curl says CERT_CHAIN_TOO_LONG, Node the issuer it did not reach).
    expect(['CERT_CHAIN_TOO_LONG', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY']).toContain(await tlsError(tlsGet(port, H['tls-long-chain'], '/', { ca })));
    // OpenSSL takes a certificate list of at most 100 KiB (Node says EPROTO or the reason's own code).
    expect(await errorMessage(tlsGet(port, H['tls-huge-chain'], '/', { ca }))).toMatch(/excessive message size/);
    expect(await tlsError(tlsGet(port, H['tls-handshake-fail'], '/', { ca }))).toBe('ECONNRESET');
    expect(await tlsError(tlsGet(port, H['tls-handshake-stall'], '/', { ca, timeoutMs: 400 }))).toBe('TIMEOUT');
    // Without the CA even a good site is untrusted: the CA is what a crawl must be given.
    const good = ordinary.find((s) => s.scheme === 'https')!;
    expect(await tlsError(tlsGet(port, good.host, '/'))).toBe('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  });

  it('the record flood sends one-byte records for as long as the client reads', async () => {
    const res = await new Promise<{ chunks: number; bytes: number }>((resolve, reject) => {
      const host = TLS_FAULT_HOSTS['tls-record-flood'];
      const req = https.get({ host: '127.0.0.1', port, path: '/flood', servername: host, headers: { host }, ca, agent: false }, (r) => {
        let chunks = 0;
        let bytes = 0;
        r.on('data', (b: Buffer) => {
          chunks++;
          bytes += b.length;
          if (bytes >= 20_000) {
            req.destroy();
            resolve({ chunks, bytes });
          }
        });
      });
      req.on('error', (e) => ((e as { code?: string }).code === 'ECONNRESET' ? undefined : reject(e)));
    });
    expect(res.bytes).toBeGreaterThanOrEqual(20_000);
  });

  it('logs https requests with their scheme, and a TLS connection that never reached HTTP as method TLS', async () => {
    const site = ordinary.find((s) => s.scheme === 'https')!;
    await tlsGet(port, site.host, '/', { ca });
    await tlsError(tlsGet(port, TLS_FAULT_HOSTS['tls-handshake-fail'], '/', { ca }));
    await new Promise((r) => setTimeout(r, 50));
    const served = server.requests.filter((r) => r.host === site.host && r.scheme === 'https' && r.method === 'GET');
    expect(served.length).toBeGreaterThan(0);
    const failed = server.requests.filter((r) => r.host === TLS_FAULT_HOSTS['tls-handshake-fail']);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((r) => r.method === 'TLS' && r.status === 0 && r.connId > 0)).toBe(true);
    expect(server.requests.filter((r) => r.scheme === undefined).every((r) => r.method !== 'TLS')).toBe(true);
  });
});

describe('the test CA', () => {
  it('is kept in files and read back, so a restarted web serves certificates a crawl still trusts', async () => {
    const dir = tmpDir('cb-ca-');
    const a = await TestCa.atFiles(join(dir, 'ca.pem'), join(dir, 'ca-key.pem'));
    expect(readFileSync(join(dir, 'ca.pem'), 'utf8')).toBe(a.certPem);
    const b = await TestCa.atFiles(join(dir, 'ca.pem'), join(dir, 'ca-key.pem'));
    expect(b.certPem).toBe(a.certPem);
    const web = generateWeb({ seed: 1, sites: 4, pages: 40, tls: 1 });
    const server = new TestWebServer(web, { ca: b });
    const port = await server.start();
    try {
      expect((await tlsGet(port, web.sites[0]!.host, '/', { ca: a.certPem })).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
