/**
 * One crawl of a comparison, read once through the read side into typed arrays indexed by
 * page id: each page's URL fingerprint, status class, size, content hash and site. URLs are
 * not kept: the two crawls meet through sorted fingerprints (sort64.ts), so a million-page
 * crawl costs about 30 bytes a page here, never a map of its URLs.
 */
import { realpathSync } from 'node:fs';
import type { CrawlSettings } from '../config/settings.js';
import { Numbering } from '../numbering.js';
import { CrawlReader } from '../store/crawl-reader.js';
import { urlFingerprintInto } from '../store/url-index.js';
import { pageKey } from '../url/page-identity.js';
import { siteKey, type SiteKeyMode } from '../url/site-key.js';
import { STATUS_CLASSES } from './report.js';
import { sortKeys64, type Keys64 } from './sort64.js';

export { STATUS_CLASSES, type StatusClass } from './report.js';
/** STATUS_CLASSES' index of "in" (fetched with status 200). */
export const IN = 0;

/**
 * Called every few thousand rows of a long read: lets the engine's event loop run (a server
 * answering, other crawls going on) and throws when the comparison was cancelled.
 */
export type Tick = () => Promise<void>;

/** Site keys of both crawls in one numbering, so that their per-site figures line up. */
export class SiteKeys extends Numbering {}

export interface CrawlSide {
  path: string;
  reader: CrawlReader;
  settings: CrawlSettings;
  state: string;
  /** Arrays indexed by page id (0 unused). */
  maxId: number;
  fpHi: Uint32Array;
  fpLo: Uint32Array;
  cls: Uint8Array;
  bytes: Float64Array;
  /** First 32 bits of the content hash (0: none). */
  hash: Uint32Array;
  site: Int32Array;
  /** 1 when the page passes the --host filter (all 1 without one). */
  kept: Uint8Array;
  /** 1 when the page's URL is https (pages are matched whatever their scheme). */
  https: Uint8Array;
  /** Pages a conditional recrawl was told were not modified. */
  notModified: number;
  /** Every page, sorted by fingerprint (payload: page id). */
  byFp: Keys64;
}

function classOf(status: string, http: number | null): number {
  if (status === 'queued') return STATUS_CLASSES.indexOf('queued');
  if (status === 'disallowed') return STATUS_CLASSES.indexOf('disallowed');
  if (status === 'skipped') return STATUS_CLASSES.indexOf('skipped');
  if (http === null) return STATUS_CLASSES.indexOf('failed');
  if (http === 200 && (status === 'fetched' || status === 'duplicate')) return IN;
  if (http >= 300 && http < 400) return STATUS_CLASSES.indexOf('redirect');
  if (http >= 400 && http < 500) return STATUS_CLASSES.indexOf('client-error');
  if (http >= 500) return STATUS_CLASSES.indexOf('server-error');
  return STATUS_CLASSES.indexOf('other-http');
}

export function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Reads one crawl as of its reader's snapshot. `mode` is the site key of the comparison (A's):
 * both crawls' pages are put in sites by it. `host` keeps only that host's pages for the
 * per-page figures.
 */
export async function loadSide(path: string, keys: SiteKeys, mode: SiteKeyMode, host: string | null, tick: Tick): Promise<CrawlSide> {
  const reader = CrawlReader.open(path);
  try {
    const settings = JSON.parse(reader.meta('settings') ?? '{}') as CrawlSettings;
    const maxId = reader.snapshot.pageId;
    const side: CrawlSide = {
      path,
      reader,
      settings,
      state: reader.state(),
      maxId,
      fpHi: new Uint32Array(maxId + 1),
      fpLo: new Uint32Array(maxId + 1),
      cls: new Uint8Array(maxId + 1).fill(255),
      bytes: new Float64Array(maxId + 1),
      hash: new Uint32Array(maxId + 1),
      site: new Int32Array(maxId + 1).fill(-1),
      kept: new Uint8Array(maxId + 1),
      https: new Uint8Array(maxId + 1),
      notModified: reader.notModifiedCount(),
      byFp: { hi: new Uint32Array(0), lo: new Uint32Array(0), length: 0 },
    };
    let n = 0;
    for (const p of reader.pages(['url', 'status', 'httpStatus', 'bytes', 'contentHash'])) {
      // Matched whatever the scheme: a page that moved from http to https is the same page.
      urlFingerprintInto(pageKey(p.url), side.fpHi, side.fpLo, p.id);
      side.https[p.id] = p.url.startsWith('https:') ? 1 : 0;
      side.cls[p.id] = classOf(p.status, p.httpStatus);
      side.bytes[p.id] = p.bytes ?? 0;
      side.hash[p.id] = p.contentHash ? parseInt(p.contentHash.slice(0, 8), 16) >>> 0 : 0;
      const key = siteKey(p.url, mode);
      side.site[p.id] = keys.of(key);
      side.kept[p.id] = host === null || key === host || hostOfUrl(p.url) === host ? 1 : 0;
      if (++n % 20_000 === 0) await tick();
    }
    side.byFp = sortedIds(side, n);
    return side;
  } catch (err) {
    reader.close();
    throw err;
  }
}

function hostOfUrl(url: string): string {
  return siteKey(url, 'host');
}

function sortedIds(side: CrawlSide, n: number): Keys64 {
  const k: Keys64 = { hi: new Uint32Array(n), lo: new Uint32Array(n), payload: new Uint32Array(n), length: n };
  let i = 0;
  for (let id = 1; id <= side.maxId; id++) {
    if (side.cls[id] === 255) continue;
    k.hi[i] = side.fpHi[id]!;
    k.lo[i] = side.fpLo[id]!;
    k.payload![i] = id;
    i++;
  }
  k.length = i;
  sortKeys64(k);
  return k;
}
