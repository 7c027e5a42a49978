/**
 * The options of a generated web, checked once at the entry (bad values throw CRAWL_BAD_OPTION
 * naming the option) and resolved with their defaults.
 */
import { badOption } from '../errors.js';

export interface WebSpec {
  /** --web-seed */
  seed: number;
  /** Number of ordinary sites. */
  sites: number;
  /** Approximate total of ordinary pages. */
  pages: number;
  /** 2 = "the same web months later". */
  revision?: 1 | 2;
  /** Add the fault sites of faults.ts. Default false. */
  faults?: boolean;
  /**
   * Some ordinary sites serve sitemaps (sitemaps.ts: good ones, and each broken kind on a site
   * of its own) and pages only their sitemaps list. Default false: not a page or link changes.
   */
  sitemaps?: boolean;
  /** Cap on one site's size; default 25% of pages. */
  maxSitePages?: number;
  /** Per-site latency (lognormal, median ~120 ms) clipped to maxMs. Default false: no latency. */
  latency?: { maxMs: number } | false;
  /** Per-site transfer rate (lognormal, median ~100 KB/s). Default false: unthrottled. */
  bandwidth?: boolean;
  /** Default '.demo'. */
  hostSuffix?: string;
  /** Share of the ordinary sites served over TLS, 0..1 (default 0); with `faults`, the TLS fault sites too. */
  tls?: number;
  /** Of the sites on TLS, the share also answering http (redirecting to https), 0..1; default 1/3. */
  tlsBoth?: number;
  /** Ordinary sites say their keep-alive limit on each response (Keep-Alive: max, SiteInfo.keepAliveHeader). Default false. */
  keepAliveHeader?: boolean;
  /** 'zipf': pages get qualities 1/i^1 in a seeded random order (quality.ts; Web.quality). Default none. */
  quality?: 'zipf';
}

/** The spec with defaults filled in and checked once, as used by every later step. */
export interface ResolvedSpec {
  seed: number;
  sites: number;
  pages: number;
  revision: 1 | 2;
  faults: boolean;
  sitemaps: boolean;
  cap: number;
  latency: { maxMs: number } | false;
  bandwidth: boolean;
  suffix: string;
  hostWidth: number;
  tls: number;
  tlsBoth: number;
  keepAliveHeader: boolean;
  quality: 'zipf' | null;
}

export function resolveSpec(spec: WebSpec): ResolvedSpec {
  if (typeof spec.seed !== 'number' || !Number.isFinite(spec.seed)) throw badOption('--web-seed', 'must be a number');
  const check = (v: unknown, name: string, min: number) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw badOption(name, `must be an integer >= ${min}`);
  };
  check(spec.sites, 'sites', 1);
  check(spec.pages, 'pages', 1);
  if (spec.maxSitePages !== undefined) check(spec.maxSitePages, 'maxSitePages', 1);
  if (spec.revision !== undefined && spec.revision !== 1 && spec.revision !== 2) throw badOption('revision', 'must be 1 or 2');
  if (spec.latency && !(spec.latency.maxMs >= 0)) throw badOption('latency.maxMs', 'must be >= 0');
  checkShare(spec.tls, '--tls');
  if (spec.quality !== undefined && spec.quality !== 'zipf') throw badOption('quality', "must be 'zipf'");
  checkShare(spec.tlsBoth, '--tls-both');
  const suffix = (spec.hostSuffix ?? '.demo').toLowerCase();
  if (!/^(\.[a-z0-9-]+)+$/.test(suffix)) throw badOption('hostSuffix', `'${suffix}' is not like '.demo'`);
  const cap = spec.maxSitePages ?? Math.max(1, Math.floor(spec.pages / 4));
  // Wide enough for the sites revision 2 adds, so host names never change between revisions.
  const hostWidth = Math.max(4, String(spec.sites + newSiteCount(spec.sites)).length);
  return {
    seed: Math.floor(spec.seed) >>> 0,
    sites: spec.sites,
    pages: spec.pages,
    revision: spec.revision ?? 1,
    faults: spec.faults ?? false,
    sitemaps: spec.sitemaps ?? false,
    cap,
    latency: spec.latency ?? false,
    bandwidth: spec.bandwidth ?? false,
    suffix,
    hostWidth,
    tls: spec.tls ?? 0,
    tlsBoth: spec.tlsBoth ?? DEFAULT_TLS_BOTH,
    keepAliveHeader: spec.keepAliveHeader ?? false,
    quality: spec.quality ?? null,
  };
}

/** Of the sites on TLS, the share on both schemes unless the spec says. */
export const DEFAULT_TLS_BOTH = 1 / 3;

function checkShare(v: number | undefined, name: string): void {
  if (v !== undefined && !(typeof v === 'number' && v >= 0 && v <= 1)) throw badOption(name, 'must be a share from 0 to 1');
}

/** Sites born between revision 1 and 2: ~10%. */
export function newSiteCount(sites: number): number {
  return Math.round(sites * 0.1);
}

