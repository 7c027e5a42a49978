/**
 * Heavy-tailed site sizes: lognormal weights (sigma 1.9) scaled to the requested total, so a
 * demo web of 50 pages per site has a median site of ~8 pages, a quarter of sites with 1-2
 * pages, and a few sites hundreds of times the mean (as on real national webs: the thesis
 * dataset had 57.75 pages per site on average and 8,066 in the largest). A cap, applied by
 * water-filling, keeps any one site under `cap` pages and hands the excess to the others.
 */
import { Rng } from '../random.js';

export function siteSizes(rng: Rng, sites: number, pages: number, cap: number): Int32Array {
  const sizes = new Int32Array(sites);
  if (sites === 0) return sizes;
  if (pages <= sites) return sizes.fill(1);
  const raw = new Float64Array(sites);
  for (let i = 0; i < sites; i++) raw[i] = Math.exp(1.9 * rng.normal());

  // Water-filling: scale free sites to the remaining total, pin those above the cap, repeat.
  const capped = new Uint8Array(sites);
  let remaining = pages;
  let scale = 0;
  for (let round = 0; round < 64; round++) {
    let sum = 0;
    for (let i = 0; i < sites; i++) if (!capped[i]) sum += raw[i]!;
    if (sum === 0) break;
    scale = remaining / sum;
    let pinned = false;
    for (let i = 0; i < sites; i++) {
      if (!capped[i] && raw[i]! * scale > cap) {
        capped[i] = 1;
        remaining -= cap;
        pinned = true;
      }
    }
    if (!pinned) break;
  }
  let total = 0;
  const frac = new Float64Array(sites);
  for (let i = 0; i < sites; i++) {
    const t = capped[i] ? cap : raw[i]! * scale;
    const v = Math.max(1, Math.floor(t));
    sizes[i] = v;
    frac[i] = capped[i] ? -1 : t - Math.floor(t);
    total += v;
  }
  // Largest remainders get the pages lost to flooring, so the total comes out as asked.
  if (total < pages) {
    const order = Array.from({ length: sites }, (_, i) => i).sort((a, b) => frac[b]! - frac[a]! || a - b);
    for (let k = 0; k < order.length && total < pages; k++) {
      const i = order[k]!;
      if (frac[i]! < 0) continue;
      sizes[i]!++;
      total++;
    }
  }
  return sizes;
}

/** Moves the largest site to index 0: the portal every crawl starts from is the biggest site. */
export function largestFirst(sizes: Int32Array): void {
  let max = 0;
  for (let i = 1; i < sizes.length; i++) if (sizes[i]! > sizes[max]!) max = i;
  const t = sizes[0]!;
  sizes[0] = sizes[max]!;
  sizes[max] = t;
}
