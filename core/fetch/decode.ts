import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { CrawlError, ErrorCodes } from '../errors.js';

/**
 * Undoes Content-Encoding with a hard cap on the decoded size, so that a gzip bomb costs
 * at most `maxBytes` of memory and a few milliseconds before it is refused.
 */
export function decodeContent(body: Buffer, encoding: string | undefined, maxBytes: number): Buffer {
  const enc = (encoding ?? '').trim().toLowerCase();
  if (enc === '' || enc === 'identity') return body;
  const opts = { maxOutputLength: maxBytes };
  try {
    switch (enc) {
      case 'gzip':
      case 'x-gzip':
        return gunzipSync(body, opts);
      case 'deflate':
        // Servers send either zlib-wrapped or raw deflate under this name.
        try {
          return inflateSync(body, opts);
        } catch (err) {
          if (isTooLarge(err)) throw err;
          return inflateRawSync(body, opts);
        }
      case 'br':
        return brotliDecompressSync(body, opts);
      default:
        throw new CrawlError(ErrorCodes.BAD_ENCODING, `unsupported Content-Encoding "${encoding}"`);
    }
  } catch (err) {
    if (err instanceof CrawlError) throw err;
    if (isTooLarge(err)) {
      throw new CrawlError(ErrorCodes.DECODED_TOO_LARGE, `decoded body exceeds ${maxBytes} bytes (Content-Encoding ${enc})`);
    }
    throw new CrawlError(ErrorCodes.BAD_ENCODING, `cannot decode ${enc} body: ${(err as Error).message}`);
  }
}

function isTooLarge(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError;
}
