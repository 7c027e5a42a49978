/**
 * A crawl database with stored content, written directly (no network): N pages on N/100
 * sites, each fetched once, with realistic bodies for a WARC export. Sizes follow a lognormal
 * (median 12 KB, capped at 1 MB); 30% of pages were sent gzip-encoded (their stored payload is
 * the gzip bytes, as a crawl keeps it); 10% repeat an earlier page's body byte for byte (the
 * export writes them as revisits); 3% are redirects, 2% 404s; every site has a robots.txt.
 * Eight links per page. Bodies are slices of a pool of generated text with a unique head, so
 * that they compress like HTML rather than like noise or zeros.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { validateSettings } from '../../core/config/settings.js';
import { Rng } from '../../core/random.js';
import { ContentStore } from '../../core/store/content-store.js';
import { CrawlStore, type NewLink } from '../../core/store/crawl-store.js';

const WORDS = 'el la de que y en un una los las por con para sitio página universidad chile gobierno noticias portada contacto ciencia datos región museo archivo biblioteca investigación estudiantes'.split(' ');

export interface MadeCrawl {
  pages: number;
  contentBytes: number;
}

export function makeContentCrawl(path: string, pages: number, seed = 7): MadeCrawl {
  for (const p of [path, `${path}-wal`, `${path}-shm`, `${path}.content`]) rmSync(p, { recursive: true, force: true });
  mkdirSync(`${path}.content`, { recursive: true });
  const settings = validateSettings({ seeds: ['http://site0.bench/'], storeContent: true, contentBudget: 1e15, w: 1000 });
  const store = CrawlStore.create(path, settings);
  store.tuneForCrawl();
  const content = new ContentStore(`${path}.content`, 1e15, 0);
  const rng = Rng.fromState(seed);
  const rand = () => rng.float();
  const pool = Buffer.from(Array.from({ length: 600_000 }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' '));
  const sites = Math.max(1, Math.floor(pages / 100));
  const siteIds: number[] = [];
  const bodies: Buffer[] = [];
  let contentBytes = 0;
  const started = Date.now();
  store.begin();
  for (let s = 0; s < sites; s++) siteIds.push(store.insertSite(`site${s}.bench`));
  for (let i = 0; i < pages; i++) {
    const s = i % sites;
    store.insertPage({ url: `http://site${s}.bench/p${i}.html`, siteId: siteIds[s]!, depth: 1, parentId: null, redirects: 0, status: 'queued' });
  }
  store.commit();
  store.begin();
  for (let i = 0; i < pages; i++) {
    const s = i % sites;
    if (i < sites) {
      const robots = Buffer.from('User-agent: *\nDisallow: /private/\n');
      const at = content.append(request(`site${s}.bench`, '/robots.txt'), head(200, 'OK', 'text/plain', robots.length, false), robots)!;
      store.insertRobotsContent({ siteId: siteIds[s]!, url: `http://site${s}.bench/robots.txt`, httpStatus: 200, fetchedAt: started + i }, at, robots.length);
      contentBytes += robots.length;
    }
    const kind = rand();
    let status = 200;
    let body: Buffer;
    if (kind < 0.03) {
      status = 301;
      body = Buffer.from(`<a href="/p${i + 1}.html">moved</a>`);
    } else if (kind < 0.05) {
      status = 404;
      body = Buffer.from('<html><body>not found</body></html>');
    } else if (kind < 0.15 && bodies.length > 0) {
      body = bodies[Math.floor(rand() * bodies.length)]!;
    } else {
      const size = Math.min(1_000_000, Math.max(200, Math.round(rng.lognormal(12_000, 0.9))));
      const from = Math.floor(rand() * (pool.length - size));
      body = Buffer.concat([Buffer.from(`<html><head><title>page ${i}</title></head><body>`), pool.subarray(from, from + size), Buffer.from('</body></html>')]);
      if (bodies.length < 2000) bodies.push(body);
      else if (rand() < 0.01) bodies[Math.floor(rand() * bodies.length)] = body;
    }
    const gzip = status === 200 && rand() < 0.3;
    const payload = gzip ? gzipSync(body, { level: 1 }) : body;
    store.recordFetch(i + 1, {
      status: 'fetched', httpStatus: status, contentType: status === 200 ? 'text/html' : 'text/html', bytes: payload.length, contentHash: null,
      duplicateOf: null, title: null, noindex: false, errorCode: status === 404 ? 'CRAWL_HTTP_4XX' : null, attempts: 1, fetchedAt: started + i * 10, responseMs: 5,
    });
    const at = content.append(request(`site${s}.bench`, `/p${i}.html`), head(status, status === 200 ? 'OK' : status === 301 ? 'Moved Permanently' : 'Not Found', 'text/html', payload.length, gzip), payload)!;
    store.insertContent(i + 1, at.segment, at.offset, at.reqLen, at.hdrLen, payload.length);
    contentBytes += payload.length;
    const links: NewLink[] = [];
    for (let k = 0; k < 8; k++) {
      const dst = 1 + Math.floor(rand() * pages);
      if (dst !== i + 1 && !links.some((l) => l.dst === dst)) links.push({ dst, anchor: `link ${k}`, nofollow: false, kind: 'a' });
    }
    store.insertLinks(i + 1, links);
    if (i % 20_000 === 19_999) {
      store.commit();
      store.begin();
    }
  }
  store.setState('finished');
  store.commit();
  store.buildReadIndexes();
  content.close();
  store.close();
  return { pages, contentBytes };
}

function request(host: string, path: string): string {
  return `GET ${path} HTTP/1.1\r\nhost: ${host}\r\nconnection: keep-alive\r\nuser-agent: crawlbench/0.1\r\naccept: text/html\r\naccept-encoding: gzip, deflate, br\r\n\r\n`;
}

function head(status: number, reason: string, type: string, length: number, gzip: boolean): string {
  return `HTTP/1.1 ${status} ${reason}\r\nDate: Mon, 23 Nov 2026 10:00:00 GMT\r\nServer: bench\r\nContent-Type: ${type}\r\n${gzip ? 'Content-Encoding: gzip\r\nVary: Accept-Encoding\r\n' : ''}Content-Length: ${length}\r\n\r\n`;
}
