import { readFileSync } from 'node:fs';
import { CrawlError, ErrorCodes } from '../errors.js';
import { canonicalize } from '../url/canonical.js';

/**
 * Page qualities from a file of URL<TAB>quality lines (testweb --quality zipf writes one): the
 * quality the crawl-ability paper assumes known for every URL when it is discovered (its
 * section 4.3), read in place of an earlier crawl's PageRank by --history FILE.tsv.
 */
export function readQualityFile(path: string): ReadonlyMap<string, number> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new CrawlError(ErrorCodes.BAD_OPTION, `--history: cannot read ${path} (${(err as Error).message})`, { field: 'policyParams.history' });
  }
  const out = new Map<string, number>();
  let line = 0;
  for (const row of text.split('\n')) {
    line++;
    if (row === '') continue;
    const tab = row.indexOf('\t');
    const url = tab > 0 ? canonicalize(row.slice(0, tab)) : null;
    const quality = Number(row.slice(tab + 1));
    if (url === null || !Number.isFinite(quality) || quality < 0) {
      throw new CrawlError(ErrorCodes.BAD_OPTION, `--history: ${path} line ${line} is not URL<TAB>quality (a number >= 0)`, { field: 'policyParams.history' });
    }
    out.set(url, quality);
  }
  return out;
}
