import { getDomain } from 'tldts';
import { CrawlError, ErrorCodes } from '../errors.js';

/**
 * The key that groups pages into sites (docs/design.md section 2.2: politeness, the per-site
 * page cap and r all count sites).
 *
 * - 'host': the host name, port ignored (`a.b.cl:8080` -> `a.b.cl`).
 * - 'domain': the registrable domain from the Public Suffix List via tldts, ICANN section
 *   only (`www.dcc.uchile.cl` -> `uchile.cl`, `foo.github.io` -> `github.io`). The private
 *   section (github.io, blogspot.*) is deliberately not used: hosts under such a suffix are
 *   served by one operator, and grouping them is what domain mode is for.
 *   What tldts does with the remaining cases, and what we return:
 *   - a TLD not in the list (`a.s1.demo`, the test web): tldts applies the PSL's implicit
 *     `*` rule, so the public suffix is the last label and the domain is the last two
 *     labels -> `s1.demo`;
 *   - IP addresses, `localhost`, a bare public suffix (`co.uk`, `demo`): tldts returns
 *     null -> we fall back to the host name (`[::1]` keeps its brackets, as URL.hostname);
 *   - `a.b.localhost`: `localhost` counts as a suffix -> `b.localhost`.
 */
export type SiteKeyMode = 'host' | 'domain';

export function siteKey(url: string | URL, mode: SiteKeyMode): string {
  const host = typeof url === 'string' ? hostOf(url) : url.hostname;
  if (host === null || host === '') {
    throw new CrawlError(ErrorCodes.INTERNAL, `siteKey: not an absolute http(s) URL: ${String(url).slice(0, 200)}`);
  }
  if (mode === 'host') return host;
  // The host is already lower-case ASCII (punycode): skip tldts' own URL/host extraction.
  return getDomain(host, { extractHostname: false, allowPrivateDomains: false }) ?? host;
}

/**
 * Lower-case host name (no port, no userinfo) of an absolute URL, or null if it has none.
 * Canonical URLs (`http://` or `https://`, ASCII authority) are sliced directly, without
 * a URL parse, because the scheduler asks for every discovered link; anything else goes
 * through the WHATWG parser so that e.g. an IDN host still comes out as punycode.
 */
export function hostOf(url: string): string | null {
  let start: number;
  if (url.startsWith('http://')) start = 7;
  else if (url.startsWith('https://')) start = 8;
  else return parsedHost(url);
  let end = start;
  let at = -1;
  for (; end < url.length; end++) {
    const c = url.charCodeAt(end);
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) break;
    if (c === 92 /* \ */ || c > 126 || c <= 32 || c === 37 /* % */) return parsedHost(url);
    if (c === 64 /* @ */) at = end;
  }
  const hostStart = at >= 0 ? at + 1 : start;
  let hostEnd = end;
  if (url.charCodeAt(hostStart) === 91 /* [ */) {
    const close = url.indexOf(']', hostStart);
    if (close < 0 || close >= end) return parsedHost(url);
    hostEnd = close + 1;
  } else {
    const colon = url.indexOf(':', hostStart);
    if (colon >= 0 && colon < end) hostEnd = colon;
  }
  if (hostEnd === hostStart) return null;
  return url.slice(hostStart, hostEnd).toLowerCase();
}

function parsedHost(url: string): string | null {
  try {
    const u = new URL(url);
    return u.hostname === '' ? null : u.hostname;
  } catch {
    return null;
  }
}
