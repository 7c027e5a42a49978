/**
 * robots.txt's text as RFC 9309 §2.5 reads it: its first 500 KiB, after its Content-Encoding
 * is undone. A server asked with Accept-Encoding: gzip (as crawlbench asks every server) may
 * well gzip its robots.txt; read as it came, such a file was no rules at all, and its site's
 * Disallow lines were crawled. Only a prefix is decoded (a stream stopped once it has enough),
 * so that a robots.txt that inflates without end costs 500 KiB, and a body cut short still
 * gives what it holds.
 */
import { constants, createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import type { Transform } from 'node:stream';
import type { BodySink, Connection, FetchResponse } from './interfaces.js';

/** RFC 9309 §2.5: at least 500 KiB are parsed; crawlbench parses that much and no more. */
export const ROBOTS_MAX_BYTES = 500 * 1024;

/**
 * The most of a robots.txt's body read off the wire, whatever --max-body-size says: twice what
 * is parsed, for a compressed body. A longer one is cut off there (robotsRequest).
 */
export const ROBOTS_READ_BYTES = 2 * ROBOTS_MAX_BYTES;

/** The Accept header of a robots.txt request. */
const ROBOTS_ACCEPT = 'text/plain,*/*;q=0.5';

/**
 * GET robots.txt: its first ROBOTS_READ_BYTES, the rest left unread (`cut`; the connection is
 * then closed, as after any body not read to its end). Before, a robots.txt longer than that
 * and than --max-body-size failed as too large, and its site was parked as one whose robots.txt
 * could not be fetched; RFC 9309 §2.5 reads a prefix. A connection that cannot stream (the
 * simulator's) is asked for the whole body up to the larger of the two limits.
 */
export async function robotsRequest(conn: Connection, path: string, maxBodyBytes: number): Promise<{ res: FetchResponse; cut: boolean }> {
  if (!conn.stream) return { res: await conn.request(path, { accept: ROBOTS_ACCEPT }, Math.max(maxBodyBytes, ROBOTS_READ_BYTES)), cut: false };
  const pieces: Buffer[] = [];
  let cut = false;
  const sink: BodySink = {
    maxBytes: ROBOTS_READ_BYTES,
    onCut: () => (cut = true),
    head: () => {},
    chunk: (data) => {
      pieces.push(data);
      return Promise.resolve(true);
    },
  };
  const res = await conn.stream(path, sink, ROBOTS_ACCEPT);
  return { res: { ...res, body: Buffer.concat(pieces) }, cut };
}

const ZLIB = { finishFlush: constants.Z_SYNC_FLUSH };

/** The text, or null when the body cannot be decoded (an unknown encoding, or bytes that are not what it says). */
export async function robotsText(body: Buffer, contentEncoding: unknown): Promise<string | null> {
  const enc = (typeof contentEncoding === 'string' ? contentEncoding : '').trim().toLowerCase();
  if (enc === '' || enc === 'identity') return body.subarray(0, ROBOTS_MAX_BYTES).toString('utf8');
  try {
    switch (enc) {
      case 'gzip':
      case 'x-gzip':
        // Bytes after the gzip member that are not another one (a server's stray newline or
        // banner) fail the whole decode before any text comes out: its deflate data alone then.
        return (await prefix(body, createGunzip(ZLIB)).catch((err: unknown) => {
          const deflated = gzipMemberData(body);
          if (!deflated) throw err;
          return prefix(deflated, createInflateRaw(ZLIB));
        })).toString('utf8');
      case 'deflate':
        // Servers send either zlib-wrapped or raw deflate under this name.
        return (await prefix(body, createInflate(ZLIB)).catch(() => prefix(body, createInflateRaw(ZLIB)))).toString('utf8');
      case 'br':
        return (await prefix(body, createBrotliDecompress({ finishFlush: constants.BROTLI_OPERATION_FLUSH }))).toString('utf8');
      default:
        return null;
    }
  } catch {
    return null;
  }
}

/** The first ROBOTS_MAX_BYTES that `stream` makes of `body` (all of it when shorter); the stream is stopped once it has them. */
function prefix(body: Buffer, stream: Transform): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const out: Buffer[] = [];
    let size = 0;
    let done = false;
    const end = (err?: Error) => {
      if (done) return;
      done = true;
      stream.destroy();
      if (err) reject(err);
      else resolve(Buffer.concat(out).subarray(0, ROBOTS_MAX_BYTES));
    };
    stream.on('data', (d: Buffer) => {
      out.push(d);
      size += d.length;
      if (size >= ROBOTS_MAX_BYTES) end();
    });
    stream.on('end', () => end());
    // Bytes past a good beginning that fail to decode (a body cut short by the server) end the text there.
    stream.on('error', (err) => (size > 0 ? end() : end(err)));
    stream.end(body);
  });
}

/** A gzip member's deflate data: its header (RFC 1952 §2.3) and the optional fields its flags name passed over; null when `body` does not begin as one. */
function gzipMemberData(body: Buffer): Buffer | null {
  if (body.length < 10 || body[0] !== 0x1f || body[1] !== 0x8b || body[2] !== 8) return null;
  const flags = body[3]!;
  let at = 10;
  if (flags & 4) at = at + 2 <= body.length ? at + 2 + body.readUInt16LE(at) : -1; // FEXTRA
  for (const bit of [8, 16]) if (flags & bit && at >= 0) at = body.indexOf(0, at) < 0 ? -1 : body.indexOf(0, at) + 1; // FNAME, FCOMMENT
  if (flags & 2 && at >= 0) at += 2; // FHCRC
  return at >= 0 && at < body.length ? body.subarray(at) : null;
}
