import { createHash } from 'node:crypto';
import { CrawlError } from '../errors.js';
import { decodeContent } from '../fetch/decode.js';
import { decodeHtml } from './charset.js';
import { extractLinks, type ExtractedLink } from './extract-links.js';

/** What the parser needs of an HTML response. */
export interface ParseInput {
  /** The body as received (still content-encoded). */
  body: Uint8Array;
  contentEncoding: string | undefined;
  contentType: string | undefined;
  /** The page's canonical URL: relative links resolve against it. */
  url: string;
  maxDecodedBytes: number;
}

/** An HTML page taken apart, or the stable code of why it could not be (a bad encoding, a bomb). */
export type ParsedPage =
  | {
      /** SHA-1 of the decoded body, hex: duplicates share it. */
      hash: string;
      title: string;
      noindex: boolean;
      /** <meta name=robots> nofollow: none of its links are followed. */
      nofollow: boolean;
      links: ExtractedLink[];
    }
  | { errorCode: string; message: string };

/**
 * Decoding, hashing, charset detection and link extraction of one HTML page: everything about
 * a page that needs no crawl state. A crawl runs it on its parse thread (parse-pool.ts: many
 * pages to a message, where one message a page on a piscina pool cost more than it saved), or
 * inline when the thread plan gives none.
 */
export function parsePage(input: ParseInput): ParsedPage {
  try {
    const decoded = decodeContent(asBuffer(input.body), input.contentEncoding, input.maxDecodedBytes);
    const hash = createHash('sha1').update(decoded).digest('hex');
    const { text } = decodeHtml(decoded, input.contentType);
    const extracted = extractLinks(text, input.url);
    return { hash, title: extracted.title, noindex: extracted.noindex, nofollow: extracted.nofollow, links: extracted.links };
  } catch (err) {
    if (!(err instanceof CrawlError)) throw err;
    return { errorCode: err.code, message: err.message };
  }
}

function asBuffer(b: Uint8Array): Buffer {
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}
