/**
 * A crawl's settings and its time in a researcher's words (Live's settings panel), and its
 * progress where the number of pages to fetch is known: the demo web's page count, or the
 * page limit. Pure functions, tested alone (test/renderer/crawl-facts.test.ts).
 */
import type { CrawlSettingsDto } from '../../core/api/contract.js';
import { formatBytes, formatNumber } from './format.js';

export interface Fact {
  /** What it is ("w: wait between connections"). */
  label: string;
  value: string;
  /** A longer explanation, shown as the fact's tooltip. */
  title: string;
  /** data-fact attribute (tests and screenshots find a fact by it). */
  key: string;
}

/** "15 s", "50 ms", "1 h 5 min". */
export function formatWait(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  if (ms < 1000) return `${formatNumber(ms, 1)} ms`;
  return formatDuration(ms / 1000);
}

/** "42 s", "3 min 20 s", "2 h 5 min", "3 d 4 h". */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '–';
  if (seconds < 60) return `${formatNumber(seconds, seconds < 10 ? 1 : 0)} s`;
  const s = Math.round(seconds);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  return sec > 0 ? `${m} min ${sec} s` : `${m} min`;
}

const list = (xs: string[], max = 5) => (xs.length === 0 ? 'none' : xs.length <= max ? xs.join(', ') : `${xs.slice(0, max).join(', ')} and ${formatNumber(xs.length - max)} more`);

/** The seeds' host names, each once, in seed order. */
function seedHosts(seeds: string[]): string[] {
  const hosts = seeds.flatMap((u) => {
    try {
      return [new URL(u).hostname];
    } catch {
      return [];
    }
  });
  return [...new Set(hosts)];
}

/** Where the crawl may go: its suffixes and hosts, or, with neither (a crawl seeded by URLs), its seeds' hosts. */
function scopeText(s: CrawlSettingsDto): string {
  const named = [...s.scope.suffixes, ...s.scope.hosts];
  const where = named.length > 0 ? list(named) : `the seeds' hosts: ${list(seedHosts(s.seeds))}`;
  return where + (s.scope.excludes.length ? `; excluding ${list(s.scope.excludes)}` : '');
}

/** "demo web: 60 sites, 3,000 pages"; revision 2 (a size of its own) as the later revision of that web. */
function demoSource(demo: NonNullable<CrawlSettingsDto['demoWeb']>): string {
  const first = `${formatNumber(demo.sites)} sites, ${formatNumber(demo.pages)} pages`;
  if (demo.revision !== 2) return `demo web: ${first}`;
  const size = demo.webPages === null ? '' : `: ${formatNumber(demo.webPages)} pages`;
  return `demo web, revision 2 (months later) of the web of ${first}${size}`;
}

/** The settings a crawl was made with, in the order New crawl asks for them. */
export function settingFacts(s: CrawlSettingsDto): Fact[] {
  const params = Object.entries(s.policyParams);
  const demo = s.demoWeb;
  const facts: Fact[] = [
    demo
      ? { key: 'source', label: 'What was crawled', value: demoSource(demo), title: 'The generated test web served on this machine' }
      : { key: 'seeds', label: 'Seeds', value: list(s.seeds), title: `${formatNumber(s.seeds.length)} seed URLs: where the crawl started` },
    { key: 'scope', label: 'Scope', value: scopeText(s), title: 'Domain suffixes and hosts whose pages may be fetched' },
    { key: 'policy', label: 'Ordering policy', value: s.policy, title: 'The order in which pages and sites were fetched' },
    { key: 'params', label: 'Policy parameters', value: params.length ? params.map(([k, v]) => `${k} = ${String(v)}`).join(', ') : 'defaults', title: "The policy's own parameters" },
    { key: 'history', label: 'History crawl', value: s.historyCrawl ?? 'none', title: 'The earlier crawl whose PageRank guided this one' },
    { key: 'w', label: 'w: wait between connections', value: formatWait(s.w), title: 'Time between the end of one connection to a site and the start of the next' },
    { key: 'c', label: 'c: pages per connection', value: formatNumber(s.c), title: 'Pages fetched one after another over one connection' },
    { key: 'r', label: 'r: simultaneous connections', value: formatNumber(s.r), title: 'Connections open at once, each to a different site' },
    { key: 'batch', label: 'K: batch size', value: s.batch === null ? 'none' : formatNumber(s.batch), title: 'Pages crawled per batch (batch policies recompute their order between batches)' },
    { key: 'maxPages', label: 'Max pages', value: s.maxPages === null ? 'no limit' : formatNumber(s.maxPages), title: 'The crawl stops after this many pages' },
    { key: 'maxDepth', label: 'Max depth', value: formatNumber(s.maxDepth), title: 'Links followed from a seed, at most' },
    { key: 'maxPagesPerSite', label: 'Max pages per site', value: formatNumber(s.maxPagesPerSite), title: 'Pages fetched from one site, at most' },
    { key: 'siteKey', label: 'A site is', value: s.siteKey === 'domain' ? 'a registrable domain' : 'a host name', title: 'What politeness (w, c) and the per-site limits count as one site' },
    { key: 'userAgent', label: 'User agent', value: s.userAgent, title: 'Sent with every request' },
    { key: 'sitemaps', label: 'Sitemaps', value: s.sitemaps ? 'read: pages found through them too' : 'not read: links only', title: 'Whether the sitemaps of each site (robots.txt Sitemap: lines, /sitemap.xml) were read and what they list crawled' },
    { key: 'content', label: 'Content kept', value: s.storeContent ? `yes, up to ${formatBytes(s.contentBudget)}` : 'no', title: 'Requests, response headers and bodies kept for a WARC export' },
  ];
  return facts;
}

export interface Progress {
  /** 0..1 */
  fraction: number;
  /** Pages the crawl is expected to fetch in all. */
  total: number;
  /** What the total is ("the demo web's pages", "the page limit"). */
  of: string;
  /** Seconds left at the current pace; null when it cannot be told (paused, no pace yet, done). */
  etaSeconds: number | null;
}

/**
 * Progress where the total is known: the page count of the demo web crawled, or the page limit (the smaller
 * of the two when both are set). A crawl of real seeds without a limit has no known total: null.
 * A finished crawl is done whatever it fetched (some pages of a web are out of reach).
 */
export function crawlProgress(s: CrawlSettingsDto | null, pages: number, pagesPerSecond: number | null, state: { running: boolean; finished: boolean }): Progress | null {
  if (!s) return null;
  const totals: Array<[number, string]> = [];
  // The web crawled: revision 2 has more or fewer pages than its spec (revision 1's); unknown: none.
  if (s.demoWeb && s.demoWeb.webPages !== null) totals.push([s.demoWeb.webPages, "the demo web's pages"]);
  if (s.maxPages !== null) totals.push([s.maxPages, 'the page limit']);
  if (totals.length === 0) return null;
  const [total, of] = totals.reduce((a, b) => (b[0] < a[0] ? b : a));
  const fraction = state.finished ? 1 : Math.min(1, total > 0 ? pages / total : 0);
  const left = Math.max(0, total - pages);
  const etaSeconds = state.running && !state.finished && pagesPerSecond && pagesPerSecond > 0 && left > 0 ? left / pagesPerSecond : null;
  return { fraction, total, of, etaSeconds };
}
