/**
 * Compare two crawls of (usually) the same domain made months apart: settings side by side,
 * the sets of pages and sites, per-site growth and change, status and content changes of
 * common pages, new and vanished links, how PageRank moved, and both crawls' curves.
 * Reads both crawls through the read side only, as of one snapshot each (either may be
 * running or read-only), writes into neither, and never holds both crawls' URLs: pages meet
 * through sorted 64-bit URL fingerprints (crawl-side.ts, page-join.ts).
 */
import type { CrawlSettings } from '../config/settings.js';
import { CrawlError, ErrorCodes } from '../errors.js';
import { CrawlReader } from '../store/crawl-reader.js';
import type { SiteKeyMode } from '../url/site-key.js';
import { loadSide, realPath, SiteKeys, STATUS_CLASSES, type CrawlSide, type Tick } from './crawl-side.js';
import { diffLinks } from './link-diff.js';
import { joinPages, type PageJoin } from './page-join.js';
import { pageLists } from './page-lists.js';
import { diffPageRank, sidePageRank } from './pagerank-diff.js';
import type { CompareReport, SideSummary, SiteRow } from './report.js';

export type { CompareReport } from './report.js';

export interface CompareOptions {
  /** Risers, fallers, sites and added, removed, changed pages listed (default 20). */
  top?: number;
  /** Per-page figures for this host only. */
  host?: string | null;
  /** Called as each step starts: step name, fraction 0..1 of the whole. */
  progress?: (step: string, fraction: number) => void;
  /** Cancels the comparison (it stops at its next pause with CRAWL_CANCELLED). */
  signal?: AbortSignal;
}

/** A pause every few thousand rows (the event loop runs), and the cancellation check. */
function ticker(signal?: AbortSignal): Tick {
  return () =>
    new Promise<void>((resolve, reject) =>
      setImmediate(() => (signal?.aborted ? reject(new CrawlError(ErrorCodes.CANCELLED, 'the comparison was cancelled')) : resolve())),
    );
}




const LOW_OVERLAP = 0.2;

function summary(side: CrawlSide): SideSummary {
  const s = side.settings;
  const timeline = side.reader.timeline(2);
  const counts = side.reader.counts();
  return {
    path: side.path,
    state: side.state,
    seeds: s.seeds,
    scope: s.scope,
    siteKey: s.siteKey,
    policy: s.policy,
    policyParams: s.policyParams,
    w: s.w,
    c: s.c,
    r: s.r,
    maxPages: s.maxPages,
    maxDepth: s.maxDepth,
    maxPagesPerSite: s.maxPagesPerSite,
    userAgent: s.userAgent,
    startedAt: side.reader.meta('created_at') ?? null,
    durationSeconds: timeline && timeline.length > 0 ? timeline[timeline.length - 1]!.t : Number(side.reader.meta('crawl_seconds')) || null,
    pagesKnown: counts.pagesKnown,
    sites: counts.sites,
  };
}

function refuseSame(pathA: string, pathB: string): void {
  if (realPath(pathA) !== realPath(pathB)) return;
  throw new CrawlError(ErrorCodes.BAD_OPTION, `${pathB}: the same crawl as ${pathA}; compare two different crawls`);
}

function siteSets(join: PageJoin): CompareReport['sites'] {
  let inA = 0;
  let inB = 0;
  let both = 0;
  for (let s = 0; s < join.sites.inA.length; s++) {
    const a = join.sites.inA[s]! > 0;
    const b = join.sites.inB[s]! > 0;
    if (a) inA++;
    if (b) inB++;
    if (a && b) both++;
  }
  const union = inA + inB - both;
  return { inA, inB, onlyA: inA - both, onlyB: inB - both, both, jaccard: union > 0 ? both / union : NaN };
}

/** The sites table's measured connection figures of a crawl, by site key (when it used the comparison's key). */
function measured(side: CrawlSide, mode: SiteKeyMode): Map<string, { connectMs: number | null; perConn: number | null }> {
  const out = new Map<string, { connectMs: number | null; perConn: number | null }>();
  if (side.settings.siteKey !== mode) return out;
  for (const s of side.reader.sites(['host', 'connectMs', 'requestsPerConn'])) out.set(s.host, { connectMs: s.connectMs, perConn: s.requestsPerConn });
  return out;
}

function perSite(keys: SiteKeys, join: PageJoin, a: CrawlSide, b: CrawlSide, mode: SiteKeyMode): SiteRow[] {
  const ma = measured(a, mode);
  const mb = measured(b, mode);
  const s = join.sites;
  const rows: SiteRow[] = [];
  keys.names.forEach((site, i) => {
    if (s.inA[i]! + s.inB[i]! + s.errorsA[i]! + s.errorsB[i]! === 0) return;
    rows.push({
      site,
      pagesA: s.inA[i]!,
      pagesB: s.inB[i]!,
      growth: s.inA[i]! > 0 ? s.inB[i]! / s.inA[i]! - 1 : null,
      added: s.added[i]!,
      removed: s.removed[i]!,
      changed: s.changed[i]!,
      bytesA: s.bytesA[i]!,
      bytesB: s.bytesB[i]!,
      errorsA: s.errorsA[i]!,
      errorsB: s.errorsB[i]!,
      connectMsA: ma.get(site)?.connectMs ?? null,
      connectMsB: mb.get(site)?.connectMs ?? null,
      pagesPerConnectionA: ma.get(site)?.perConn ?? null,
      pagesPerConnectionB: mb.get(site)?.perConn ?? null,
    });
  });
  return rows.sort((x, y) => y.pagesA + y.pagesB - (x.pagesA + x.pagesB) || x.site.localeCompare(y.site));
}

function settingsWarnings(a: SideSummary, b: SideSummary, pages: CompareReport['pages']): string[] {
  const w: string[] = [];
  const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);
  if (!same([...a.seeds].sort(), [...b.seeds].sort())) w.push('the crawls started from different seeds');
  if (!same(a.scope, b.scope)) w.push('the crawls have different scopes');
  if (a.siteKey !== b.siteKey) w.push(`the crawls count sites differently (A by ${a.siteKey}, B by ${b.siteKey}): per-site figures use A's (${a.siteKey})`);
  if (Number.isFinite(pages.jaccard) && pages.jaccard < LOW_OVERLAP) {
    w.push(`low overlap: only ${(pages.jaccard * 100).toFixed(1)}% of the fetched pages are in both crawls (different domains, or much changed)`);
  }
  return w;
}

function statusTables(join: PageJoin): Pick<CompareReport, 'statusClasses' | 'statusChanges'> {
  const statusClasses = STATUS_CLASSES.map((status, i) => ({ status, a: join.classesA[i]!, b: join.classesB[i]! }));
  const statusChanges: CompareReport['statusChanges'] = [];
  join.statusChanges.forEach((row, i) =>
    row.forEach((pages, j) => {
      if (pages > 0) statusChanges.push({ from: STATUS_CLASSES[i]!, to: STATUS_CLASSES[j]!, pages });
    }),
  );
  return { statusClasses, statusChanges: statusChanges.sort((x, y) => y.pages - x.pages) };
}

/** The site key crawl A used: the comparison's (read before anything else, to fail early on a bad file). */
function siteKeyOf(path: string): SiteKeyMode {
  const reader = CrawlReader.open(path);
  try {
    return (JSON.parse(reader.meta('settings') ?? '{}') as Partial<CrawlSettings>).siteKey ?? 'host';
  } finally {
    reader.close();
  }
}

/**
 * Compares crawl B (usually the later one) with crawl A. Long reads pause every few thousand
 * rows so the engine stays responsive; PageRank, when a crawl has no stored run, is one
 * computation of a few seconds per million pages that does not pause.
 */
export async function compareCrawls(pathA: string, pathB: string, opts: CompareOptions = {}): Promise<CompareReport> {
  refuseSame(pathA, pathB);
  const progress = opts.progress ?? (() => {});
  const host = opts.host?.toLowerCase() ?? null;
  const mode = siteKeyOf(pathA);
  siteKeyOf(pathB);
  const keys = new SiteKeys();
  const tick = ticker(opts.signal);
  progress('reading A', 0);
  const a = await loadSide(pathA, keys, mode, host, tick);
  let b: CrawlSide | null = null;
  try {
    progress('reading B', 0.15);
    b = await loadSide(pathB, keys, mode, host, tick);
    return await assemble(a, b, keys, mode, host, opts.top ?? 20, progress, tick);
  } finally {
    a.reader.close();
    b?.reader.close();
  }
}

async function assemble(a: CrawlSide, b: CrawlSide, keys: SiteKeys, mode: SiteKeyMode, host: string | null, top: number, progress: (step: string, f: number) => void, tick: Tick): Promise<CompareReport> {
  progress('joining pages', 0.3);
  const join = joinPages(a, b, keys.names.length);
  progress('comparing links', 0.4);
  const links = await diffLinks(a, b, join.bothA, join.bothB, tick);
  progress('PageRank of A', 0.55);
  await tick();
  const pa = sidePageRank(a);
  progress('PageRank of B', 0.7);
  await tick();
  const pb = sidePageRank(b);
  await tick();
  progress('comparing PageRank', 0.85);
  const pagerank = diffPageRank(a, b, join, pa, pb, top);
  const lists = pageLists(a, b, join, pa, pb, top);
  const union = join.inA + join.inB - join.both;
  const pages = { inA: join.inA, inB: join.inB, onlyA: join.onlyA, onlyB: join.onlyB, both: join.both, jaccard: union > 0 ? join.both / union : NaN };
  const sa = summary(a);
  const sb = summary(b);
  const notes = [a, b].filter((s) => s.state === 'running').map((s) => `${s.path} is still running: compared as of one moment (its snapshot when the comparison began)`);
  if (pa.source === 'computed' || pb.source === 'computed') notes.push('PageRank computed in memory for the crawl(s) without a stored run (nothing was written)');
  const timelines = { a: a.reader.timeline(400), b: b.reader.timeline(400) };
  for (const [name, t] of [['A', timelines.a], ['B', timelines.b]] as const) if (t === null) notes.push(`crawl ${name} was made before crawlbench stored timelines: its throughput curve is absent`);
  if (join.acrossSchemes > 0) notes.push(`pages are matched whatever their scheme: ${join.acrossSchemes.toLocaleString('en-US')} common pages are http in one crawl and https in the other`);
  for (const [name, s] of [['A', a], ['B', b]] as const) {
    if (s.notModified > 0) notes.push(`crawl ${name} asked its history crawl's pages conditionally: ${s.notModified.toLocaleString('en-US')} were not modified (304), their content and links taken from that crawl`);
  }
  progress('done', 1);
  return {
    a: sa,
    b: sb,
    warnings: settingsWarnings(sa, sb, pages),
    notes,
    host,
    pages,
    sites: siteSets(join),
    ...statusTables(join),
    common: {
      pages: join.both, contentChanged: join.contentChanged, sizeChanged: join.sizeChanged, bytesA: join.bytesBothA, bytesB: join.bytesBothB,
      acrossSchemes: join.acrossSchemes, notModifiedA: a.notModified, notModifiedB: b.notModified,
    },
    links,
    pageLists: lists,
    pagerank,
    perSite: perSite(keys, join, a, b, mode),
    timelines,
  };
}
