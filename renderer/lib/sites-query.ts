/**
 * The Sites view's place as the address's query (?q=demo&state=parked&errors=1&sort=bytes&desc=0&offset=50),
 * so that a reload or Back shows the same filters, order and page; and the engine's site
 * codes and states in a researcher's words.
 */
import type { LocationQuery, LocationQueryRaw } from 'vue-router';
import { SITE_SORT_KEYS, SITE_STATES, type SiteRobotsDto, type SiteSortKey, type SitesQuery, type SiteStateDto } from '../../core/api/contract.js';

export const SITES_PER_PAGE = 50;
const DEFAULT_SORT: SiteSortKey = 'pages_fetched';

export interface SitesPlace {
  host: string;
  state: SiteStateDto | null;
  errorsOnly: boolean;
  sort: SiteSortKey;
  descending: boolean;
  offset: number;
}

const first = (v: LocationQuery[string]): string | undefined => (Array.isArray(v) ? (v[0] ?? undefined) : (v ?? undefined));

/** Text, and host first, A to Z; numbers largest first. */
export const defaultDescending = (sort: SiteSortKey) => sort !== 'host' && sort !== 'state';

/** The place an address's query holds; anything unknown or malformed there reads as its default. */
export function placeOf(query: LocationQuery): SitesPlace {
  const sort = first(query.sort);
  const state = first(query.state);
  const desc = first(query.desc);
  const offset = Number(first(query.offset) ?? 0);
  const s: SiteSortKey = sort && (SITE_SORT_KEYS as readonly string[]).includes(sort) ? (sort as SiteSortKey) : DEFAULT_SORT;
  return {
    host: first(query.q) ?? '',
    state: state && (SITE_STATES as readonly string[]).includes(state) ? (state as SiteStateDto) : null,
    errorsOnly: first(query.errors) === '1',
    sort: s,
    descending: desc === '1' ? true : desc === '0' ? false : defaultDescending(s),
    offset: Number.isInteger(offset) && offset > 0 ? offset : 0,
  };
}

/** The query for a place: defaults left out, so the plain address is the plain view. */
export function queryOf(p: SitesPlace): LocationQueryRaw {
  const q: LocationQueryRaw = {};
  if (p.host.trim()) q.q = p.host.trim();
  if (p.state) q.state = p.state;
  if (p.errorsOnly) q.errors = '1';
  if (p.sort !== DEFAULT_SORT) q.sort = p.sort;
  if (p.descending !== defaultDescending(p.sort)) q.desc = p.descending ? '1' : '0';
  if (p.offset > 0) q.offset = String(p.offset);
  return q;
}

export function sitesQueryOf(p: SitesPlace): SitesQuery {
  return {
    offset: p.offset,
    limit: SITES_PER_PAGE,
    sort: p.sort,
    descending: p.descending,
    ...(p.host.trim() ? { host: p.host.trim() } : {}),
    ...(p.state ? { state: p.state } : {}),
    ...(p.errorsOnly ? { errorsOnly: true } : {}),
  };
}

export const STATE_WORDS: Record<SiteStateDto, string> = {
  pending: 'pages to fetch',
  done: 'done',
  parked: 'parked',
};

export const STATE_CHOICES: Array<{ value: SiteStateDto | ''; label: string }> = [
  { value: '', label: 'all sites' },
  { value: 'pending', label: 'with pages to fetch' },
  { value: 'done', label: 'done' },
  { value: 'parked', label: 'parked (given up)' },
];

const CODE_WORDS: Record<string, string> = {
  CRAWL_ROBOTS_DISALLOWED: 'disallowed by robots.txt',
  CRAWL_ROBOTS_UNAVAILABLE: 'robots.txt unreadable',
  CRAWL_SITE_PARKED: 'site given up',
  CRAWL_HTTP_4XX: 'client error (4xx)',
  CRAWL_HTTP_5XX: 'server error (5xx)',
  CRAWL_HTTP_429: 'too many requests (429)',
  CRAWL_FETCH_TIMEOUT: 'timed out',
  CRAWL_CONNECT_TIMEOUT: 'connection timed out',
  CRAWL_HEADERS_TIMEOUT: 'no answer in time',
  CRAWL_BODY_TIMEOUT: 'body too slow',
  CRAWL_CONNECT_REFUSED: 'connection refused',
  CRAWL_CONNECTION_RESET: 'connection reset',
  CRAWL_DNS_FAILURE: 'name not found (DNS)',
  CRAWL_BODY_TOO_LARGE: 'page too large',
  CRAWL_DECODED_TOO_LARGE: 'page too large once decoded',
  CRAWL_BAD_CONTENT_ENCODING: 'bad content encoding',
  CRAWL_TOO_MANY_REDIRECTS: 'too many redirects',
  CRAWL_TRAP_DEPTH: 'too deep (trap guard)',
  CRAWL_TRAP_DYNAMIC_DEPTH: 'dynamic URL too deep (trap guard)',
  CRAWL_TRAP_SITE_CAP: 'site page cap reached',
  CRAWL_URL_TOO_LONG: 'URL too long',
  CRAWL_TLS_EXPIRED: 'certificate expired',
  CRAWL_TLS_UNTRUSTED: 'certificate untrusted',
  CRAWL_TLS_WRONG_NAME: 'certificate for another name',
  CRAWL_TLS_HANDSHAKE_FAILED: 'TLS handshake failed',
  CRAWL_TLS_HANDSHAKE_TIMEOUT: 'TLS handshake timed out',
  CRAWL_SITEMAP_MALFORMED: 'sitemap not well-formed',
  CRAWL_SITEMAP_TOO_LARGE: 'sitemap over the limits',
  CRAWL_SITEMAP_LOOP: 'sitemap index lists itself',
  CRAWL_SITEMAP_TOO_DEEP: 'sitemap indexes too deep',
  CRAWL_SITEMAP_NOT_GZIP: 'sitemap not gzip',
  CRAWL_SITEMAP_UNAVAILABLE: 'sitemap unreachable',
  CRAWL_SITEMAP_SITE_CAP: 'site sitemap cap reached',
};

export function codeWords(code: string): string {
  return CODE_WORDS[code] ?? code.replace(/^CRAWL_/, '').toLowerCase().replaceAll('_', ' ');
}

/** "disallowed by robots.txt 3 · server error (5xx) 1", most first; "" when none. */
export function kindsText(kinds: Record<string, number>): string {
  return Object.entries(kinds)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([code, n]) => `${codeWords(code)} ${n.toLocaleString('en-US')}`)
    .join(' · ');
}

const ROBOTS_WORDS: Record<SiteRobotsDto['state'], string> = {
  fetched: 'rules; nothing kept out',
  disallowing: 'rules; kept pages out',
  'allow-all': 'none; all allowed',
  unavailable: 'unreadable',
};

/** The schemes a site was reached over, in words ('http and https'); '–' before its first connection. */
export function schemesText(schemes: readonly string[]): string {
  return schemes.length === 0 ? '–' : schemes.join(' and ');
}

/** A site's certificate in words: valid, the problem, or none (never reached over https). */
export function certificateText(certificate: string | null): string {
  if (certificate === null) return 'none (not https)';
  if (certificate === 'ok') return 'valid';
  return codeWords(certificate);
}

export function robotsText(r: SiteRobotsDto | null): string {
  if (!r) return 'not asked yet';
  const status = r.status === null ? 'no answer' : `HTTP ${r.status}`;
  return `${ROBOTS_WORDS[r.state]} (${status}${r.origins > 1 ? `, worst of ${r.origins} origins` : ''})`;
}
