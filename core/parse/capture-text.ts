import { decodeHTML } from 'entities';
import { Parser } from 'htmlparser2';
import { decodeContent } from '../fetch/decode.js';
import { decodeHtml, isHtml } from './charset.js';

/** A stored body decoded this far at most (a larger page is refused by the decoder and counts no words). */
const MAX_DECODED = 8 << 20;

/**
 * Title and visible text of an HTML page (script and style skipped, entities decoded), by
 * the streaming htmlparser2 the link extractor uses.
 */
export function htmlText(html: string): { title: string; body: string } {
  const parts: string[] = [];
  let title = '';
  let inTitle = false;
  let titleDone = false;
  let code = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'title' && !titleDone) inTitle = true;
        else if (name === 'script' || name === 'style') code++;
      },
      ontext(text) {
        if (inTitle) title += text;
        else if (code === 0) parts.push(text);
      },
      onclosetag(name) {
        if (name === 'title' && inTitle) {
          inTitle = false;
          titleDone = true;
        } else if ((name === 'script' || name === 'style') && code > 0) code--;
      },
    },
    { decodeEntities: false, lowerCaseTags: true },
  );
  parser.end(html);
  const clean = (s: string) => decodeHTML(s).replace(/\s+/g, ' ').trim();
  return { title: clean(title), body: clean(parts.join(' ')) };
}

/**
 * The text of a stored capture (response header lines and the body as received): its
 * Content-Encoding undone, its charset decoded, its title and visible text; null when it is
 * not HTML or cannot be decoded.
 */
export function captureText(responseHeaders: string, body: Buffer): { title: string; body: string } | null {
  const type = header(responseHeaders, 'content-type');
  if (!isHtml(type)) return null;
  let decoded: Buffer;
  try {
    decoded = decodeContent(body, header(responseHeaders, 'content-encoding'), MAX_DECODED);
  } catch {
    return null;
  }
  return htmlText(decodeHtml(decoded, type).text);
}

/** A header's value from a block of header lines (the first occurrence), case-insensitive. */
function header(block: string, name: string): string | undefined {
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === name) return line.slice(colon + 1).trim();
  }
  return undefined;
}
