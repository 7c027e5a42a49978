import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateSettings } from '../../core/config/settings.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { UrlIndex } from '../../core/store/url-index.js';
import { tmpDir } from '../helpers/tmp.js';

const dir = tmpDir();
const settings = validateSettings({ seeds: ['http://a.test/'] });

describe('URL index', () => {
  it('finds every URL it was given across growth, and no other', () => {
    const index = new UrlIndex(16);
    for (let i = 1; i <= 20_000; i++) index.add(`http://s${i % 97}.test/p/${i}`, i);
    expect(index.size).toBe(20_000);
    for (const i of [1, 97, 4_321, 20_000]) expect(index.find(`http://s${i % 97}.test/p/${i}`, (id) => id)).toBe(i);
    expect(index.find('http://s1.test/p/20001', (id) => id)).toBeUndefined();
  });

  it('lets the caller reject a candidate, so equal fingerprints never confuse two URLs', () => {
    const index = new UrlIndex();
    index.add('http://a.test/x', 1);
    index.add('http://a.test/x', 2); // as if a second URL had the same fingerprint
    expect(index.find('http://a.test/x', (id) => (id === 2 ? id : undefined))).toBe(2);
    expect(index.find('http://a.test/x', () => undefined)).toBeUndefined();
  });

  it('addNew records a URL once, and takes a second URL whose fingerprint is equal', () => {
    const index = new UrlIndex(16);
    const urls = new Map<number, string>();
    const add = (url: string, id: number) => {
      const ok = index.addNew(url, id, (other) => urls.get(other) === url);
      if (ok) urls.set(id, url);
      return ok;
    };
    for (let i = 1; i <= 5_000; i++) expect(add(`http://a.test/${i}`, i)).toBe(true);
    expect(add('http://a.test/77', 5_001)).toBe(false);
    expect(index.size).toBe(5_000);
    // Same fingerprint, other URL (the caller says it is not the same): recorded beside it.
    expect(index.addNew('http://a.test/77', 5_002, () => false)).toBe(true);
    expect(index.find('http://a.test/77', (id) => (id === 5_002 ? id : undefined))).toBe(5_002);
  });

  it('the store answers findPage from it, after a reopen and after a rolled-back batch', () => {
    const path = join(dir, 'urls.db');
    const store = CrawlStore.create(path, settings);
    const site = store.insertSite('a.test');
    store.begin();
    const a = store.insertPage({ url: 'http://a.test/1', siteId: site, depth: 0, parentId: null, redirects: 0, status: 'queued' });
    store.commit();
    store.begin();
    store.insertPage({ url: 'http://a.test/2', siteId: site, depth: 0, parentId: null, redirects: 0, status: 'queued' });
    store.rollback();
    expect(store.findPage('http://a.test/1')).toEqual({ id: a, status: 'queued', error_code: null, depth: 0 });
    expect(store.findPage('http://a.test/2')).toBeUndefined(); // its id was rolled back with the batch
    store.close();
    const again = CrawlStore.open(path);
    expect(again.findPage('http://a.test/1')?.id).toBe(a);
    expect(again.findPage('http://a.test/2')).toBeUndefined();
    again.close();
  });
  it("findPage follows a page's status and error code through fetches, failures and a rolled-back batch", () => {
    const store = CrawlStore.create(join(dir, 'facts.db'), settings);
    const site = store.insertSite('a.test');
    const page = (n: number) => store.insertPage({ url: `http://a.test/${n}`, siteId: site, depth: n, parentId: null, redirects: 0, status: 'queued' });
    const fetch = { httpStatus: 200, contentType: 'text/html', bytes: 1, contentHash: null, duplicateOf: null, title: null, noindex: false, fetchedAt: 1, responseMs: 1 };
    store.begin();
    const [a, b, c, d] = [page(1), page(2), page(3), page(4)];
    store.recordFetch(a, { ...fetch, status: 'fetched', errorCode: null, attempts: 1 });
    store.recordAttempt(b, 1, 'CRAWL_TIMEOUT');
    store.finishPage(c, 'skipped', 'CRAWL_SITE_PARKED', 0);
    store.commit();
    const find = (n: number) => {
      const p = store.findPage(`http://a.test/${n}`);
      return p && { id: p.id, status: p.status, error_code: p.error_code };
    };
    expect(find(1)).toEqual({ id: a, status: 'fetched', error_code: null });
    expect(find(2)).toEqual({ id: b, status: 'queued', error_code: 'CRAWL_TIMEOUT' });
    expect(find(3)).toEqual({ id: c, status: 'skipped', error_code: 'CRAWL_SITE_PARKED' });
    store.begin();
    store.recordFetch(d, { ...fetch, status: 'failed', errorCode: 'CRAWL_HTTP_404', attempts: 1 });
    store.requeuePage(c, site, 2, 0);
    const e = page(5);
    expect(find(4)).toEqual({ id: d, status: 'failed', error_code: 'CRAWL_HTTP_404' });
    expect(find(3)).toEqual({ id: c, status: 'queued', error_code: null });
    expect(find(5)?.id).toBe(e);
    store.rollback();
    // Memory goes back with the file: the batch's fetch, requeue and new page are gone.
    expect(find(4)).toEqual({ id: d, status: 'queued', error_code: null });
    expect(find(3)).toEqual({ id: c, status: 'skipped', error_code: 'CRAWL_SITE_PARKED' });
    expect(find(5)).toBeUndefined();
    store.close();
  });
});
