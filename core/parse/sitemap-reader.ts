/**
 * Reads a sitemap (sitemaps.org protocol 0.9) as its bytes arrive, in constant memory: the
 * body's Content-Encoding undone, a gzip file (`.xml.gz`) gunzipped, and the XML parsed by a
 * streaming parser (saxes: no DOM, no DTD, no external entities), each entry handed on as soon
 * as its element closes. The protocol's limits are enforced while reading: at most 50,000
 * entries and 50 MB (52,428,800 bytes) of XML per file; past one, reading stops and the file is
 * recorded as too large, the entries before it kept. A gzip bomb costs at most the 50 MB it may
 * decode (plus what zlib decodes of the one network chunk in hand when the cap is hit).
 */
import { StringDecoder } from 'node:string_decoder';
import zlib from 'node:zlib';
import { SaxesParser } from 'saxes';
import { ErrorCodes } from '../errors.js';

export const SITEMAP_MAX_ENTRIES = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;
/** The longest <loc> or <lastmod> text kept; longer text is cut (and such a URL fails scope's length check). */
const MAX_TEXT = 8192;

export interface SitemapEntry {
  /** 'url' for a page (<url> of a <urlset>), 'sitemap' for a sitemap (<sitemap> of a <sitemapindex>). */
  kind: 'url' | 'sitemap';
  /** The <loc>, as written (trimmed). */
  loc: string;
  /** The <lastmod>, as written (trimmed), or null. */
  lastmod: string | null;
}

export interface SitemapProblem {
  code: string;
  message: string;
}

export interface SitemapLimits {
  maxEntries: number;
  maxBytes: number;
}

/** What a sitemap turned out to be, once read (or once reading stopped). */
export interface SitemapResult {
  /** The root element: 'urlset', 'sitemapindex', or null when none was read. */
  root: 'urlset' | 'sitemapindex' | null;
  urls: number;
  sitemaps: number;
  /** XML bytes read (after every decompression). */
  decodedBytes: number;
  /** The payload was a gzip file. */
  gzip: boolean;
  problem: SitemapProblem | null;
  /** Reading stopped because the caller said so (onEntry returned false). */
  stoppedByCaller: boolean;
}

type Decoder = 'gzip' | 'deflate' | 'br';

/**
 * A zlib decoder fed one chunk at a time: write() resolves once the chunk is decoded, its
 * output handed to `out` as zlib produces it (flowing mode, 16 KB at a time).
 */
class Inflater {
  private readonly z: zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress;
  private error: Error | null = null;

  /** `role`: undoing the response's Content-Encoding, or gunzipping the file itself. */
  constructor(readonly role: 'encoding' | 'file', kind: Decoder, out: (b: Buffer) => void) {
    this.z = kind === 'br' ? zlib.createBrotliDecompress() : kind === 'deflate' ? zlib.createInflate() : zlib.createGunzip();
    this.z.on('data', out);
    this.z.on('error', (e: Error) => {
      this.error ??= e;
    });
  }

  write(b: Buffer): Promise<void> {
    if (this.error) return Promise.reject(this.error);
    return new Promise((resolve, reject) => {
      this.z.write(b, (e) => {
        const err = e ?? this.error;
        if (err) reject(err);
        else resolve();
      });
    });
  }

  end(): Promise<void> {
    if (this.error) return Promise.reject(this.error);
    return new Promise((resolve, reject) => {
      this.z.once('error', reject);
      this.z.once('end', resolve);
      this.z.end();
      this.z.resume();
    });
  }

  destroy(): void {
    this.z.destroy();
  }
}

/**
 * One sitemap file being read. Feed it the body as received (write), then end(); `result`
 * says what it was. write() resolves false once nothing more is wanted (a limit, a problem,
 * or the caller's onEntry said stop): the rest of the body need not be read.
 */
export class SitemapReader {
  readonly result: SitemapResult = { root: null, urls: 0, sitemaps: 0, decodedBytes: 0, gzip: false, problem: null, stoppedByCaller: false };
  private readonly xml = new SaxesParser({ xmlns: false });
  private readonly text = new StringDecoder('utf8');
  private readonly layers: Inflater[] = [];
  private sniffed = false;
  private sniffBuf: Buffer = Buffer.alloc(0);
  private done = false;
  private entry: { kind: 'url' | 'sitemap'; loc: string | null; lastmod: string | null } | null = null;
  private field: 'loc' | 'lastmod' | null = null;
  private fieldText = '';
  private depth = 0;

  /**
   * @param contentEncoding the response's Content-Encoding (gzip, deflate, br, or none)
   * @param gzipDeclared the file is said to be gzip (a .gz URL or a gzip content type)
   * @param onEntry told each entry; false stops reading
   */
  constructor(
    private readonly limits: SitemapLimits,
    contentEncoding: string | undefined,
    private readonly gzipDeclared: boolean,
    private readonly onEntry: (e: SitemapEntry) => boolean,
  ) {
    const enc = (contentEncoding ?? '').trim().toLowerCase();
    if (enc === 'gzip' || enc === 'x-gzip' || enc === 'deflate' || enc === 'br') {
      this.layers.push(new Inflater('encoding', enc === 'x-gzip' ? 'gzip' : (enc as Decoder), (b) => this.payload(b)));
    } else if (enc !== '' && enc !== 'identity') {
      this.stop({ code: ErrorCodes.BAD_ENCODING, message: `unknown Content-Encoding ${enc}` });
    }
    this.listen();
  }

  /** One piece of the body as received. Resolves false once reading may stop. */
  async write(chunk: Buffer): Promise<boolean> {
    if (this.done) return false;
    const first = this.layers[0];
    try {
      if (first) await first.write(chunk);
      else this.payload(chunk);
    } catch (err) {
      this.decodeFailed(err, first!.role);
    }
    return !this.done;
  }

  /** The body ended: flush the decoders, check the document is complete. */
  async end(): Promise<SitemapResult> {
    if (!this.done) {
      for (let i = 0; i < this.layers.length && !this.done; i++) {
        const layer = this.layers[i]!;
        try {
          await layer.end();
        } catch (err) {
          this.decodeFailed(err, layer.role);
        }
      }
    }
    if (!this.done && !this.sniffed && this.sniffBuf.length > 0) this.sniff(Buffer.alloc(0), true);
    if (!this.done) {
      try {
        this.xml.write(this.text.end());
        this.xml.close();
      } catch {
        /* reported through the error handler */
      }
      if (!this.done && this.result.root === null) this.stop({ code: ErrorCodes.SITEMAP_MALFORMED, message: 'empty: no XML element' });
    }
    this.finish();
    return this.result;
  }

  /** Stops reading (the caller's reasons: an aborted body, a failed request). */
  abandon(): void {
    this.done = true;
    this.finish();
  }

  private finish(): void {
    for (const l of this.layers) l.destroy();
  }

  /** A decoder failed: the Content-Encoding layer is the server's fault, the gzip file's layer the file's. */
  private decodeFailed(err: unknown, role: Inflater['role']): void {
    if (this.done) return;
    const message = err instanceof Error ? err.message : String(err);
    this.stop(
      role === 'file'
        ? { code: ErrorCodes.SITEMAP_NOT_GZIP, message: `not a valid gzip file: ${message}` }
        : { code: ErrorCodes.BAD_ENCODING, message: `Content-Encoding could not be decoded: ${message}` },
    );
  }

  /** The payload (Content-Encoding undone): sniffed for gzip once, then gunzipped or taken as XML. */
  private payload(b: Buffer): void {
    if (this.done) return;
    if (!this.sniffed) return this.sniff(b, false);
    const gz = this.result.gzip ? this.layers[this.layers.length - 1] : undefined;
    if (gz) {
      // A second layer: its output arrives asynchronously; errors surface on the next write/end.
      gz.write(b).catch((err) => this.decodeFailed(err, 'file'));
    } else this.xmlBytes(b);
  }

  /** Looks at the payload's first bytes: the gzip magic number, else XML, else (if said to be gzip) not gzip. */
  private sniff(b: Buffer, atEnd: boolean): void {
    this.sniffBuf = this.sniffBuf.length === 0 ? b : Buffer.concat([this.sniffBuf, b]);
    const head = this.sniffBuf;
    if (head.length < 2 && !atEnd) return;
    this.sniffed = true;
    this.sniffBuf = Buffer.alloc(0);
    if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) {
      this.result.gzip = true;
      const gz = new Inflater('file', 'gzip', (out) => this.xmlBytes(out));
      this.layers.push(gz);
      gz.write(head).catch((err) => this.decodeFailed(err, 'file'));
      return;
    }
    if (this.gzipDeclared && !looksLikeXml(head)) {
      this.stop({ code: ErrorCodes.SITEMAP_NOT_GZIP, message: 'said to be gzip (its name or type) but neither gzip nor XML' });
      return;
    }
    this.xmlBytes(head);
  }

  /** XML bytes: counted against the size limit, decoded as UTF-8 and parsed. */
  private xmlBytes(b: Buffer): void {
    if (this.done) return;
    const room = this.limits.maxBytes - this.result.decodedBytes;
    const over = b.length > room;
    const piece = over ? b.subarray(0, Math.max(0, room)) : b;
    this.result.decodedBytes += piece.length;
    try {
      this.xml.write(this.text.write(piece));
    } catch {
      /* reported through the error handler */
    }
    if (over && !this.done) {
      this.stop({ code: ErrorCodes.SITEMAP_TOO_LARGE, message: `over ${this.limits.maxBytes.toLocaleString('en-US')} bytes of XML (the protocol's limit)` });
    }
  }

  private stop(problem: SitemapProblem | null): void {
    if (this.done) return;
    this.done = true;
    if (problem) this.result.problem = problem;
  }

  private listen(): void {
    this.xml.on('error', (err) => this.stop({ code: ErrorCodes.SITEMAP_MALFORMED, message: `not well-formed XML: ${err.message}` }));
    this.xml.on('opentag', (tag) => this.open(localName(tag.name)));
    this.xml.on('closetag', (tag) => this.close(localName(tag.name)));
    this.xml.on('text', (t) => this.addText(t));
    this.xml.on('cdata', (t) => this.addText(t));
  }

  private open(name: string): void {
    if (this.done) return;
    this.depth++;
    if (this.depth === 1) {
      if (name !== 'urlset' && name !== 'sitemapindex') {
        this.stop({ code: ErrorCodes.SITEMAP_MALFORMED, message: `not a sitemap: its root element is <${name}>, not <urlset> or <sitemapindex>` });
        return;
      }
      this.result.root = name;
    } else if (this.depth === 2 && (name === 'url' || name === 'sitemap')) {
      this.entry = { kind: name, loc: null, lastmod: null };
    } else if (this.depth === 3 && this.entry && (name === 'loc' || name === 'lastmod')) {
      this.field = name;
      this.fieldText = '';
    }
  }

  private addText(t: string): void {
    if (this.field && this.fieldText.length < MAX_TEXT) this.fieldText += t.slice(0, MAX_TEXT - this.fieldText.length);
  }

  private close(name: string): void {
    if (this.done) return;
    this.depth--;
    if (this.depth === 2 && this.field === name && this.entry) {
      this.entry[this.field] = this.fieldText.trim() || null;
      this.field = null;
    } else if (this.depth === 1 && this.entry) {
      const e = this.entry;
      this.entry = null;
      if (e.loc !== null) this.take({ kind: e.kind, loc: e.loc, lastmod: e.lastmod });
    }
  }

  private take(e: SitemapEntry): void {
    if (this.result.urls + this.result.sitemaps >= this.limits.maxEntries) {
      this.stop({ code: ErrorCodes.SITEMAP_TOO_LARGE, message: `over ${this.limits.maxEntries.toLocaleString('en-US')} entries (the protocol's limit)` });
      return;
    }
    if (e.kind === 'url') this.result.urls++;
    else this.result.sitemaps++;
    if (!this.onEntry(e)) {
      this.result.stoppedByCaller = true;
      this.stop(null);
    }
  }
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}

/** The first byte that is not white space (or a UTF-8 byte order mark) is '<'. */
function looksLikeXml(b: Buffer): boolean {
  let i = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
  while (i < b.length && (b[i] === 0x20 || b[i] === 0x09 || b[i] === 0x0a || b[i] === 0x0d)) i++;
  return i < b.length && b[i] === 0x3c;
}
