/**
 * The hash baseline's hash, stated so that anyone can recompute an assignment: 32-bit FNV-1a
 * (offset basis 0x811c9dc5, prime 0x01000193) over the UTF-8 bytes of the URL (page models)
 * or the host name (site models); the part is the hash modulo K. FNV-1a because it is the
 * simplest well-known string hash with a published definition, and because its low bits, which
 * the modulo keeps, are well mixed for URLs that differ only at their end.
 */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      h = Math.imul(h ^ c, 0x01000193);
      continue;
    }
    // UTF-8 bytes of the code point (a surrogate pair is one code point of four bytes).
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d < 0xe000) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    } else if (c >= 0xd800 && c < 0xe000) c = 0xfffd; // a lone surrogate encodes as U+FFFD, as Buffer.from does
    const bytes =
      c < 0x800 ? [0xc0 | (c >> 6), 0x80 | (c & 63)]
      : c < 0x10000 ? [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63)]
      : [0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63)];
    for (const b of bytes) h = Math.imul(h ^ b, 0x01000193);
  }
  return h >>> 0;
}

/** The hash baseline's part of a name's hash among k parts. */
export function hashPart(h: number, k: number): number {
  return h % k;
}
