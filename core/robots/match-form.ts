import { escapeByte, hexValue, isUnreserved } from '../url/percent.js';

/**
 * The one spelling in which robots.txt patterns and URL paths are compared, so that
 * matching is insensitive to percent-encoding (RFC 9309 §2.2.2: `/foo/bar/%62%61%7A`
 * matches `/foo/bar/baz`; `ツ` matches `%E3%83%84`).
 *
 * - escapes of unreserved characters are decoded (`%7e` -> `~`);
 * - `! & ( ) + , / : ; = ? @` stay literal, and their escapes stay escaped: `%2F` is
 *   not `/`;
 * - every other character is escaped as UTF-8 with upper-case hex (`ツ`, space, `'`, `[`,
 *   `|`, a lone `%`...). That set is wider than RFC 3986 requires on purpose: it is
 *   everything that either the WHATWG URL parser or robots-parser's encodeURI() might
 *   escape on its own, so the form is a fixed point of both and neither can turn a
 *   pattern and a path that are equal here into different strings.
 * - in a path `*` and `$` are plain characters, so they are escaped: a pattern matches
 *   them literally as `%2A` and `%24` (RFC 9309 §2.2.3). In a pattern `*` stays the
 *   wildcard and a final `$` the end anchor; a `$` anywhere else is a plain character.
 */

const PATH_LITERAL = new Uint8Array(128);
for (let c = 0; c < 128; c++) if (isUnreserved(c)) PATH_LITERAL[c] = 1;
for (const ch of '!&()+,/:;=?@') PATH_LITERAL[ch.charCodeAt(0)] = 1;
const PATTERN_LITERAL = PATH_LITERAL.slice();
PATTERN_LITERAL[42 /* * */] = 1;

/** `kind` 'pattern': an Allow/Disallow value; 'path': the path and query of a URL. */
export function robotsMatchForm(s: string, kind: 'pattern' | 'path'): string {
  const LITERAL = kind === 'pattern' ? PATTERN_LITERAL : PATH_LITERAL;
  let i = 0;
  // Fast path: plain ASCII paths are the rule.
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c >= 128 || LITERAL[c] === 0) break;
    i++;
  }
  if (i === s.length) return s;

  let out = s.slice(0, i);
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c === 37 /* % */) {
      const h1 = hexValue(s.charCodeAt(i + 1));
      const h2 = h1 < 0 ? -1 : hexValue(s.charCodeAt(i + 2));
      if (h2 < 0) {
        out += '%25'; // a lone '%' is a literal percent sign
        i++;
      } else {
        const byte = h1 * 16 + h2;
        out += isUnreserved(byte) ? String.fromCharCode(byte) : escapeByte(byte);
        i += 3;
      }
    } else if (c < 128) {
      const endAnchor = c === 36 /* $ */ && kind === 'pattern' && i === s.length - 1;
      out += LITERAL[c] === 1 || endAnchor ? s[i] : escapeByte(c);
      i++;
    } else {
      const cp = s.codePointAt(i)!;
      const width = cp > 0xffff ? 2 : 1;
      out += utf8Escapes(cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp); // lone surrogate
      i += width;
    }
  }
  return out;
}

function utf8Escapes(cp: number): string {
  if (cp < 0x800) return escapeByte(0xc0 | (cp >> 6)) + escapeByte(0x80 | (cp & 63));
  if (cp < 0x10000) {
    return escapeByte(0xe0 | (cp >> 12)) + escapeByte(0x80 | ((cp >> 6) & 63)) + escapeByte(0x80 | (cp & 63));
  }
  return (
    escapeByte(0xf0 | (cp >> 18)) +
    escapeByte(0x80 | ((cp >> 12) & 63)) +
    escapeByte(0x80 | ((cp >> 6) & 63)) +
    escapeByte(0x80 | (cp & 63))
  );
}
