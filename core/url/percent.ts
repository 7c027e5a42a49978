/**
 * Percent-encoding normalisation (RFC 3986 §6.2.2.2): two spellings of the same URL, such
 * as `/%7euser` and `/~user`, must become one string or the crawler fetches both.
 * Escapes of unreserved characters (A-Z a-z 0-9 - . _ ~) are decoded, because decoding
 * them never changes what a server sees; every other escape keeps its escape but gets
 * upper-case hex. Reserved characters are never decoded: `%2F` is not `/` to a server.
 * Shared by the canonicaliser and the robots.txt matcher so that both agree.
 */

/** Value of a hex digit, or -1. `NaN` (reading past the end of a string) gives -1 too. */
export function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48; // 0-9
  if (c >= 65 && c <= 70) return c - 55; // A-F
  if (c >= 97 && c <= 102) return c - 87; // a-f
  return -1;
}

/** RFC 3986 §2.3 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~". */
export function isUnreserved(c: number): boolean {
  return (
    (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 45 || c === 46 || c === 95 || c === 126
  );
}

const HEX_UPPER = '0123456789ABCDEF';

/** `%XX` with upper-case hex for one byte. */
export function escapeByte(b: number): string {
  return '%' + HEX_UPPER[b >> 4] + HEX_UPPER[b & 15];
}

/**
 * Decodes escapes of unreserved characters and upper-cases the hex of all others.
 * A '%' not followed by two hex digits is left alone: it is what the server will receive.
 * Returns the input itself (no allocation) when it holds no '%'.
 */
export function normalizePercentEncoding(s: string): string {
  let i = s.indexOf('%');
  if (i < 0) return s;
  let out = '';
  let last = 0;
  while (i >= 0) {
    const h1 = hexValue(s.charCodeAt(i + 1));
    const h2 = h1 < 0 ? -1 : hexValue(s.charCodeAt(i + 2));
    if (h2 < 0) {
      i = s.indexOf('%', i + 1);
      continue;
    }
    const byte = h1 * 16 + h2;
    out += s.slice(last, i);
    out += isUnreserved(byte) ? String.fromCharCode(byte) : escapeByte(byte);
    last = i + 3;
    i = s.indexOf('%', last);
  }
  return out + s.slice(last);
}
