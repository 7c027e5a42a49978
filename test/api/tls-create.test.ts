/**
 * TLS through the API (issue 26): a New crawl's TLS mode and CA file are kept with the crawl,
 * a CA file that is not a certificate is refused naming the field, and a demo web with sites on
 * TLS serves them with certificates from a CA its crawl trusts, the same CA again when the web
 * is restarted for a resumed crawl.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoWebs, readDemoSidecar } from '../../core/api/demo-webs.js';
import { EngineApi } from '../../core/api/engine-api.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { TestCa } from '../../core/testweb/tls-certs.js';
import { tmpDir } from '../helpers/tmp.js';
import { freePort } from '../ui/e2e-kit.js';

const dir = tmpDir('crawlbench-tls-create-');
const ws = join(dir, 'ws');
let api: EngineApi;
let ca: TestCa;

beforeAll(async () => {
  api = new EngineApi(ws, { demoPort: await freePort() });
  ca = await TestCa.create();
});
afterAll(() => api.close());

const local = { seedText: 'https://a.test/', allowShortW: true, w: 100 };
const settingsOf = (id: string) => {
  const store = CrawlStore.open(join(ws, `${id}.db`), { readonly: true });
  try {
    return store.settings();
  } finally {
    store.close();
  }
};

describe('TLS in a New crawl request', () => {
  it('keeps the TLS mode and the CA file with the crawl; record when not said', async () => {
    await api.createCrawl({ ...local, name: 'tls-verify', tls: 'verify', caPem: ca.certPem });
    expect(settingsOf('tls-verify')).toMatchObject({ tls: 'verify', ca: [ca.certPem] });
    await api.createCrawl({ ...local, name: 'tls-default' });
    expect(settingsOf('tls-default')).toMatchObject({ tls: 'record', ca: [] });
  });

  it('refuses a CA file that is not a certificate, and an unknown mode, naming the field; nothing is created', async () => {
    await expect(api.createCrawl({ ...local, name: 'bad-ca', caPem: ca.privateKeyPem })).rejects.toMatchObject({
      code: 'CRAWL_BAD_OPTION',
      field: 'caPem',
      message: expect.stringMatching(/is not a PEM certificate file/),
    });
    await expect(api.createCrawl({ ...local, name: 'bad-mode', tls: 'maybe' as never })).rejects.toMatchObject({ field: 'tls' });
    expect(existsSync(join(ws, 'bad-ca.db'))).toBe(false);
  });

  it('a demo web with sites on TLS: https seeds, its CA trusted by the crawl and kept beside it', async () => {
    await api.createCrawl({ name: 'tls-demo', demoWeb: { sites: 12, pages: 120, tls: 0.5 } });
    const settings = settingsOf('tls-demo');
    expect(settings.seeds.some((u) => u.startsWith('https://'))).toBe(true);
    expect(settings.seeds.some((u) => u.startsWith('http://'))).toBe(true);
    const saved = readDemoSidecar(join(ws, 'tls-demo.demo.json'))!;
    expect(saved.spec.tls).toBe(0.5);
    expect(saved.ca?.cert).toBeDefined();
    expect(settings.ca).toEqual([saved.ca!.cert]);
    // Restarted for a resumed crawl, the web serves certificates from the same CA.
    const demos = new DemoWebs({ port: 0 });
    try {
      await demos.resumeFor('tls-demo', join(ws, 'tls-demo.demo.json'));
      const again = await demos.ensure('tls-demo', saved.spec);
      expect(again.ca?.cert).toBe(saved.ca!.cert);
    } finally {
      await demos.stopAll();
    }
    expect(readFileSync(join(ws, 'tls-demo.demo.json'), 'utf8')).toContain('BEGIN CERTIFICATE');
  });
});
