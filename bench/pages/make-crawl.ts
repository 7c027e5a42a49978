/**
 * A finished crawl of N pages written straight into a crawl database (no network), shaped for
 * the Pages view's questions: sites of Zipf-like sizes under national-domain hosts
 * (www.<words><n>.cl), URLs with sections, slugs and query strings, a discovery tree
 * (parent_id, depth), statuses (88% fetched, 7% queued, 3% failed, 2% duplicate), HTTP 2xx to
 * 5xx, content types (HTML, PDF, images), about ten links a page (80% inside the site, towards
 * its first pages), and a stored page PageRank run whose values follow the in-degrees (the
 * sort reads the run's values; computing a real PageRank is bench/pagerank's job). The read
 * indexes are left to the caller, which times them.
 */
import type Database from 'better-sqlite3';
import Sqlite from '../../core/store/sqlite.js';
import { validateSettings } from '../../core/config/settings.js';
import { Rng } from '../../core/random.js';
import { CrawlStore } from '../../core/store/crawl-store.js';
import { PageRankWriter } from '../../core/store/pagerank-writer.js';

const WORDS = 'universidad chile gobierno noticias portada contacto ciencia datos region museo archivo biblioteca investigacion estudiantes salud educacion cultura deporte turismo empresa municipal servicio tramite ley consulta prensa agenda historia'.split(' ');
const SECTIONS = ['noticias', 'productos', 'docs', 'blog', 'eventos', 'archivo', 'prensa', 'servicios', 'categoria', 'wp-content/uploads'];

export interface MadeCrawl {
  pages: number;
  links: number;
  sites: number;
  seconds: number;
}

/** The web's shape: sites of Zipf-like sizes, each page's site, statuses and fetch order. */
interface Shape {
  pages: number;
  siteCount: number;
  /** start[s]..start[s+1]: site s's page indexes. */
  start: Int32Array;
  siteOf: Int32Array;
  /** 0 fetched, 1 queued, 2 failed, 3 duplicate. */
  statusOf: Uint8Array;
  /** Fetch sequence number per page (0: not fetched). */
  seqOf: Int32Array;
  rng: Rng;
}

const host = (s: number) => `www.${WORDS[s % WORDS.length]}${WORDS[(s * 7 + 3) % WORDS.length]}${s}.cl`;

function shapeOf(pages: number, seed: number): Shape {
  const rng = new Rng(seed);
  const siteCount = Math.max(1, Math.round(pages / 150));
  const weights = Array.from({ length: siteCount }, (_, s) => 1 / (s + 5));
  const wsum = weights.reduce((a, b) => a + b, 0);
  const start = new Int32Array(siteCount + 1);
  for (let s = 0; s < siteCount; s++) start[s + 1] = start[s]! + Math.max(1, Math.floor((pages - siteCount) * (weights[s]! / wsum)) + 1);
  start[siteCount] = pages;
  const siteOf = new Int32Array(pages);
  for (let s = 0; s < siteCount; s++) siteOf.fill(s, start[s]!, start[s + 1]!);
  // Fetch order: a partial shuffle, pages of a site near each other, sites interleaved.
  const fetchOrder = new Int32Array(pages);
  for (let i = 0; i < pages; i++) fetchOrder[i] = i;
  for (let i = pages - 1; i > 0; i--) {
    const j = Math.max(0, i - 1 - Math.floor(rng.float() * 5000));
    const t = fetchOrder[i]!;
    fetchOrder[i] = fetchOrder[j]!;
    fetchOrder[j] = t;
  }
  const statusOf = new Uint8Array(pages);
  for (let i = 0; i < pages; i++) {
    const r = rng.float();
    statusOf[i] = r < 0.88 ? 0 : r < 0.95 ? 1 : r < 0.98 ? 2 : 3;
  }
  const seqOf = new Int32Array(pages);
  let seq = 0;
  for (const i of fetchOrder) if (statusOf[i] !== 1) seqOf[i] = ++seq;
  return { pages, siteCount, start, siteOf, statusOf, seqOf, rng };
}

/** One page row's values: ids in discovery order within each site. */
function pageRow(w: Shape, i: number, depth: Uint16Array): unknown[] {
  const { rng, start } = w;
  const s = w.siteOf[i]!;
  const n = i - start[s]!;
  const parent = n === 0 ? (s === 0 ? null : start[Math.floor(rng.float() * s)]!) : start[s]! + Math.floor(n * rng.float());
  depth[i] = parent === null ? 0 : Math.min(1000, depth[parent]! + 1);
  const section = SECTIONS[Math.floor(rng.float() * SECTIONS.length)]!;
  const kind = rng.float();
  const type = kind < 0.85 ? 'text/html; charset=utf-8' : kind < 0.92 ? 'application/pdf' : kind < 0.97 ? 'image/jpeg' : 'text/plain';
  const ext = type.startsWith('text/html') ? '.html' : type === 'application/pdf' ? '.pdf' : type === 'image/jpeg' ? '.jpg' : '.txt';
  const slug = `${WORDS[Math.floor(rng.float() * WORDS.length)]}-${WORDS[Math.floor(rng.float() * WORDS.length)]}-${n}`;
  const query = rng.float() < 0.1 ? `?page=${1 + Math.floor(rng.float() * 40)}&lang=es` : '';
  const url = n === 0 ? `http://${host(s)}/` : `http://${host(s)}/${section}/${slug}${ext}${query}`;
  const st = w.statusOf[i]!;
  const fetched = st !== 1;
  const http = st === 2 ? (rng.float() < 0.7 ? 404 : 503) : st === 1 ? null : rng.float() < 0.03 ? 301 : 200;
  return [
    i + 1, url, s + 1, depth[i]!, parent === null ? null : parent + 1,
    ['fetched', 'queued', 'failed', 'duplicate'][st], fetched ? http : null, fetched ? type : null,
    fetched ? Math.round(Math.min(5e6, rng.lognormal(14_000, 1))) : null, fetched ? w.seqOf[i] : null,
    fetched ? 1.78e12 + w.seqOf[i]! * 20 : null, st === 2 ? (http === 404 ? 'CRAWL_HTTP_4XX' : 'CRAWL_HTTP_5XX') : null,
  ];
}

function writePages(db: Database.Database, w: Shape): void {
  const site = db.prepare('INSERT INTO sites(id, host, pages_known, pages_fetched) VALUES (?, ?, ?, ?)');
  for (let s = 0; s < w.siteCount; s++) site.run(s + 1, host(s), w.start[s + 1]! - w.start[s]!, w.start[s + 1]! - w.start[s]!);
  const ROWS = 100;
  const sql = (k: number) =>
    'INSERT INTO pages(id, url, site_id, depth, parent_id, status, http_status, content_type, bytes, fetch_seq, fetched_at, error_code) VALUES ' +
    Array(k).fill('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
  const insert = db.prepare(sql(ROWS));
  const depth = new Uint16Array(w.pages);
  let params: unknown[] = [];
  for (let i = 0; i < w.pages; i++) {
    params.push(...pageRow(w, i, depth));
    if (params.length === ROWS * 12) {
      insert.run(params);
      params = [];
    }
  }
  if (params.length > 0) db.prepare(sql(params.length / 12)).run(params);
}

/** Links: ~10 per fetched page, 80% inside the site towards its first pages; returns the in-degrees and the count. */
function writeLinks(db: Database.Database, w: Shape): { indeg: Float64Array; links: number } {
  const { rng, start, pages, siteCount } = w;
  const LINK_ROWS = 400;
  // Keyed by the source's fetch_seq (schema 12).
  const linkSql = (k: number) => 'INSERT INTO links(seq, dst, src) VALUES ' + Array(k).fill('(?, ?, ?)').join(', ');
  const insertLinks = db.prepare(linkSql(LINK_ROWS));
  const indeg = new Float64Array(pages);
  const buf: number[] = [];
  const chosen = new Set<number>();
  let links = 0;
  for (let i = 0; i < pages; i++) {
    if (w.statusOf[i] === 1 || w.statusOf[i] === 2) continue;
    chosen.clear();
    const degree = Math.min(60, Math.round(-10 * Math.log(1 - rng.float())));
    const s = w.siteOf[i]!;
    const size = start[s + 1]! - start[s]!;
    for (let k = 0; k < degree * 2 && chosen.size < degree; k++) {
      const t = rng.float() < 0.8 ? start[s]! + Math.floor(size * rng.float() ** 3) : start[Math.floor(siteCount * rng.float() ** 2)]! + Math.floor(rng.float() ** 4 * 50);
      if (t !== i && t < pages) chosen.add(t);
    }
    for (const t of [...chosen].sort((a, b) => a - b)) {
      buf.push(w.seqOf[i]!, t + 1, i + 1);
      indeg[t]! += 1;
      links++;
      if (buf.length === LINK_ROWS * 3) {
        insertLinks.run(buf);
        buf.length = 0;
      }
    }
  }
  if (buf.length) db.prepare(linkSql(buf.length / 3)).run(buf);
  return { indeg, links };
}

/** A page run: values from the in-degrees (plus a little noise), summing to 1. */
function writeRun(db: Database.Database, w: Shape, indeg: Float64Array, links: number): void {
  const ids = new Float64Array(w.pages);
  const values = new Float64Array(w.pages);
  let sum = 0;
  for (let i = 0; i < w.pages; i++) {
    ids[i] = i + 1;
    values[i] = 0.15 + indeg[i]! * (0.9 + 0.2 * w.rng.float());
    sum += values[i]!;
  }
  for (let i = 0; i < w.pages; i++) values[i]! /= sum;
  new PageRankWriter(db).save({ kind: 'page', damping: 0.85, tolerance: 1e-6, iterations: 0, nodes: w.pages, edges: links }, ids, values);
}

export function makePagesCrawl(path: string, pages: number, seed = 11): MadeCrawl {
  const t0 = performance.now();
  CrawlStore.create(path, validateSettings({ seeds: ['http://www.universidad0.cl/'] })).close();
  const db = new Sqlite(path);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const w = shapeOf(pages, seed);
  db.exec('BEGIN');
  writePages(db, w);
  const { indeg, links } = writeLinks(db, w);
  db.prepare("INSERT INTO meta(key, value) VALUES ('state', 'finished') ON CONFLICT(key) DO UPDATE SET value = excluded.value").run();
  db.exec('COMMIT');
  writeRun(db, w, indeg, links);
  db.pragma('journal_mode = WAL');
  db.close();
  return { pages, links, sites: w.siteCount, seconds: (performance.now() - t0) / 1000 };
}
