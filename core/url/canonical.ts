import { normalizePercentEncoding } from './percent.js';

/**
 * One canonical spelling per page, so that the frontier, the link graph and the
 * comparison between two crawls all key pages by the same string. The WHATWG parser (the
 * global URL, as browsers use) already lower-cases the host, converts IDN hosts to
 * punycode, drops the default port, resolves dot segments and gives an empty path '/';
 * this module adds what it leaves alone: the fragment, percent-encoding case and
 * unreserved escapes, a bare trailing '?', and session ids (the classic crawler trap: the
 * same page under a new URL on every visit).
 *
 * It runs for every extracted link (~50,000 times a second), so the common URL, with no
 * '%', ';' or '?', costs one URL parse and no regular expression.
 */

/** URLs longer than this are not crawled (Scope reports CRAWL_URL_TOO_LONG). */
export const DEFAULT_MAX_URL_LENGTH = 2048;

/** Query parameter names (lower-case) that carry session ids. */
const SESSION_PARAMS = new Set(['jsessionid', 'phpsessid', 'sid', 'sessionid', 'session_id', 'cfid', 'cftoken']);
/** IIS classic ASP appends letters to the name: ASPSESSIONIDQQGGQGPG=... */
const SESSION_PARAM_PREFIX = 'aspsessionid';
/** Java servlet containers put the session in a path parameter: /cart;jsessionid=ABC?x=1 */
const PATH_SESSION = ';jsessionid=';

/**
 * The canonical form of `input` resolved against `base`, or null when it is not an
 * http(s) URL with a host (mailto:, javascript:, data:, unparsable, bad base...).
 */
export function canonicalize(input: string, base?: string): string | null {
  let u: URL;
  try {
    u = base === undefined ? new URL(input) : new URL(input, base);
  } catch {
    return null;
  }
  const protocol = u.protocol;
  if (protocol !== 'http:' && protocol !== 'https:') return null;
  if (u.hostname === '') return null;

  let href = u.href;
  // The first '#' is the fragment: the parser escapes '#' everywhere else.
  const hashAt = href.indexOf('#');
  if (hashAt >= 0) href = href.slice(0, hashAt);
  if (href.indexOf('%') < 0 && href.indexOf(';') < 0 && href.indexOf('?') < 0) return href;

  // Special schemes always serialise a path starting with '/' right after the authority,
  // and neither userinfo nor host may contain a '/'.
  const pathStart = href.indexOf('/', protocol.length + 2);
  const origin = href.slice(0, pathStart);
  const queryAt = href.indexOf('?', pathStart);
  let path = queryAt < 0 ? href.slice(pathStart) : href.slice(pathStart, queryAt);
  let query = queryAt < 0 ? '' : href.slice(queryAt + 1);

  path = normalizePercentEncoding(path);
  if (path.indexOf(';') >= 0) path = stripPathSession(path);
  if (query !== '') query = stripSessionParams(normalizePercentEncoding(query));
  return query === '' ? origin + path : origin + path + '?' + query;
}

/** True when the URL has a (non-empty) query string: the thesis' "dynamic page". */
export function isDynamic(url: string): boolean {
  const q = url.indexOf('?');
  if (q < 0) return false;
  const h = url.indexOf('#');
  const end = h < 0 ? url.length : h;
  return q < end && q + 1 < end;
}

/** Removes every `;jsessionid=...` path parameter (up to the next ';' or '/'). */
function stripPathSession(path: string): string {
  let lower = path.toLowerCase();
  let at = lower.indexOf(PATH_SESSION);
  while (at >= 0) {
    let end = at + PATH_SESSION.length;
    while (end < path.length && path.charCodeAt(end) !== 59 /* ; */ && path.charCodeAt(end) !== 47 /* / */) end++;
    path = path.slice(0, at) + path.slice(end);
    lower = lower.slice(0, at) + lower.slice(end);
    at = lower.indexOf(PATH_SESSION, at);
  }
  return path;
}

/** Drops session-id parameters, keeping the others verbatim and in order. */
function stripSessionParams(query: string): string {
  const parts = query.split('&');
  let removed = false;
  const kept: string[] = [];
  for (const part of parts) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).toLowerCase();
    if (SESSION_PARAMS.has(name) || name.startsWith(SESSION_PARAM_PREFIX)) {
      removed = true;
    } else {
      kept.push(part);
    }
  }
  return removed ? kept.join('&') : query;
}

/**
 * Characters a URL's path may hold that the WHATWG parser neither escapes nor reads as more
 * than a character of the path (RFC 3986's unreserved and sub-delims, ':', '@' and '/'); '%'
 * and ';' are left out, being what canonicalize changes, and so are '?', '#' and '\' (which
 * end or split the path).
 */
const PLAIN_PATH = new Uint8Array(128);
for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/!$&'()*+,=:@") PLAIN_PATH[ch.charCodeAt(0)] = 1;

/**
 * True when href[from..] is a path the parser would serialise as it stands: plain characters
 * only (':' too unless `colon` is false) and no '.' or '..' segment to resolve.
 */
function plainPath(href: string, from: number, colon: boolean): boolean {
  let segment = from;
  for (let i = from; i <= href.length; i++) {
    const c = i < href.length ? href.charCodeAt(i) : 47;
    if (c === 47 /* / */) {
      const n = i - segment;
      if ((n === 1 || n === 2) && href.charCodeAt(segment) === 46 && (n === 1 || href.charCodeAt(segment + 1) === 46)) return false;
      segment = i + 1;
    } else if (c >= 128 || PLAIN_PATH[c] === 0 || (c === 58 /* : */ && !colon)) {
      return false;
    }
  }
  return true;
}

/** True when `url` is canonical and holds neither '%' nor ';' (what canonicalize rewrites), so a plain path may be joined to it as it stands. */
function plainCanonical(url: string): boolean {
  return url.indexOf('%') < 0 && url.indexOf(';') < 0 && canonicalize(url) === url;
}

/** Origins (scheme://authority) known to be spelled canonically, or known not to be. */
const ORIGINS = new Map<string, boolean>();
const MAX_ORIGINS = 4096;

function canonicalOrigin(origin: string): boolean {
  let known = ORIGINS.get(origin);
  if (known === undefined) {
    if (ORIGINS.size >= MAX_ORIGINS) ORIGINS.clear();
    known = plainCanonical(origin + '/');
    // A copy as the key: `origin` is a slice of the link, itself a slice of the page's whole
    // text (V8 keeps a sliced string's parent alive), so 4,096 slices kept here held up to
    // 4,096 pages: 100 MB more RSS in bench/soak until this copy.
    ORIGINS.set(Buffer.from(origin, 'utf8').toString('utf8'), known);
  }
  return known;
}

/**
 * canonicalize(href, base) for the links of one page. A page's links are mostly a path on its
 * own site, a path relative to the page, or a plain absolute URL; when the base is itself
 * canonical, those come out as the base's origin or directory joined to the path (or the URL as
 * it stands), with no URL parse (the parser was 6.7% of the parse thread in bench/throughput;
 * 0.09-0.14 us a link here against 0.54-0.65 us).
 * Anything else (a '%', ';', '?' or '#', a dot segment, a scheme-relative or non-ASCII
 * reference, an origin not spelled canonically) goes through canonicalize. Property-tested
 * against canonicalize (test/url/canonical.test.ts).
 */
export function linkResolver(base: string): (href: string) => string | null {
  const slow = (href: string) => canonicalize(href, base);
  if (!plainCanonical(base)) return slow;
  const pathStart = base.indexOf('/', base.indexOf('//') + 2);
  const origin = base.slice(0, pathStart);
  const queryAt = base.indexOf('?');
  const dir = base.slice(0, base.lastIndexOf('/', queryAt < 0 ? base.length : queryAt - 1) + 1);
  return (href) => {
    const c0 = href.charCodeAt(0);
    if (c0 === 47 /* / */) {
      if (href.charCodeAt(1) !== 47 && plainPath(href, 0, true)) return origin + href;
    } else if (c0 === 104 /* h */ && (href.startsWith('http://') || href.startsWith('https://'))) {
      const slash = href.indexOf('/', href.charCodeAt(4) === 58 ? 7 : 8);
      if (slash > 0 && canonicalOrigin(href.slice(0, slash)) && plainPath(href, slash, true)) return href;
    } else if (c0 < 128 && PLAIN_PATH[c0] === 1 && plainPath(href, 0, false)) {
      return dir + href;
    }
    return slow(href);
  };
}
