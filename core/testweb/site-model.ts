/**
 * What a generated site and its pages look like, as pure functions of (seed, site index, page
 * number). Nothing here is stored per page: the server recomputes a page's path, type, size and
 * title on each request. A page's number `u` is its position in the site's first revision (or,
 * for pages born in revision 2, a number past the end), so a page that survives into revision 2
 * keeps exactly the same URL and attributes.
 */
import { hash, lognormalAt, unit } from '../random.js';
import { HTML_TYPE, type RobotsKind } from './web.js';
import { capitalize, phrase, word } from './words.js';

// Salts keep the hash streams of different attributes independent.
const S_TRAITS = 11;
const S_KIND = 12;
const S_DIR = 13;
const S_SIZE = 14;
const S_TITLE = 15;
const S_NAME = 16;

export interface TraitOptions {
  latency?: { maxMs: number } | false;
  bandwidth?: boolean;
}

export interface SiteTraits {
  latencyMs: number;
  bytesPerSec: number;
  keepAliveMax: number;
  robots: RobotsKind;
  /** 0 = static paths only; 1 = some '/item?id=N'; 2 = some '/view.php?cat=w&id=N'. */
  dynamicStyle: number;
  /** Directory depth of static pages (0..3). */
  depth: number;
  /** Pages 1..3 live under this directory (disallowed by robots.txt), '' for none. */
  specialDir: string;
}

/** Robots kinds with their shares of ordinary sites. */
const ROBOTS_SHARES: Array<[RobotsKind, number]> = [
  ['allow-all', 0.5],
  ['not-found', 0.2],
  ['disallow-private', 0.1],
  ['agent-groups', 0.06],
  ['crawl-delay', 0.05],
  ['redirect', 0.05],
  ['server-error', 0.04],
];

/**
 * Per-site server behaviour. Latency and bandwidth are lognormal (heavy right tail, as measured
 * on real national webs: most servers answer fast, a few take seconds). Site 0 is the portal
 * every crawl starts from, so it gets no robots surprises and full keep-alive.
 */
export function siteTraits(seed: number, s: number, opts: TraitOptions): SiteTraits {
  const h = (k: number) => hash(seed, s, S_TRAITS, k);
  let latencyMs = 0;
  if (opts.latency) {
    latencyMs = Math.min(opts.latency.maxMs, Math.round(lognormalAt(h(1), h(2), 120, 1.1)));
  }
  let bytesPerSec = 0;
  if (opts.bandwidth) {
    const bps = lognormalAt(h(3), h(4), 100_000, 1.2);
    bytesPerSec = Math.round(Math.min(20e6, Math.max(4_000, bps)));
  }
  const ka = unit(h(5));
  const keepAliveMax = ka < 2 / 3 ? 100 : ka < 2 / 3 + 1 / 4 ? 1 : 2 + (h(6) % 19);
  let robots: RobotsKind = 'allow-all';
  let r = unit(h(7));
  for (const [kind, share] of ROBOTS_SHARES) {
    if (r < share) {
      robots = kind;
      break;
    }
    r -= share;
  }
  if (s === 0) robots = 'allow-all';
  const specialDir =
    robots === 'disallow-private' || robots === 'redirect' ? 'private' : robots === 'agent-groups' ? 'no-crawlbench' : '';
  const dyn = unit(h(8));
  return {
    latencyMs,
    bytesPerSec,
    keepAliveMax: s === 0 ? 100 : keepAliveMax,
    robots,
    dynamicStyle: dyn < 0.12 ? 1 : dyn < 0.2 ? 2 : 0,
    depth: h(9) % 4,
    specialDir,
  };
}

/** Plain constants rather than a const enum, which per-file transpilers (vitest/esbuild) handle poorly. */
export const PageKind = { Html: 0, Pdf: 1, Png: 2, Text: 3 } as const;
export type PageKind = (typeof PageKind)[keyof typeof PageKind];

/** Non-HTML pages are ~2%: they have no out-links and are never a tree parent. */
export function pageKind(seed: number, s: number, u: number): PageKind {
  if (u === 0) return PageKind.Html;
  const r = unit(hash(seed, s, u, S_KIND));
  return r < 0.008 ? PageKind.Pdf : r < 0.014 ? PageKind.Png : r < 0.02 ? PageKind.Text : PageKind.Html;
}

/** Pages 1..3 of sites whose robots.txt disallows a directory sit in that directory. */
export function isSpecial(t: SiteTraits, u: number): boolean {
  return t.specialDir !== '' && u >= 1 && u <= 3;
}

/** A page may be a tree parent when a polite crawler can fetch it and find links in it. */
export function isParentable(seed: number, s: number, t: SiteTraits, u: number): boolean {
  return !isSpecial(t, u) && pageKind(seed, s, u) === PageKind.Html;
}

export function pagePath(seed: number, s: number, t: SiteTraits, u: number): string {
  if (u === 0) return '/';
  if (isSpecial(t, u)) return `/${t.specialDir}/page-${u}.html`;
  const h = hash(seed, s, u, S_KIND);
  switch (pageKind(seed, s, u)) {
    case PageKind.Pdf:
      return `/files/${word(h >>> 3)}-${u}.pdf`;
    case PageKind.Png:
      return `/images/${word(h >>> 3)}-${u}.png`;
    case PageKind.Text:
      return `/docs/${word(h >>> 3)}-${u}.txt`;
    default:
      break;
  }
  if (t.dynamicStyle !== 0 && unit(hash(h, 1)) < 0.4) {
    return t.dynamicStyle === 1 ? `/item?id=${u}` : `/view.php?cat=${word(hash(h, 2))}&id=${u}`;
  }
  // Neighbouring page numbers share directories, like sections of a real site.
  let p = '';
  const depth = Math.min(t.depth, hash(h, 3) % 4);
  for (let i = 0; i < depth; i++) p += '/' + word(hash(seed, s, S_DIR * 8 + i, u >>> (9 - 3 * i)));
  return `${p}/${word(hash(h, 4))}-${u}.html`;
}

const PAGE_NUMBER = /(\d{1,9})(?:\.[a-z]+)?$/;

/** The page number embedded at the end of every generated non-home path, or -1. */
export function parsePageNumber(pathAndQuery: string): number {
  if (pathAndQuery === '/') return 0;
  const m = PAGE_NUMBER.exec(pathAndQuery);
  return m ? Number(m[1]) : -1;
}

export function pageType(kind: PageKind): string {
  switch (kind) {
    case PageKind.Pdf:
      return 'application/pdf';
    case PageKind.Png:
      return 'image/png';
    case PageKind.Text:
      return 'text/plain; charset=utf-8';
    default:
      return HTML_TYPE;
  }
}

/** Body size: lognormal around ~10 KB mean for HTML (heavier for PDFs), capped at 200 KB. */
export function pageSize(seed: number, s: number, u: number, kind: PageKind): number {
  const h1 = hash(seed, s, u, S_SIZE);
  const h2 = hash(h1, 1);
  const median = kind === PageKind.Pdf ? 60_000 : kind === PageKind.Png ? 30_000 : kind === PageKind.Text ? 4_000 : 7_600;
  const v = lognormalAt(h1, h2, median, 0.75);
  return Math.round(Math.min(200_000, Math.max(kind === PageKind.Html ? 1_200 : 200, v)));
}

export function siteName(seed: number, s: number): string {
  const h = hash(seed, s, S_NAME);
  return `${capitalize(word(h))} ${capitalize(word(hash(h, 1)))}`;
}

/** ASCII titles: 'Harbor budget review | Lake Museum' (home pages: 'Lake Museum - Home'). */
export function pageTitle(seed: number, s: number, u: number): string {
  if (u === 0) return `${siteName(seed, s)} - Home`;
  return `${phrase(hash(seed, s, u, S_TITLE))} | ${siteName(seed, s)}`;
}
