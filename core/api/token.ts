/** The browser-mode guard: one random token per `crawlbench serve`, compared in constant time. */
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

/** The token from ?token=, an `Authorization: Bearer` header, or the session cookie. */
export function requestToken(req: IncomingMessage): string | null {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const q = url.searchParams.get('token');
  if (q) return q;
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice(7);
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, v] = part.trim().split('=');
    if (k === TOKEN_COOKIE && v) return v;
  }
  return null;
}

export function requestAuthorized(req: IncomingMessage, token: string): boolean {
  return tokenMatches(requestToken(req), token);
}
