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
