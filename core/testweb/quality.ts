/**
 * Page quality with a Zipf distribution, as the crawl-ability paper's section 5.3.2 assigns
 * it (docs/design.md section 3.4): the qualities 1/i^a for i = 1..N given to the N pages in a
 * random order drawn from the seed, so that a page's quality is independent of its site and
 * its links (no "server locality", unlike PageRank). Same seed, same qualities.
 */
import { hash, Rng } from '../random.js';

const S_QUALITY = 0x2f1;

/** Quality of every page id 0..n-1: a seeded shuffle of 1/i^a (a = 1 in the paper). */
export function zipfQualities(seed: number, n: number, a = 1): Float64Array {
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  const rng = new Rng(hash(seed, S_QUALITY));
  for (let i = n - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = order[i]!;
    order[i] = order[j]!;
    order[j] = t;
  }
  const q = new Float64Array(n);
  for (let rank = 0; rank < n; rank++) q[order[rank]!] = 1 / Math.pow(rank + 1, a);
  return q;
}
