/**
 * WARC 1.1 records built and serialised by warcio (webrecorder's library), each gzipped as a
 * member of its own. What warcio 2.4 does not do for us, and is done here:
 * - WARC/1.1 is asked for explicitly (its default is 1.0);
 * - the HTTP headers keep the order, case and repeats they were received with: warcio's
 *   HeadersMultiMap groups repeats by name (and splits values holding ",,,"), so OrderedHeaders
 *   iterates the received lines instead;
 * - WARC-Concurrent-To, a revisit's WARC-Refers-To and its WARC-Payload-Digest are set here;
 * - both digests are computed here with node's crypto and passed in (warcio writes a digest
 *   header passed in unchanged): the payload digest is the one the revisit decision was made
 *   on, and the block digest is of the exact bytes warcio writes (its HTTP head text as UTF-8,
 *   then the payload). warcio would otherwise instantiate a hash-wasm module per record, a
 *   third of the export's time (bench/export);
 * - records are serialised from memory (the lib serializer, not the node one, which spills
 *   payloads over 2 MB to a temporary file that a killed export would leave behind), and
 *   gzipped with node's zlib at level 3, ~5x faster here than warcio's CompressionStream path
 *   (level 3 is both faster and smaller than level 1 on HTML here; level 6 costs 1.7x the
 *   time for 7% less).
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { HeadersMultiMap, StatusAndHeaders, WARCRecord, WARCSerializer } from 'warcio';
import { warcDigest } from './record-ids.js';

/** crawlbench's version, as the warcinfo record names the software. */
export const SOFTWARE = 'crawlbench/0.1.0';
const WARC_1_1 = 'WARC/1.1';
const DIGEST = { algo: 'sha-1', prefix: 'sha1:', base32: true } as const;

export interface HttpHead {
  statusline: string;
  headers: Array<[string, string]>;
}

/** Header lines in the order received; lookups by name still work (warcio's indexer reads them). */
class OrderedHeaders extends HeadersMultiMap {
  constructor(private readonly lines: Array<[string, string]>) {
    super();
    for (const [k, v] of lines) if (!Map.prototype.has.call(this, k)) Map.prototype.set.call(this, k, v);
  }
  override *[Symbol.iterator](): IterableIterator<[string, string]> {
    yield* this.lines;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A stored head (latin1 text, byte for byte) as text warcio can write: warcio encodes header
 * text as UTF-8, so bytes that are valid UTF-8 are decoded as such and written back unchanged;
 * others (rare: raw latin1 in a header value) are kept as latin1 characters, and `lossy` says so.
 */
export function parseHead(stored: string): HttpHead & { lossy: boolean } {
  let text = stored;
  let lossy = false;
  if (/[\x80-\xff]/.test(stored)) {
    try {
      text = utf8.decode(Buffer.from(stored, 'latin1'));
    } catch {
      lossy = true;
    }
  }
  const lines = text.split('\r\n');
  const headers: Array<[string, string]> = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') break;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    headers.push([line.slice(0, colon), line.slice(colon + 1).replace(/^[ \t]+/, '')]);
  }
  return { statusline: lines[0] ?? '', headers, lossy };
}

export interface RecordBase {
  id: string;
  url: string;
  /** ISO 8601 with milliseconds. */
  date: string;
}

async function finish(record: WARCRecord): Promise<Buffer> {
  const bytes = await WARCSerializer.serialize(record, { gzip: false, digest: DIGEST });
  return gzipSync(bytes, { level: 3 });
}

/** Sets the HTTP head and the block digest: sha1 of the head as warcio writes it (text + CRLF, UTF-8) and the payload. */
function withHead(record: WARCRecord, head: HttpHead, payload: Uint8Array = EMPTY): WARCRecord {
  const http = new StatusAndHeaders({ statusline: head.statusline, headers: new OrderedHeaders(head.headers) });
  record.httpHeaders = http;
  const block = createHash('sha1').update(Buffer.from(http.toString() + '\r\n', 'utf8')).update(payload).digest();
  record.warcHeaders.headers.set('WARC-Block-Digest', warcDigest(block));
  return record;
}

const EMPTY = new Uint8Array(0);

export function responseRecord(r: RecordBase & { head: HttpHead; body: Uint8Array; payloadDigest: string }): Promise<Buffer> {
  const record = WARCRecord.create(
    {
      url: r.url, date: r.date, type: 'response', warcVersion: WARC_1_1,
      warcHeaders: { 'WARC-Record-ID': r.id, 'WARC-Payload-Digest': r.payloadDigest },
    },
    [r.body],
  );
  return finish(withHead(record, r.head, r.body));
}

export function revisitRecord(
  r: RecordBase & { head: HttpHead; payloadDigest: string; refersTo: { id: string; url: string; date: string } },
): Promise<Buffer> {
  const record = WARCRecord.create({
    url: r.url, date: r.date, type: 'revisit', warcVersion: WARC_1_1,
    refersToUrl: r.refersTo.url, refersToDate: r.refersTo.date,
    warcHeaders: { 'WARC-Record-ID': r.id, 'WARC-Refers-To': r.refersTo.id, 'WARC-Payload-Digest': r.payloadDigest },
  });
  return finish(withHead(record, r.head));
}

export const SERVER_NOT_MODIFIED = 'http://netpreserve.org/warc/1.1/revisit/server-not-modified';

/**
 * A 304 Not Modified to a conditional request, as the WARC standard records it: a revisit with
 * the server-not-modified profile, naming the URL whose earlier capture it stands for (the
 * history crawl's; its date is not known here, so not given, as the standard allows).
 */
export function notModifiedRecord(r: RecordBase & { head: HttpHead }): Promise<Buffer> {
  const record = WARCRecord.create({
    url: r.url, date: r.date, type: 'revisit', warcVersion: WARC_1_1,
    warcHeaders: { 'WARC-Record-ID': r.id, 'WARC-Refers-To-Target-URI': r.url },
  });
  // warcio sets the identical-payload-digest profile on every revisit it creates.
  record.warcHeaders.headers.set('WARC-Profile', SERVER_NOT_MODIFIED);
  return finish(withHead(record, r.head));
}

/** The digest of an empty payload: a GET request's (set so that warcio has nothing to hash). */
const EMPTY_DIGEST = warcDigest(createHash('sha1').digest());

export function requestRecord(r: RecordBase & { head: HttpHead; concurrentTo: string }): Promise<Buffer> {
  const record = WARCRecord.create({
    url: r.url, date: r.date, type: 'request', warcVersion: WARC_1_1,
    warcHeaders: { 'WARC-Record-ID': r.id, 'WARC-Concurrent-To': r.concurrentTo, 'WARC-Payload-Digest': EMPTY_DIGEST },
  });
  return finish(withHead(record, r.head));
}

export function warcinfoRecord(r: { id: string; date: string; filename: string; info: Record<string, string> }): Promise<Buffer> {
  const record = WARCRecord.createWARCInfo({ filename: r.filename, date: r.date, warcVersion: WARC_1_1, warcHeaders: { 'WARC-Record-ID': r.id } }, r.info);
  return finish(record);
}
