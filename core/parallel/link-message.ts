/**
 * The exchange's messages as they come off the broker (exchange.ts take()): input from another
 * process, maybe a killed or buggy worker, another version of crawlbench, or anyone who can
 * publish on a broker outside loopback. Each is checked before any of it reaches the crawl.
 * Before, a message that was not JSON threw in the consumer's loop and came back every 5 s for
 * ever (the crawl never ended); a field of the wrong type broke the writer thread's batch and
 * the worker died and was restarted on the same message; and its URLs and depths were taken as
 * they came (a negative depth lifted the depth limit under it, an ftp:// URL crashed the fetch).
 */
import { z } from 'zod';
import { canonicalize } from '../url/canonical.js';
import { readJson } from './broker-input.js';

/** [url, depth, redirects, anchor, nofollow] */
export type WireLink = [string, number, number, string | null, 0 | 1];

/**
 * A message of the exchange: the URLs page `src` of part `from` links to in the receiving part,
 * or (a batch) those of `pages` pages, `pageUrls` URLs of `pageUrlBytes` bytes before merging.
 */
export interface LinkMessage {
  id: string;
  from: number;
  src?: string;
  pages?: number;
  pageUrls?: number;
  pageUrlBytes?: number;
  links: WireLink[];
}

/** A fetched page's links to one part, sent again at lower depths (PartExchange.shorterPath). */
export interface ShorterPaths {
  id: string;
  from: number;
  src: string;
  shorter: 1;
  links: WireLink[];
}

const count = z.number().int().nonnegative();
const Link = z.tuple([z.string().max(65_536), count, count, z.string().max(65_536).nullable(), z.union([z.literal(0), z.literal(1)])]);
const Message = z.object({
  id: z.string().min(1).max(512),
  from: count,
  src: z.string().max(65_536).optional(),
  shorter: z.literal(1).optional(),
  pages: count.optional(),
  pageUrls: count.optional(),
  pageUrlBytes: count.optional(),
  links: z.array(Link),
});

/**
 * The message, its URLs canonical (those that are not http(s) URLs left out and counted), or
 * why it is refused: not JSON, or not of the exchange's shape (a part outside 0..parts-1).
 */
export function readLinkMessage(text: string, parts: number): { message: LinkMessage | ShorterPaths; dropped: number } | { problem: string } {
  const read = readJson(Message, text);
  if ('problem' in read) return { problem: read.problem.startsWith('not JSON') ? read.problem : `not an exchange message (${read.problem})` };
  const m = read.ok;
  if (m.from >= parts) return { problem: `from part ${m.from}, outside 0..${parts - 1}` };
  if (m.shorter === 1 && m.src === undefined) return { problem: 'src: required with shorter' };
  let dropped = 0;
  const links: WireLink[] = [];
  for (const [url, depth, redirects, anchor, nofollow] of m.links) {
    const canonical = canonicalize(url);
    if (canonical === null) dropped++;
    else links.push([canonical, depth, redirects, anchor, nofollow]);
  }
  const message = m.shorter === 1 ? ({ id: m.id, from: m.from, src: m.src!, shorter: 1, links } satisfies ShorterPaths) : { ...m, links };
  return { message, dropped };
}
