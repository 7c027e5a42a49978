import { decodeHTML } from 'entities';
import { Parser } from 'htmlparser2';
import { decodeContent } from '../fetch/decode.js';
import { decodeHtml, isHtml } from '../parse/charset.js';
import { ContentReader } from '../store/content-reader.js';
import type { CrawlReader } from '../store/crawl-reader.js';

/** The words of a page as the similarity measure and the topic test read them. */
export interface PageText {
  title: string;
  /** Visible text of the body; null when only the title is known (no stored content). */
  body: string | null;
}

/** Where the texts come from: the stored bodies (a crawl made with --store-content) or the titles. */
export type TextSource = 'content' | 'titles';

/** A stored body decoded this far at most (a page larger than this is read in part). */
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

/** Words, lower-cased: runs of letters and digits in any script. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Whether the crawl holds stored bodies to read (it was made with --store-content and captured some). */
export function textSource(reader: CrawlReader): TextSource {
  const settings = JSON.parse(reader.meta('settings') ?? '{}') as { storeContent?: boolean };
  if (!settings.storeContent) return 'titles';
  const row = reader.prepared('SELECT 1 AS one FROM content LIMIT 1').get() as { one: number } | undefined;
  return row ? 'content' : 'titles';
}

/**
 * The text of every fetched page in id order: with source 'content', the stored body's title
 * and text (a page without a capture, or not HTML, gives its stored title and a null body);
 * with 'titles', the stored title alone.
 */
export function* pageTexts(reader: CrawlReader, source: TextSource): Generator<{ id: number } & PageText> {
  const content = source === 'content' ? new ContentReader(reader) : null;
  try {
    for (const p of reader.pages(['title'], { fetchedOnly: true })) {
      const stored = content ? storedText(content, p.id) : null;
      yield { id: p.id, title: stored?.title || (p.title ?? ''), body: stored?.body ?? null };
    }
  } finally {
    content?.close();
  }
}

function storedText(content: ContentReader, id: number): { title: string; body: string } | null {
  const capture = content.read(id);
  if (!capture) return null;
  const type = header(capture.responseHeaders, 'content-type');
  if (!isHtml(type)) return null;
  let body: Buffer;
  try {
    body = decodeContent(capture.body, header(capture.responseHeaders, 'content-encoding'), MAX_DECODED);
  } catch {
    return null; // an undecodable body has no words to count; its title still counts
  }
  return htmlText(decodeHtml(body, type).text);
}

/** A header's value from a block of header lines (the first occurrence), case-insensitive. */
function header(block: string, name: string): string | undefined {
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === name) return line.slice(colon + 1).trim();
  }
  return undefined;
}
