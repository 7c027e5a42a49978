/**
 * The browser-mode guard: one random token per `crawlbench serve`, compared in constant time,
 * and the checks that tell this server's own page from another page on the same machine.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const TOKEN_COOKIE = 'crawlbench_token';

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export function tokenMatches(given: string | null | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token from an `Authorization: Bearer` header only: what the HTTP API wants. */
export function bearerToken(req: IncomingMessage): string | null {
  const auth = req.headers.authorization;
  return auth?.startsWith('Bearer ') ? auth.slice(7) : null;
}

/**
 * The token from ?token=, an `Authorization: Bearer` header, or the session cookie: enough for
 * static files and the WebSocket upgrade (whose Origin is checked), never for POST /api/call,
 * since a browser sends the cookie along with any page's request to any port of this host.
 */
export function requestToken(req: IncomingMessage): string | null {
  let q: string | null = null;
  try {
    q = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('token');
  } catch {
    // An unparsable request target carries no token in its query.
  }
  if (q) return q;
  const bearer = bearerToken(req);
  if (bearer) return bearer;
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, v] = part.trim().split('=');
    if (k === TOKEN_COOKIE && v) return v;
  }
  return null;
}

export function requestAuthorized(req: IncomingMessage, token: string): boolean {
  return tokenMatches(requestToken(req), token);
}

/**
 * Why a request comes from another page, or null when it does not: an Origin header that is
 * not one of ours (including "null"), or Sec-Fetch-Site other than same-origin / none. Another
 * port of the same host is "same-site", so same-site is refused too. Clients that are not
 * browsers send neither header and pass (they still need the token).
 */
export function foreignRequest(req: IncomingMessage, allowedOrigins: string[]): string | null {
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedOrigins.includes(origin)) return `Origin ${origin} is not this server`;
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return `Sec-Fetch-Site: ${site}`;
  return null;
}
