/** Engine codes and states in a researcher's words. */
import type { CrawlInfo } from '../../core/api/contract.js';
import { kindsText } from './sites-query.js';

const PARKED: Record<string, string> = {
  CRAWL_ROBOTS_UNAVAILABLE: 'robots.txt could not be read (server error or no answer), so nothing may be fetched',
  CRAWL_SITE_PARKED: 'too many failed requests in a row (its error budget was spent)',
};

export function parkedReason(code: string): string {
  return PARKED[code] ?? code;
}

/** "paused by you at 14:03", "failed: disk I/O error", "stopped for good by you", ... */
export function endReasonText(c: CrawlInfo): string {
  const e = c.endReason;
  if (!e) return c.status === 'created' ? 'not started yet' : '';
  const at = e.at ? ` at ${new Date(e.at).toLocaleString()}` : '';
  switch (e.kind) {
    case 'finished':
      return `finished${at}: every page in scope was fetched or given up`;
    case 'max-pages':
      return `reached its page limit${at}; raise the limit and resume to go on`;
    case 'paused':
      return `paused${at}; resume to go on`;
    case 'stopped':
      return `stopped for good${at}; its data stays for analysis`;
    case 'disk-full':
      return `paused${at} because the disk (or the database size limit) was full; free space and resume`;
    case 'failed':
      return `failed${at}: ${e.message ?? 'unknown error'}; resume to try again`;
    case 'interrupted':
      return 'interrupted: the program ended while it ran; resume to go on from its file';
  }
}

/** The one word for running a crawl again: "Start" for one never started, "Resume" for one that ran. */
export function startWord(status: CrawlInfo['status']): 'Start' | 'Resume' {
  return status === 'created' ? 'Start' : 'Resume';
}

/** Codes a page ends with when its server answered (an error status, or a body that cannot be read): not retried. */
const ANSWERED = new Set(['CRAWL_HTTP_4XX', 'CRAWL_DECODED_TOO_LARGE', 'CRAWL_BAD_CONTENT_ENCODING']);
const ROBOTS = new Set(['CRAWL_ROBOTS_UNAVAILABLE']);
/** Sitemaps that were broken or could not be had (--sitemaps): codes CRAWL_SITEMAP_*. */
const isSitemap = (code: string) => code.startsWith('CRAWL_SITEMAP_');

export interface ErrorsLine {
  kind: 'robots' | 'requests' | 'answered' | 'sitemaps';
  count: number;
  /** What they are and where each is listed, in words. */
  text: string;
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * Live's Errors counter said in words: the errors by kind (robots.txt requests that failed,
 * failed page requests with their retries, pages answered with an error) and where each kind
 * is listed (Parked sites, Sites' Failed requests, Recent errors), since the three count
 * different things.
 */
export function errorsExplained(errors: Record<string, number>): ErrorsLine[] {
  const of = (test: (code: string) => boolean) => Object.fromEntries(Object.entries(errors).filter(([code, n]) => n > 0 && test(code)));
  const sum = (kinds: Record<string, number>) => Object.values(kinds).reduce((a, b) => a + b, 0);
  const robots = of((c) => ROBOTS.has(c));
  const answered = of((c) => ANSWERED.has(c));
  const sitemaps = of(isSitemap);
  const requests = of((c) => !ROBOTS.has(c) && !ANSWERED.has(c) && !isSitemap(c));
  const lines: ErrorsLine[] = [];
  const r = sum(robots);
  if (r > 0) {
    lines.push({ kind: 'robots', count: r, text: `${plural(r, 'robots.txt request that failed', 'robots.txt requests that failed')} (server error or no answer): their sites are parked, see Parked sites below; no page was asked of them, so they are not in Recent errors nor among the Failed requests in Sites` });
  }
  const q = sum(requests);
  if (q > 0) {
    lines.push({ kind: 'requests', count: q, text: `${plural(q, 'failed request', 'failed requests')} (${kindsText(requests)}), each retry counted: see Failed requests in Sites; a page that gave up after its retries is in Recent errors` });
  }
  const a = sum(answered);
  if (a > 0) {
    lines.push({ kind: 'answered', count: a, text: `${plural(a, 'page answered with an error', 'pages answered with an error')} (${kindsText(answered)}) or unreadable: in Recent errors, and in Sites among the pages not fetched by reason` });
  }
  const m = sum(sitemaps);
  if (m > 0) {
    lines.push({ kind: 'sitemaps', count: m, text: `${plural(m, 'sitemap', 'sitemaps')} broken or unreachable (${kindsText(sitemaps)}): what each listed before its problem was still crawled; each one that answered is a page of its site with that code (Sites, with errors)` });
  }
  return lines;
}
