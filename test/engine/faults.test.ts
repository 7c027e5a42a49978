import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../core/errors.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { BROKEN_HTML_LINKS, FAULT_HOSTS, LATIN1_TITLES } from '../../core/testweb/faults.js';
import { generateWeb, seedUrls } from '../../core/testweb/generator.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, serve, testSettings } from '../helpers/web.js';

/**
 * A hostile site costs that site a timeout or a limit, never the crawl. The crawl of a web
 * holding every fault site must finish, and each fault must leave its error code behind.
 */
describe('hostile sites', async () => {
  const web = generateWeb({ seed: 2, sites: 3, pages: 30, faults: true, latency: false });
  const { server, port } = await serve(web, { timeFactor: 0.1 });
  const db = join(tmpDir(), 'faults.db');
  const summary = await crawl(
    db,
    testSettings(seedUrls(web, port), {
      r: 32,
      headersTimeout: 1000,
      bodyTimeout: 1000,
      requestTimeout: 5000,
      maxBodyBytes: 2 * 1024 * 1024,
      maxDecodedBytes: 4 * 1024 * 1024,
      maxAttempts: 3,
      retryBase: 100,
      robotsRetry: 100,
      robotsMaxAttempts: 3,
    }),
  );
  const store = CrawlStore.open(db, { readonly: true });
  const pages = store.db
    .prepare('SELECT p.url, p.status, p.http_status, p.error_code, p.title, p.content_type, s.host FROM pages p JOIN sites s ON s.id = p.site_id')
    .all() as Array<{ url: string; status: string; http_status: number | null; error_code: string | null; title: string | null; content_type: string | null; host: string }>;
  const allLinks = store.db
    .prepare('SELECT s.url AS src, d.url AS dst FROM links l JOIN pages s ON s.id = l.src JOIN pages d ON d.id = l.dst')
    .all() as Array<{ src: string; dst: string }>;
  const linksFrom = (url: string) => allLinks.filter((l) => l.src === url).map((l) => l.dst);
  store.close();
  const at = (host: string, path: string) => pages.find((p) => p.host === host && new URL(p.url).pathname + new URL(p.url).search === path);
  const codesOf = (host: string) => pages.filter((p) => p.host === host).map((p) => p.error_code);
  const served = (host: string) => server.requests.filter((r) => r.host === host);

  it('finishes the crawl', () => {
    expect(summary.stopReason).toBe('finished');
    expect(summary.pagesFetched).toBeGreaterThan(30);
  });

  it('a server that never answers costs a headers timeout', () => {
    expect(codesOf(FAULT_HOSTS['stall-headers'])).toContain(ErrorCodes.HEADERS_TIMEOUT);
  });
  it('a body that stalls costs a body timeout', () => {
    expect(codesOf(FAULT_HOSTS['stall-body'])).toContain(ErrorCodes.BODY_TIMEOUT);
  });
  it('connection resets are recorded as such', () => {
    expect(summary.errors[ErrorCodes.CONNECTION_RESET]).toBeGreaterThan(0);
    expect(pages.filter((p) => p.host === FAULT_HOSTS.reset).every((p) => p.status !== 'fetched')).toBe(true);
  });
  it('endless and huge bodies stop at the body limit', () => {
    expect(at(FAULT_HOSTS.huge, '/endless')?.error_code).toBe(ErrorCodes.BODY_TOO_LARGE);
    expect(at(FAULT_HOSTS.huge, '/big')?.error_code).toBe(ErrorCodes.BODY_TOO_LARGE);
  });
  it('gzip and brotli bombs stop at the decoded-size limit', () => {
    expect(at(FAULT_HOSTS['gzip-bomb'], '/bomb')?.error_code).toBe(ErrorCodes.DECODED_TOO_LARGE);
    expect(at(FAULT_HOSTS['gzip-bomb'], '/bomb-br')?.error_code).toBe(ErrorCodes.DECODED_TOO_LARGE);
  });
  it('a 50-hop redirect chain stops after 5 redirects', () => {
    const host = FAULT_HOSTS['redirect-chain'];
    expect(codesOf(host)).toContain(ErrorCodes.TOO_MANY_REDIRECTS);
    const hops = served(host).filter((r) => r.path.startsWith('/r/'));
    expect(hops.length).toBe(6); // /r/0 and five redirects after it
  });
  it('a redirect loop ends: each URL of the loop is fetched once', () => {
    const loop = served(FAULT_HOSTS['redirect-loop']).filter((r) => r.path !== '/robots.txt' && r.path !== '/');
    expect(loop.map((r) => r.path).sort()).toEqual(['/a', '/b']);
  });
  it('an infinite calendar is cut by the depth limits', () => {
    const codes = codesOf(FAULT_HOSTS.calendar);
    expect(codes).toContain(ErrorCodes.TRAP_DYNAMIC_DEPTH);
    expect(codes).toContain(ErrorCodes.TRAP_DEPTH);
    // Each month links the next month, the previous one and the same month a year on: a
    // grid that grows with depth squared, cut at depth 5 (dynamic) and 15 (static).
    expect(served(FAULT_HOSTS.calendar).length).toBeLessThan(300);
  });
  it('session ids are stripped, so a session-id site is finite', () => {
    const urls = pages.filter((p) => p.host === FAULT_HOSTS.session).map((p) => p.url);
    expect(urls.some((u) => /sessid|jsessionid/i.test(u))).toBe(false);
    expect(urls.length).toBeLessThanOrEqual(45);
  });
  it('non-HTML content is stored without link extraction', () => {
    const pdf = at(FAULT_HOSTS.binary, '/report.pdf');
    expect(pdf?.status).toBe('fetched');
    expect(pdf?.content_type).toMatch(/pdf/);
    expect(linksFrom(pdf!.url)).toEqual([]);
  });
  it('links are found in broken HTML', () => {
    const home = at(FAULT_HOSTS['broken-html'], '/')!;
    const found = linksFrom(home.url).map((u) => new URL(u).pathname + new URL(u).search);
    for (const path of BROKEN_HTML_LINKS) expect(found).toContain(path);
  });
  it('titles of windows-1252 and Shift_JIS pages are decoded', () => {
    for (const [path, title] of Object.entries(LATIN1_TITLES)) expect(at(FAULT_HOSTS.latin1, path)?.title).toBe(title);
  });
  it('a site whose robots.txt answers 500 gets nothing but robots.txt requests, and is parked', () => {
    const host = FAULT_HOSTS.robots500;
    expect(served(host).every((r) => r.path === '/robots.txt')).toBe(true);
    expect(served(host).length).toBe(3);
    expect(codesOf(host).every((c) => c === ErrorCodes.ROBOTS_UNAVAILABLE)).toBe(true);
  });
  it('503 with Retry-After and 429 are retried until they succeed; a page always 500 fails', () => {
    for (const p of ['/flaky/0', '/flaky/1', '/flaky/2']) expect(at(FAULT_HOSTS.error5xx, p)?.http_status).toBe(200);
    expect(at(FAULT_HOSTS.error5xx, '/always500')).toMatchObject({ status: 'failed', error_code: ErrorCodes.HTTP_5XX, http_status: 500 });
    expect(summary.errors[ErrorCodes.HTTP_429]).toBeGreaterThan(0);
    expect(pages.filter((p) => p.host === FAULT_HOSTS.ratelimit).every((p) => p.http_status === 200)).toBe(true);
  });
});

describe('per-site error budget', async () => {
  const web = generateWeb({ seed: 2, sites: 3, pages: 30, faults: true, latency: false });
  const { server, port } = await serve(web, { timeFactor: 0.1 });

  it('a site that keeps failing is parked after the budget, and not asked again', async () => {
    const db = join(tmpDir(), 'budget.db');
    const stall = `http://${FAULT_HOSTS['stall-headers']}:${port}/`;
    const summary = await crawl(db, testSettings([stall], { headersTimeout: 1000, maxAttempts: 5, retryBase: 50, siteErrorBudget: 2 }));
    expect(summary.stopReason).toBe('finished');
    const store = CrawlStore.open(db, { readonly: true });
    const site = store.db.prepare('SELECT parked FROM sites WHERE host = ?').get(FAULT_HOSTS['stall-headers']) as { parked: string };
    const page = store.db.prepare('SELECT status, error_code FROM pages WHERE url = ?').get(stall);
    store.close();
    expect(site.parked).toBe(ErrorCodes.SITE_PARKED);
    expect(page).toEqual({ status: 'skipped', error_code: ErrorCodes.SITE_PARKED });
    const asked = server.requests.filter((r) => r.host === FAULT_HOSTS['stall-headers'] && r.path === '/');
    expect(asked.length).toBe(2);
  });
});
