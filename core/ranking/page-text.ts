import { captureText } from '../parse/capture-text.js';
import { ContentReader } from '../store/content-reader.js';
import type { CrawlReader } from '../store/crawl-reader.js';
import type { TextSource } from './report.js';

export type { TextSource } from './report.js';
export { htmlText } from '../parse/capture-text.js';

/** The words of a page as the similarity measure and the topic test read them. */
export interface PageText {
  title: string;
  /** Visible text of the body; null when only the title is known (no stored content). */
  body: string | null;
}

/** Words, lower-cased: runs of letters and digits in any script. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Whether the crawl holds stored bodies to read (it was made with --store-content and captured some). */
export function textSource(reader: CrawlReader): TextSource {
  const settings = JSON.parse(reader.meta('settings') ?? '{}') as { storeContent?: boolean };
  if (!settings.storeContent) return 'titles';
  return reader.hasContent() ? 'content' : 'titles';
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
      const capture = content?.read(p.id);
      const stored = capture ? captureText(capture.responseHeaders, capture.body) : null;
      yield { id: p.id, title: stored?.title || (p.title ?? ''), body: stored?.body ?? null };
    }
  } finally {
    content?.close();
  }
}
