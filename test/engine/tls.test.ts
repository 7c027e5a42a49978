/**
 * Certificates in the crawler (issue 26 part 2), on the test web served over TLS: a web of
 * sites on http, on https and on both, with every TLS fault site, crawled once with the default
 * (--tls record) and once with --tls verify, each against its own server so the server's log
 * holds one crawl. Every certificate fault gets its code in both modes; record fetches those
 * sites and verify does not; politeness holds across schemes; robots.txt is asked over https.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Crawler } from '../../core/engine/crawler.js';
import { ErrorCodes } from '../../core/errors.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { FAULT_KINDS, TLS_FAULT_HOSTS } from '../../core/testweb/faults.js';
import { generateWeb, seedUrls } from '../../core/testweb/generator.js';
import type { TlsFaultKind } from '../../core/testweb/web.js';
import { politenessViolations } from '../helpers/politeness.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, serve, testSettings } from '../helpers/web.js';

const dir = tmpDir();
const W = 40;
const C = 3;

/** What each certificate fault must be recorded as, in both modes. */
const CERT_FAULTS: Array<[TlsFaultKind, string]> = [
  ['tls-expired', ErrorCodes.TLS_EXPIRED],
  ['tls-self-signed', ErrorCodes.TLS_UNTRUSTED],
  ['tls-wrong-name', ErrorCodes.TLS_WRONG_NAME],
  ['tls-long-chain', ErrorCodes.TLS_UNTRUSTED],
];
/** Faults of the handshake itself: the same code in both modes, nothing fetched. */
const HANDSHAKE_FAULTS: Array<[TlsFaultKind, string]> = [
  ['tls-handshake-fail', ErrorCodes.TLS_HANDSHAKE_FAILED],
  ['tls-huge-chain', ErrorCodes.TLS_HANDSHAKE_FAILED],
  ['tls-handshake-stall', ErrorCodes.TLS_HANDSHAKE_TIMEOUT],
];

interface SiteRow {
  host: string;
  schemes: number;
  tls: string | null;
  parked: string | null;
}
interface PageRow {
  url: string;
  host: string;
  status: string;
  error_code: string | null;
  site_id: number;
}

async function crawlMode(mode: 'record' | 'verify' | undefined) {
  const web = generateWeb({ seed: 11, sites: 16, pages: 320, faults: true, tls: 0.5, latency: false });
  const { server, port } = await serve(web, { timeFactor: 0 });
  const db = join(dir, `tls-${mode ?? 'default'}.db`);
  // The plain fault sites are the subject of faults.test.ts: kept out of this crawl.
  const plainFaults = new RegExp(`^https?://(${FAULT_KINDS.join('|')})\\.demo[:/]`);
  const seeds = seedUrls(web, port).filter((u) => !plainFaults.test(u));
  const summary = await crawl(
    db,
    testSettings(seeds, {
      ...(mode ? { tls: mode } : {}),
      ca: [server.ca!.certPem],
      scope: { suffixes: ['.demo'], excludes: [plainFaults.source] },
      w: W,
      c: C,
      r: 32,
      connectTimeout: 2500,
      maxAttempts: 2,
      retryBase: 100,
      maxBodyBytes: 64 * 1024,
    }),
  );
  const store = CrawlStore.open(db, { readonly: true });
  const sites = store.db.prepare('SELECT host, schemes, tls, parked FROM sites').all() as SiteRow[];
  const pages = store.db.prepare('SELECT p.url, s.host, p.status, p.error_code, p.site_id FROM pages p JOIN sites s ON s.id = p.site_id').all() as PageRow[];
  const settings = store.settings();
  store.close();
  return { web, server, port, summary, sites, pages, settings, site: (host: string) => sites.find((s) => s.host === host) };
}

describe('--tls record (the default)', async () => {
  const r = await crawlMode(undefined);

  it('is the default, and the crawl finishes', () => {
    expect(r.settings.tls).toBe('record');
    expect(r.summary.stopReason).toBe('finished');
  });

  it('fetches the sites whose certificate fails, and records the problem with each site', () => {
    for (const [kind, code] of CERT_FAULTS) {
      const host = TLS_FAULT_HOSTS[kind];
      expect(r.site(host)?.tls, kind).toBe(code);
      const pages = r.pages.filter((p) => p.host === host);
      expect(pages.length, kind).toBe(3); // / and the two pages it links
      expect(pages.every((p) => p.status === 'fetched'), kind).toBe(true);
      expect(r.server.requests.filter((q) => q.host === host && q.method === 'GET' && q.path !== '/robots.txt').length, kind).toBe(3);
    }
  });

  it('a handshake that fails or stalls is its own code on the page and the site, not a connection reset', () => {
    for (const [kind, code] of HANDSHAKE_FAULTS) {
      const host = TLS_FAULT_HOSTS[kind];
      expect(r.site(host)?.tls, kind).toBe(code);
      expect(r.pages.filter((p) => p.host === host).map((p) => p.error_code), kind).toEqual([code]);
    }
    expect(r.summary.errors[ErrorCodes.CONNECTION_RESET]).toBeUndefined();
  });

  it('a flood of one-byte records is bounded by the body limit, and the crawl goes on', () => {
    const host = TLS_FAULT_HOSTS['tls-record-flood'];
    const flood = r.pages.find((p) => p.host === host && p.url.endsWith('/flood'));
    expect(flood?.error_code).toBe(ErrorCodes.BODY_TOO_LARGE);
    expect(r.site(host)?.tls).toBe('ok');
  });

  it('notes each site\'s schemes and certificate: https sites ok, http sites none, a site on both is one site', () => {
    const ordinary = r.web.sites.filter((s) => !s.fault);
    for (const s of ordinary) {
      const row = r.site(s.host)!;
      if (s.scheme === 'https') expect([row.schemes, row.tls], s.host).toEqual([2, 'ok']);
      else if (s.scheme === 'both') expect([row.schemes, row.tls], s.host).toEqual([3, 'ok']);
      else expect([row.schemes, row.tls], s.host).toEqual([1, null]);
    }
    const both = ordinary.filter((s) => s.scheme === 'both' && s.count > 3);
    expect(both.length).toBeGreaterThan(0);
    for (const s of both) {
      const own = r.pages.filter((p) => p.host === s.host);
      // Its http home page (the seed) and its https pages under one site id.
      expect(own.some((p) => p.url.startsWith('http://'))).toBe(true);
      expect(own.some((p) => p.url.startsWith('https://') && p.status === 'fetched')).toBe(true);
      expect(new Set(own.map((p) => p.site_id)).size).toBe(1);
    }
  });
});

describe('--tls verify', async () => {
  const v = await crawlMode('verify');

  it('refuses the sites whose certificate fails: their pages fail with the problem\'s code, nothing is asked over HTTP', () => {
    expect(v.summary.stopReason).toBe('finished');
    for (const [kind, code] of CERT_FAULTS) {
      const host = TLS_FAULT_HOSTS[kind];
      expect(v.site(host)?.tls, kind).toBe(code);
      expect(v.pages.filter((p) => p.host === host).map((p) => [p.status, p.error_code]), kind).toEqual([['failed', code]]);
      const served = v.server.requests.filter((q) => q.host === host);
      expect(served.length, kind).toBeGreaterThan(0);
      expect(served.every((q) => q.method === 'TLS'), kind).toBe(true);
      // Not retried: a certificate does not mend in a backoff.
      expect(served.length, kind).toBe(1);
    }
  });

  it('a handshake that fails or stalls has the same code as under record', () => {
    for (const [kind, code] of HANDSHAKE_FAULTS) {
      const host = TLS_FAULT_HOSTS[kind];
      expect(v.site(host)?.tls, kind).toBe(code);
      expect(v.pages.filter((p) => p.host === host).map((p) => p.error_code), kind).toEqual([code]);
    }
  });

  it('fetches the sites whose certificate is good, over https, robots.txt first and obeyed', () => {
    const tlsSites = v.web.sites.filter((s) => !s.fault && (s.scheme === 'https' || s.scheme === 'both'));
    for (const s of tlsSites) {
      const asked = v.server.requests.filter((q) => q.host === s.host && q.scheme === 'https');
      expect(asked.length, s.host).toBeGreaterThan(0);
      expect(asked[0]!.path, s.host).toBe('/robots.txt');
    }
    const disallowing = tlsSites.filter((s) => s.robots === 'disallow-private' || s.robots === 'redirect');
    expect(disallowing.length).toBeGreaterThan(0);
    for (const s of disallowing) expect(v.server.requests.filter((q) => q.host === s.host && q.path.startsWith('/private/'))).toEqual([]);
    // Pages kept out by the rules read over https (not every small site links a private page).
    const kept = v.pages.filter((p) => disallowing.some((s) => s.host === p.host) && p.error_code === ErrorCodes.ROBOTS_DISALLOWED);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.every((p) => p.url.startsWith('https://'))).toBe(true);
  });

  it('0 politeness violations in the server\'s log, http and https sites mixed, a site on both and the failed handshakes included', () => {
    const violations = politenessViolations(v.server.requests, v.server.connections, { w: W, c: C });
    expect(violations).toEqual([]);
    expect(v.server.requests.some((q) => q.method === 'TLS')).toBe(true);
  });
});

describe('--tls record, seen from the server', async () => {
  const r = await crawlMode('record');
  it('0 politeness violations with https and http sites mixed', () => {
    expect(politenessViolations(r.server.requests, r.server.connections, { w: W, c: C })).toEqual([]);
  });
  it('a crawl without the test CA finds every https site untrusted, and under record fetches them all the same', async () => {
    const site = r.web.sites.find((s) => s.scheme === 'https' && !s.fault)!;
    const db = join(dir, 'no-ca.db');
    const crawler = Crawler.create(db, testSettings([`https://${site.host}:${r.port}/`], { maxPages: 1 }));
    try {
      await crawler.run();
    } finally {
      crawler.close();
    }
    const store = CrawlStore.open(db, { readonly: true });
    const row = store.db.prepare('SELECT tls, schemes FROM sites').get() as { tls: string; schemes: number };
    const page = store.db.prepare('SELECT status FROM pages').get() as { status: string };
    store.close();
    expect(row).toEqual({ tls: ErrorCodes.TLS_UNTRUSTED, schemes: 2 });
    expect(page.status).toBe('fetched');
  });
});
