import { TextDecoder } from 'node:util';

/**
 * Turning a fetched body into text. A national web is full of legacy encodings
 * (windows-1252, ISO-8859-7 in .gr, Shift_JIS...); decoding them as UTF-8 garbles anchor
 * text and titles and, through %-escapes of non-ASCII paths, even link URLs.
 *
 * Order of evidence, as in the HTML standard's encoding sniffing (§13.2.3.2):
 *   1. a byte order mark: it is in the bytes themselves, so it beats a header that a
 *      server configured once for the whole site (browsers do the same);
 *   2. the charset parameter of Content-Type;
 *   3. <meta charset=...> or <meta http-equiv=Content-Type content="...charset=..."> in
 *      the first 1024 bytes (the standard's prescan window);
 *   4. utf-8.
 * A label TextDecoder does not know is ignored (the next source is tried) rather than
 * trusted; the result is always TextDecoder's own name for the encoding.
 */

const PRESCAN_BYTES = 1024;

/** label -> TextDecoder's name for it, or null when unsupported. Labels repeat a lot. */
const labelCache = new Map<string, string | null>();
const decoders = new Map<string, TextDecoder>();

/** TextDecoder's canonical name for a label ('latin1' -> 'windows-1252'), or null. */
export function encodingName(label: string): string | null {
  const key = label.trim().toLowerCase();
  let name = labelCache.get(key);
  if (name === undefined) {
    try {
      name = key === '' ? null : new TextDecoder(key).encoding;
    } catch {
      name = null;
    }
    if (labelCache.size < 1000) labelCache.set(key, name);
  }
  return name;
}

export function charsetFrom(contentType: string | undefined, head: Uint8Array): string {
  const bom = bomEncoding(head);
  if (bom !== null) return bom;
  const fromHeader = contentType ? headerCharset(contentType) : null;
  if (fromHeader !== null) {
    const name = encodingName(fromHeader);
    if (name !== null) return name;
  }
  const fromMeta = metaCharset(head);
  if (fromMeta !== null) {
    const name = encodingName(fromMeta);
    // A meta tag readable as ASCII cannot be in UTF-16: the standard maps it to UTF-8.
    if (name !== null) return name.startsWith('utf-16') ? 'utf-8' : name;
  }
  return 'utf-8';
}

export function decodeHtml(body: Uint8Array, contentType: string | undefined): { text: string; charset: string } {
  const charset = charsetFrom(contentType, body.subarray(0, PRESCAN_BYTES));
  let decoder = decoders.get(charset);
  if (decoder === undefined) {
    // Not fatal: a stray invalid byte becomes U+FFFD instead of losing the whole page.
    // The BOM of the chosen encoding, if any, is dropped (ignoreBOM: false).
    decoder = new TextDecoder(charset);
    decoders.set(charset, decoder);
  }
  const text = decoder.decode(body);
  return { text: charset === 'windows-1252' ? fixWindows1252(text) : text, charset };
}

/**
 * Node 20's TextDecoder('windows-1252') decodes 0x80-0x9F as C1 controls (ISO-8859-1)
 * instead of the WHATWG windows-1252 table (€, curly quotes, dashes...). Since most pages
 * labelled iso-8859-1 are really windows-1252 (and WHATWG maps one to the other), repair
 * those 27 code points after decoding.
 */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
function fixWindows1252(text: string): string {
  // eslint-disable-next-line no-control-regex
  return /[\u0080-\u009f]/.test(text) ? text.replace(/[\u0080-\u009f]/g, (ch) => CP1252_HIGH[ch.charCodeAt(0) - 0x80]!) : text;
}

/**
 * Whether to parse the body for links. A missing Content-Type is treated as HTML: old
 * servers omit it for .html files, and the link extractor copes with anything.
 */
export function isHtml(contentType: string | undefined): boolean {
  if (contentType === undefined) return true;
  const semi = contentType.indexOf(';');
  const media = (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  return media === '' || media === 'text/html' || media === 'application/xhtml+xml';
}

function bomEncoding(b: Uint8Array): string | null {
  if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'utf-8';
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  return null;
}

/** The charset parameter of a media type: `text/html; Charset="Shift_JIS"` -> `Shift_JIS`. */
function headerCharset(contentType: string): string | null {
  const params = contentType.split(';');
  for (let i = 1; i < params.length; i++) {
    const p = params[i]!;
    const eq = p.indexOf('=');
    if (eq < 0 || p.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const value = p.slice(eq + 1).trim().replace(/^["']|["']$/g, '').trim();
    return value === '' ? null : value;
  }
  return null;
}

const META_TAG = /<meta\s[^>]*>/gi;
const HTTP_EQUIV_CONTENT_TYPE = /http-equiv\s*=\s*["']?\s*content-type/i;
const CHARSET_ATTRIBUTE = /[\s"']charset\s*=/i;
const CHARSET_VALUE = /charset\s*=\s*["']?\s*([^\s"'>/;,]+)/i;

/**
 * The charset declared by the first meta tag that declares one within the prescan window.
 * The bytes are read as latin1: every byte maps to one char, and the ASCII markup of the
 * declaration reads the same in every encoding a meta tag can be written in.
 */
function metaCharset(head: Uint8Array): string | null {
  const window = head.length > PRESCAN_BYTES ? head.subarray(0, PRESCAN_BYTES) : head;
  const text = Buffer.from(window.buffer, window.byteOffset, window.byteLength).toString('latin1');
  if (text.indexOf('<meta') < 0 && text.search(/<meta/i) < 0) return null;
  META_TAG.lastIndex = 0;
  for (let m = META_TAG.exec(text); m !== null; m = META_TAG.exec(text)) {
    const tag = m[0];
    if (!CHARSET_ATTRIBUTE.test(tag) && !HTTP_EQUIV_CONTENT_TYPE.test(tag)) continue;
    const v = CHARSET_VALUE.exec(tag);
    if (v) return v[1]!;
  }
  return null;
}
