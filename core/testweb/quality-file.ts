import { closeSync, openSync, writeSync } from 'node:fs';
import { pageUrl, type Web } from './web.js';

/** Writes every page's quality (Web.quality) as URL<TAB>quality lines, the file crawl --history reads. */
export function writeQualities(web: Web, port: number, file: string): void {
  if (!web.quality) throw new Error('writeQualities: this web has no page qualities');
  const fd = openSync(file, 'w');
  try {
    const lines: string[] = [];
    for (let id = 0; id < web.pageCount; id++) {
      lines.push(`${pageUrl(web, id, port)}\t${web.quality(id)}\n`);
      if (lines.length === 10_000) writeSync(fd, lines.splice(0).join(''));
    }
    writeSync(fd, lines.join(''));
  } finally {
    closeSync(fd);
  }
}
