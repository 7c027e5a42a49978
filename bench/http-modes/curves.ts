import { readFileSync } from 'node:fs';
import Sqlite from '../../core/store/sqlite.js';
import { canonicalize } from '../../core/url/canonical.js';

/** Fetched pages of a crawl database in the order they were stored: URL and epoch ms. */
export function fetchedPages(db: string): Array<{ url: string; at: number }> {
  const d = new Sqlite(db, { readonly: true });
  try {
    return d.prepare("SELECT url, fetched_at AS at FROM pages WHERE status = 'fetched' ORDER BY fetch_seq").all() as Array<{ url: string; at: number }>;
  } finally {
    d.close();
  }
}

/**
 * Pages per second over the crawl's middle third of pages. The first third (home pages, first
 * connections) and the last are left out: near --max-pages the last pages are out in a few
 * connections holding up to c each, and with c = 100 the crawl ends on two or three of them.
 */
export function steadyRate(pages: Array<{ at: number }>): number {
  if (pages.length < 3) return NaN;
  const from = Math.floor(pages.length / 3);
  const to = Math.floor((2 * pages.length) / 3);
  return (to - from) / ((pages[to]!.at - pages[from]!.at) / 1000);
}

/** The qualities testweb --quality zipf wrote (URL<TAB>quality), by canonical URL. */
export function readQualities(file: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const url = canonicalize(line.slice(0, tab));
    if (url) out.set(url, Number(line.slice(tab + 1)));
  }
  return out;
}

export interface Curve {
  /** Seconds from the crawl's first page to its last. */
  seconds: number;
  pages: number;
  /** At each time fraction of `horizon` seconds: the share of all pages fetched by then, and of all quality. */
  byTime: Array<{ t: number; pages: number; quality: number }>;
  /** At each fraction of the pages fetched: the share of all quality fetched by then (the paper's metric 2). */
  byPages: Array<{ pages: number; quality: number }>;
}

/**
 * The crawl-ability paper's three metrics (its section 5.3): pages over time, quality over
 * pages, quality over time, as shares of the `total` pages and `totalQuality` of the web.
 */
export function curve(pages: Array<{ url: string; at: number }>, q: Map<string, number>, horizon: number, steps: number[], total: number, totalQuality: number): Curve {
  const t0 = pages[0]?.at ?? 0;
  const cum: number[] = [];
  let acc = 0;
  for (const p of pages) cum.push((acc += q.get(p.url) ?? 0));
  const byTime = steps.map((f) => {
    const limit = t0 + f * horizon * 1000;
    let n = 0;
    while (n < pages.length && pages[n]!.at <= limit) n++;
    return { t: f, pages: n / total, quality: n ? cum[n - 1]! / totalQuality : 0 };
  });
  const byPages = steps.map((f) => {
    const n = Math.min(pages.length, Math.round(f * total));
    return { pages: f, quality: n ? cum[n - 1]! / totalQuality : 0 };
  });
  return { seconds: pages.length ? (pages[pages.length - 1]!.at - t0) / 1000 : 0, pages: pages.length, byTime, byPages };
}
