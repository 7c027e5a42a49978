/**
 * The Web view of a generated revision. Per page it stores only the CSR links (and, in
 * revision 2, the page number within its site); path, title, size and type are recomputed
 * from (seed, site, page number) on every call, which keeps a million-page web around 30 MB.
 */
import type { Csr, Layout } from './link-builder.js';
import { pageKind, pagePath, pageSize, pageTitle, pageType, parsePageNumber } from './site-model.js';
import { hash, unit } from '../random.js';
import { HTML_TYPE, searchFirst, type SiteInfo, type Web } from './web.js';

const S_NOFOLLOW = 31;

export class GeneratedWeb implements Web {
  readonly sites: SiteInfo[];
  readonly pageCount: number;
  readonly seed: number;
  private readonly hostIndex = new Map<string, number>();
  /** Set by generateWeb for a web with spec.quality (Web.quality). */
  quality?: (id: number) => number;

  constructor(
    readonly revision: 1 | 2,
    /** Internal: the layout and CSR arrays, read by revision.ts and graph exports. */
    readonly layout: Layout,
    readonly csr: Csr,
    sites: SiteInfo[],
    /** Revision 2: revision 1 and, per page, the revision-1 id of its URL (-1 for a new page). */
    private readonly rev1?: { web: GeneratedWeb; newToOld: Int32Array },
  ) {
    this.sites = sites;
    this.pageCount = layout.pageCount;
    this.seed = layout.seed;
    sites.forEach((s, i) => this.hostIndex.set(s.host, i));
  }

  get previous(): { web: GeneratedWeb; id(id: number): number } | undefined {
    const r = this.rev1;
    return r ? { web: r.web, id: (id) => (id < r.newToOld.length ? r.newToOld[id]! : -1) } : undefined;
  }

  contentKey(id: number): number {
    if (!this.rev1) return id;
    const old = id < this.rev1.newToOld.length ? this.rev1.newToOld[id]! : -1;
    // A page born in revision 2 draws from numbers no revision-1 page has.
    return old >= 0 ? old : this.rev1.web.pageCount + id;
  }

  /** Number of ordinary (non-fault) sites; they come first in `sites`. */
  get ordinarySites(): number {
    return this.layout.ordinary;
  }

  /** Total links in the graph. */
  get linkCount(): number {
    return this.csr.targets.length;
  }

  siteOf(id: number): number {
    return searchFirst(this.layout.firsts, id);
  }

  /** A page's number within its site: stable across revisions, embedded in its path. */
  pageNumber(id: number): number {
    if (this.layout.urlNums) return this.layout.urlNums[id]!;
    return id - this.layout.firsts[this.siteOf(id)]!;
  }

  path(id: number): string {
    this.check(id);
    const s = this.siteOf(id);
    if (s >= this.layout.ordinary) return '/';
    return pagePath(this.seed, s, this.layout.traits[s]!, this.pageNumber(id));
  }

  id(host: string, pathAndQuery: string): number | undefined {
    const s = this.hostIndex.get(host.toLowerCase());
    if (s === undefined) return undefined;
    const site = this.sites[s]!;
    if (s >= this.layout.ordinary) return pathAndQuery === '/' ? site.first : undefined;
    const u = parsePageNumber(pathAndQuery);
    if (u < 0) return undefined;
    const local = this.localIndex(site, u);
    if (local < 0) return undefined;
    const id = site.first + local;
    return this.path(id) === pathAndQuery ? id : undefined;
  }

  outLinks(id: number): Int32Array {
    this.check(id);
    return this.csr.targets.subarray(this.csr.offsets[id]!, this.csr.offsets[id + 1]!);
  }

  title(id: number): string {
    const s = this.siteOf(id);
    if (s >= this.layout.ordinary) return `Fault site ${this.sites[s]!.fault}`;
    return pageTitle(this.seed, s, this.pageNumber(id));
  }

  size(id: number): number {
    const s = this.siteOf(id);
    if (s >= this.layout.ordinary) return 2_000;
    const u = this.pageNumber(id);
    return pageSize(this.seed, s, u, pageKind(this.seed, s, u));
  }

  contentType(id: number): string {
    const s = this.siteOf(id);
    if (s >= this.layout.ordinary) return HTML_TYPE;
    return pageType(pageKind(this.seed, s, this.pageNumber(id)));
  }

  /** ~3% of HTML pages carry one nofollow link to another page of their site (see Web.nofollow). */
  nofollow(id: number): number {
    const s = this.siteOf(id);
    const site = this.sites[s]!;
    if (s >= this.layout.ordinary || site.count < 2 || this.contentType(id) !== HTML_TYPE) return -1;
    const h = hash(this.seed, this.contentKey(id), S_NOFOLLOW);
    if (unit(h) >= 0.03) return -1;
    const t = site.first + (hash(h, 1) % site.count);
    return t === id ? site.first + ((t - site.first + 1) % site.count) : t;
  }

  /** Local index of page number u in a site, or -1 (revision 2 numbers ascend within a site). */
  private localIndex(site: SiteInfo, u: number): number {
    const nums = this.layout.urlNums;
    if (!nums) return u < site.count ? u : -1;
    let lo = site.first;
    let hi = site.first + site.count - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = nums[mid]!;
      if (v === u) return mid - site.first;
      if (v < u) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  private check(id: number): void {
    if (!(id >= 0 && id < this.pageCount)) throw new RangeError(`page id ${id} outside 0..${this.pageCount - 1}`);
  }
}
