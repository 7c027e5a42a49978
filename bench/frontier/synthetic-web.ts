import { mulberry32 } from '../../core/random.js';

/**
 * The link stream of a national web for the frontier bench, generated as pages are
 * "fetched": S sites with heavy-tailed sizes (Zipf-like, at most 25,000 pages, the default
 * per-site cap) holding about N pages in all. A fetched page links to `k` URLs, a share of
 * them new (mostly on its own site, else on another site with pages left, which may be a
 * site not seen yet) and the rest already known (its own site or another known one), so
 * discovery meets duplicates as a real crawl does. Deterministic for a seed.
 */
export class SyntheticWeb {
  readonly suffix = '.frontier.cl';
  /** Distinct URLs handed out so far. */
  discovered = 0;
  private readonly capacity: Int32Array;
  private readonly known: Int32Array;
  /** Sites with at least one known page, and sites with pages left to hand out. */
  private readonly seen: number[] = [];
  private readonly withRoom: number[] = [];
  private readonly roomAt: Int32Array;
  private rng: () => number;

  constructor(opts: { sites: number; urls: number; seed: number }) {
    const { sites, urls } = opts;
    this.rng = mulberry32(opts.seed);
    this.capacity = new Int32Array(sites);
    this.known = new Int32Array(sites);
    this.roomAt = new Int32Array(sites).fill(-1);
    let sum = 0;
    const weights = new Float64Array(sites);
    for (let i = 0; i < sites; i++) sum += weights[i] = 1 / Math.pow(i + 1, 0.75);
    // 10% more room than asked, so that the target is reached before every site is full.
    let scale = (urls * 1.1) / sum;
    // The cap of 25,000 pages takes room from the largest sites: at 50M URLs on 50,000 sites
    // the web would hold 48M. Only then, the other sites grow until it holds the target again
    // with 5% to spare (a web that already holds that, as at 5M, is left as it was).
    for (let tries = 0; this.fill(weights, scale) < urls * 1.05 && tries < 100; tries++) scale *= 1.05;
    for (let i = 0; i < sites; i++) {
      this.roomAt[i] = this.withRoom.length;
      this.withRoom.push(i);
    }
  }

  /** Sets each site's capacity for this scale; returns the pages the web then holds. */
  private fill(weights: Float64Array, scale: number): number {
    let total = 0;
    for (let i = 0; i < weights.length; i++) total += this.capacity[i] = Math.max(2, Math.min(25_000, Math.round(weights[i]! * scale)));
    return total;
  }

  url(site: number, n: number): string {
    return `http://www.site${site}${this.suffix}/d${n % 10}/page-${n}.html`;
  }

  /** Home pages of the first `n` sites (they count as discovered). */
  seedUrls(n: number): string[] {
    const out: string[] = [];
    for (let s = 0; s < n; s++) out.push(this.url(s, this.next(s)));
    return out;
  }

  /** The links of a fetched page. */
  linksOf(url: string, k: number, newShare: number): string[] {
    const site = siteOf(url);
    const out: string[] = [];
    for (let i = 0; i < k; i++) {
      if (this.rng() < newShare) {
        const target = this.known[site]! < this.capacity[site]! && this.rng() < 0.8 ? site : this.randomWithRoom();
        if (target >= 0) {
          out.push(this.url(target, this.next(target)));
          continue;
        }
      }
      const target = this.rng() < 0.7 ? site : this.seen[Math.floor(this.rng() * this.seen.length)]!;
      out.push(this.url(target, Math.floor(this.rng() * this.known[target]!)));
    }
    return out;
  }

  private next(site: number): number {
    const n = this.known[site]!;
    if (n === 0) this.seen.push(site);
    this.known[site] = n + 1;
    this.discovered++;
    if (n + 1 >= this.capacity[site]!) this.removeRoom(site);
    return n;
  }
  private randomWithRoom(): number {
    if (this.withRoom.length === 0) return -1;
    return this.withRoom[Math.floor(this.rng() * this.withRoom.length)]!;
  }
  private removeRoom(site: number): void {
    const i = this.roomAt[site]!;
    if (i < 0) return;
    const last = this.withRoom.pop()!;
    if (last !== site) {
      this.withRoom[i] = last;
      this.roomAt[last] = i;
    }
    this.roomAt[site] = -1;
  }
}

function siteOf(url: string): number {
  // http://www.site123.frontier.cl/...
  let n = 0;
  for (let i = 15; ; i++) {
    const c = url.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return n;
    n = n * 10 + c;
  }
}
