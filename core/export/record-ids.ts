/**
 * WARC record ids and digests. Ids are name-based UUIDs (RFC 4122 version 5 layout) of the
 * crawl and the fetch, not random ones: a revisit names its original's id without the export
 * keeping a million ids in memory, and exporting a crawl twice gives its records the same ids.
 */
import { createHash } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 (no padding needed for 20-byte SHA-1 digests: 160 bits = 32 characters). */
export function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  while (out.length % 8 !== 0) out += '=';
  return out;
}

export function sha1(bytes: Uint8Array): Buffer {
  return createHash('sha1').update(bytes).digest();
}

/** `sha1:BASE32`, the digest form CDX tools expect. */
export function warcDigest(sha: Uint8Array): string {
  return `sha1:${base32(sha)}`;
}

export class RecordIds {
  constructor(private readonly namespace: string) {}

  /** `<urn:uuid:…>` for one record of one fetch: kind 'page' or 'robots', the row id, and the record's role. */
  id(kind: 'page' | 'robots' | 'warcinfo', rowId: number | string, role: string): string {
    const h = createHash('sha1').update(`${this.namespace}\n${kind}\n${rowId}\n${role}`).digest();
    h[6] = (h[6]! & 0x0f) | 0x50;
    h[8] = (h[8]! & 0x3f) | 0x80;
    const x = h.toString('hex');
    return `<urn:uuid:${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}>`;
  }
}
