/** Small dataset folders written by hand, shaped like the thesis's examples. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface HandGraph {
  /** [url, size in bytes?] per page, ids 0..n-1 in this order. */
  pages: Array<[string, number?]>;
  links: Array<[number, number]>;
}

export function writeDataset(dir: string, g: HandGraph): string {
  mkdirSync(dir, { recursive: true });
  const pages = g.pages.map(([url, size], i) => (size === undefined ? `${i}\t${url}` : `${i}\t${url}\t${size}`)).join('\n') + '\n';
  writeFileSync(join(dir, 'pages.tsv.gz'), gzipSync(pages));
  writeFileSync(join(dir, 'links.tsv.gz'), gzipSync(g.links.map(([a, b]) => `${a}\t${b}`).join('\n') + (g.links.length ? '\n' : '')));
  return dir;
}

/**
 * The thesis's message example (Figure 5.1): page A links to one page of its own part, two of
 * part 1, three of part 2 and one of part 3. Every URL is 20 bytes, so volume = 20 per URL sent.
 * Pages: A, B (part 0), C, D (part 1), E, F, G (part 2), H (part 3).
 */
export const MESSAGE_EXAMPLE: HandGraph = {
  pages: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((x) => [`http://s.test/page-${x}`]),
  links: [[0, 1], [0, 2], [0, 3], [0, 4], [0, 5], [0, 6], [0, 7]],
};
export const MESSAGE_PARTS = [0, 0, 1, 1, 2, 2, 2, 3];

/**
 * Two sites, four pages (the thesis's page/site hypergraph examples in small):
 *   1 http://a.test/   (1,500 bytes) -> 2, 3
 *   2 http://a.test/x  (2,048 bytes) -> 1
 *   3 http://b.test/   (100 bytes)   -> 4
 *   4 http://b.test/yy (5,000 bytes)    no links
 */
export const TWO_SITES: HandGraph = {
  pages: [
    ['http://a.test/', 1500],
    ['http://a.test/x', 2048],
    ['http://b.test/', 100],
    ['http://b.test/yy', 5000],
  ],
  links: [[0, 1], [0, 2], [1, 0], [2, 3]],
};
