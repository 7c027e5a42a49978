/**
 * A Web whose pages are listed explicitly (paths held as strings): hand-made webs for unit
 * tests and graphs loaded from files. Fine for tens of thousands of pages; the generator's
 * GeneratedWeb is the one meant for millions.
 */
import { hash, lognormalAt } from '../random.js';
import { HTML_TYPE, searchFirst, typeFromPath, type Anchor, type SiteInfo, type Web } from './web.js';

export interface ListedPages {
  sites: SiteInfo[];
  /** Path and query of every page, by id; each site's pages contiguous from its `first`. */
  paths: string[];
  offsets: Int32Array;
  targets: Int32Array;
  titles?: Array<string | undefined>;
  types?: Array<string | undefined>;
  /** Explicit sizes; missing ones are 0 ("as rendered") unless `sizeModel` is 'lognormal'. */
  sizes?: Array<number | undefined>;
  sizeModel?: 'natural' | 'lognormal';
  anchors?: Anchor[][];
  latencies?: Array<number | undefined>;
  seed?: number;
}

/**
 * Percent-encoding differences a crawler may introduce when it normalises a URL ('%7E' vs '~',
 * '%7b' vs '{'): printable ASCII other than delimiters is decoded, other escapes upper-cased.
 */
export function canonicalPath(p: string): string {
  if (!p.includes('%')) return p;
  return p.replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => {
    const c = parseInt(hex, 16);
    const ch = String.fromCharCode(c);
    return c > 0x20 && c < 0x7f && !'%/?#&=+;'.includes(ch) ? ch : '%' + hex.toUpperCase();
  });
}

export class ListedWeb implements Web {
  readonly sites: SiteInfo[];
  readonly pageCount: number;
  readonly seed: number;
  readonly anchors?: (id: number) => Anchor[];
  readonly pageLatencyMs?: (id: number) => number | undefined;
  private readonly firsts: Int32Array;
  private readonly index = new Map<string, number>();

  constructor(private readonly d: ListedPages) {
    this.sites = d.sites;
    this.pageCount = d.paths.length;
    this.seed = d.seed ?? 0;
    this.firsts = Int32Array.from(d.sites, (s) => s.first);
    for (let s = 0; s < d.sites.length; s++) {
      const site = d.sites[s]!;
      for (let id = site.first; id < site.first + site.count; id++) {
        const key = `${site.host}\n${canonicalPath(d.paths[id]!)}`;
        if (!this.index.has(key)) this.index.set(key, id);
      }
    }
    const anchors = d.anchors;
    if (anchors) this.anchors = (id) => anchors[id] ?? [];
    const lat = d.latencies;
    if (lat) this.pageLatencyMs = (id) => lat[id];
  }

  siteOf(id: number): number {
    return searchFirst(this.firsts, id);
  }

  path(id: number): string {
    const p = this.d.paths[id];
    if (p === undefined) throw new RangeError(`page id ${id} outside 0..${this.pageCount - 1}`);
    return p;
  }

  id(host: string, pathAndQuery: string): number | undefined {
    return this.index.get(`${host.toLowerCase()}\n${canonicalPath(pathAndQuery)}`);
  }

  outLinks(id: number): Int32Array {
    return this.d.targets.subarray(this.d.offsets[id]!, this.d.offsets[id + 1]!);
  }

  title(id: number): string {
    return this.d.titles?.[id] ?? `${this.sites[this.siteOf(id)]!.host}${this.path(id)}`;
  }

  size(id: number): number {
    const given = this.d.sizes?.[id];
    if (given !== undefined) return given;
    if (this.d.sizeModel !== 'lognormal') return 0;
    const h = hash(this.seed, id, 77);
    return Math.round(Math.min(200_000, Math.max(1_200, lognormalAt(h, hash(h, 1), 7_600, 0.75))));
  }

  /** Given type, else HTML for pages with links, else a guess from the extension (.pdf, .txt ...). */
  contentType(id: number): string {
    const given = this.d.types?.[id];
    if (given !== undefined) return given;
    return this.d.offsets[id + 1]! > this.d.offsets[id]! ? HTML_TYPE : typeFromPath(this.path(id));
  }
}

/** CSR arrays from per-page target lists. */
export function toCsr(lists: number[][]): { offsets: Int32Array; targets: Int32Array } {
  const offsets = new Int32Array(lists.length + 1);
  for (let i = 0; i < lists.length; i++) offsets[i + 1] = offsets[i]! + lists[i]!.length;
  const targets = new Int32Array(offsets[lists.length]!);
  for (let i = 0; i < lists.length; i++) targets.set(lists[i]!, offsets[i]!);
  return { offsets, targets };
}
