import { validateSettings } from '../../core/config/settings.js';
import { CrawlStore, type FetchRecord } from '../../core/store/crawl-store.js';

export interface HandCrawl {
  /** Page URLs; page i gets id i + 1. The host of each URL becomes its site. */
  urls: string[];
  /** Links as [from, to] page indexes. */
  links: Array<[number, number]>;
  /** Page indexes in the order they were fetched (fetched_at 1 s apart from t0). */
  fetchOrder: number[];
  t0?: number;
  /** Page titles by index (null: none), for the similarity measure over titles. */
  titles?: Array<string | null>;
}

export function fetched(at: number): FetchRecord {
  return {
    status: 'fetched',
    httpStatus: 200,
    contentType: 'text/html',
    bytes: 100,
    contentHash: null,
    duplicateOf: null,
    title: null,
    noindex: false,
    errorCode: null,
    attempts: 1,
    fetchedAt: at,
    responseMs: 5,
  };
}

/** Writes a finished crawl by hand with CrawlStore, as the engine would. */
export function makeCrawl(path: string, c: HandCrawl): void {
  const store = CrawlStore.create(path, validateSettings({ seeds: [c.urls[0] ?? 'http://a.test/'] }));
  store.begin();
  const sites = new Map<string, number>();
  const ids = c.urls.map((url) => {
    const host = new URL(url).host;
    if (!sites.has(host)) sites.set(host, store.insertSite(host));
    return store.insertPage({ url, siteId: sites.get(host)!, depth: 0, parentId: null, redirects: 0, status: 'queued' });
  });
  const t0 = c.t0 ?? 1_700_000_000_000;
  c.fetchOrder.forEach((i, k) => store.recordFetch(ids[i]!, { ...fetched(t0 + k * 1000), title: c.titles?.[i] ?? null }));
  for (const [a, b] of c.links) store.insertLinks(ids[a]!, [{ dst: ids[b]!, anchor: null, nofollow: false, kind: 'a' }]);
  store.setState('finished');
  store.commit();
  store.close();
}

/** Deterministic pseudo-random numbers for test data (mulberry32). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
