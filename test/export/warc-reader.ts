/**
 * The independent reader that checks the WARC files crawlbench writes: the npm package `warc`
 * (a streaming parser framed by each record's Content-Length, sharing no code with warcio.js,
 * which writes them) splits the records, and this file checks the rest itself: the HTTP head
 * of each response, request and revisit, and the block and payload digests (SHA-1, base32) as
 * the WARC 1.1 standard defines them. Python warcio, where pip has brought it, checks the same
 * files once more (test/export/warcio-py.ts).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import type { Transform } from 'node:stream';

const WARCStream = createRequire(import.meta.url)('warc') as new () => Transform;

/** One record: its type, WARC headers, HTTP status line and header lines, and the payload as stored. */
export interface WarcRecord {
  type: string;
  warc: Record<string, string>;
  statusline: string | null;
  headers: Array<[string, string]>;
  /** The record's block (everything after the WARC headers, Content-Length bytes). */
  block: Buffer;
  /** The HTTP payload (not decoded, not de-chunked) for HTTP records; the block for the others. */
  payload: Buffer;
}

const HTTP_TYPES = new Set(['response', 'request', 'revisit']);
const HEAD_END = Buffer.from('\r\n\r\n');

function parseHttp(block: Buffer): Pick<WarcRecord, 'statusline' | 'headers' | 'payload'> {
  const end = block.indexOf(HEAD_END);
  const headEnd = end < 0 ? block.length : end;
  const lines = block.subarray(0, headEnd).toString('latin1').split('\r\n');
  const headers = lines.slice(1).filter(Boolean).map((l): [string, string] => {
    const colon = l.indexOf(':');
    return [l.slice(0, colon), l.slice(colon + 1).trim()];
  });
  return { statusline: lines[0] ?? null, headers, payload: block.subarray(Math.min(block.length, headEnd + HEAD_END.length)) };
}

/** Every record of a .warc or .warc.gz file, in order. */
export async function readRecords(file: string): Promise<WarcRecord[]> {
  const raw = readFileSync(file);
  const bytes = file.endsWith('.gz') ? gunzipSync(raw) : raw;
  const parser = new WARCStream();
  const records: WarcRecord[] = [];
  parser.on('data', (r: { headers: Record<string, string>; content: Buffer }) => {
    const type = r.headers['WARC-Type'] ?? '';
    const http = HTTP_TYPES.has(type) ? parseHttp(r.content) : { statusline: null, headers: [], payload: r.content };
    records.push({ type, warc: r.headers, block: r.content, ...http });
  });
  await new Promise<void>((resolve, reject) => {
    parser.once('error', reject);
    parser.once('finish', () => resolve());
    parser.end(bytes);
  });
  if (records.length === 0) throw new Error(`${file}: no WARC record`);
  return records;
}

/** `sha1:` and the base32 of the SHA-1 of the bytes, as WARC digests are written. */
export function sha1Base32(bytes: Buffer): string {
  const digest = createHash('sha1').update(bytes).digest();
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of digest) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return `sha1:${out}`;
}

export interface DigestCheck {
  /** Digests found and verified. */
  passed: number;
  /** One line per digest that does not match: record id, which digest, declared and computed. */
  failed: string[];
}

/**
 * Verifies every WARC-Block-Digest (over the block) and every WARC-Payload-Digest of a
 * response (over the HTTP payload); a revisit's payload digest names another record's payload,
 * so it is checked against that record.
 */
export function checkDigests(records: readonly WarcRecord[]): DigestCheck {
  const result: DigestCheck = { passed: 0, failed: [] };
  const verify = (r: WarcRecord, name: string, computed: string) => {
    const declared = r.warc[name];
    if (declared === undefined) return;
    if (declared === computed) result.passed++;
    else result.failed.push(`${r.warc['WARC-Record-ID']} ${name}: declared ${declared}, computed ${computed}`);
  };
  const byId = new Map(records.map((r) => [r.warc['WARC-Record-ID'], r]));
  for (const r of records) {
    verify(r, 'WARC-Block-Digest', sha1Base32(r.block));
    if (r.type === 'response') verify(r, 'WARC-Payload-Digest', sha1Base32(r.payload));
    if (r.type === 'revisit') {
      const original = byId.get(r.warc['WARC-Refers-To']);
      if (original) verify(r, 'WARC-Payload-Digest', sha1Base32(original.payload));
    }
  }
  return result;
}
