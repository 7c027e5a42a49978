import { ErrorCodes, SkipCodes } from '../errors.js';
import { isDynamic } from '../url/canonical.js';
import { siteKey } from '../url/site-key.js';
import type { CrawlContext, Discovery } from './context.js';

export type { Discovery } from './context.js';

/**
 * Told the URLs that are pages not skipped, with the depth each is stored at: discover()
 * returns their id at once from then on for a link no shorter (a shorter one must reach
 * shorterPath below).
 */
export interface KnownPages {
  set(url: string, id: number, depth: number): void;
}

/** Skip codes that a later, better link can lift (a shorter path, a followable link). */
const LIFTABLE = new Set<string>([ErrorCodes.TRAP_DEPTH, ErrorCodes.TRAP_DYNAMIC_DEPTH, SkipCodes.NOFOLLOW]);

/**
 * Turns a discovered URL into a page id: an existing page, or a new one queued for
 * fetching, or a new one stored as skipped with the limit that stopped it (depth 15 for
 * static URLs, 5 for dynamic ones, the per-site cap, too many redirects, nofollow).
 * Returns null when the URL is outside the crawl's scope (such URLs are only counted).
 */
export function discover(ctx: CrawlContext, d: Discovery, known?: KnownPages): number | null {
  const { settings, store, scheduler, policy } = ctx;
  const scopeProblem = ctx.scope.check(d.url);
  if (scopeProblem !== null) {
    ctx.counters.bump(scopeProblem === 'excluded' ? 'links:excluded' : 'links:out-of-scope');
    return null;
  }
  if (ctx.parts && !ctx.parts.mine(d.url, d.parentId === null && d.depth === 0 && d.redirects === 0)) return foreignPage(ctx, d);
  const existing = store.findPage(d.url);
  if (existing && existing.status !== 'skipped') {
    if (d.depth < existing.depth) shorterPath(ctx, existing.id, existing.status, d.depth);
    known?.set(d.url, existing.id, Math.min(d.depth, existing.depth));
    return existing.id;
  }

  const key = siteKey(d.url, settings.siteKey);
  const { site, created } = ctx.sites.getOrCreate(key);
  if (created) scheduler.addSite(site);
  const skip = skipReason(ctx, d, site.pagesKnown);
  if (existing) {
    // Known but skipped: fetch it after all if this link lifts the limit that stopped it.
    const code = existing.error_code;
    if (skip === null && code !== null && LIFTABLE.has(code) && site.status !== 'parked') {
      const priority = policy.pagePriority({ id: existing.id, site, depth: d.depth, parentId: d.parentId, url: d.url, anchor: d.anchor });
      store.requeuePage(existing.id, site.id, d.depth, priority);
      site.pagesKnown++;
      ctx.sites.touch(site);
      scheduler.enqueue(site, existing.id, priority);
      known?.set(d.url, existing.id, d.depth);
    }
    return existing.id;
  }
  const queued = skip === null && site.status !== 'parked';
  const page = {
    url: d.url,
    siteId: site.id,
    depth: d.depth,
    parentId: d.parentId,
    redirects: d.redirects,
    status: queued ? ('queued' as const) : ('skipped' as const),
    errorCode: queued ? null : (skip ?? ErrorCodes.SITE_PARKED),
  };
  if (!queued) {
    ctx.counters.bump(`skipped:${page.errorCode}`);
    return store.insertPage(page);
  }
  // The id is needed for the priority (policies tie-break on it): ranked with the id the insert
  // gives next, then inserted with its priority, one write where an insert and an update were
  // two (and the page's rows group with the next page's on a writer thread: row-groups.ts).
  const priority = policy.pagePriority({ id: store.nextPageId, site, depth: d.depth, parentId: d.parentId, url: d.url, anchor: d.anchor });
  const id = store.insertPage(page, priority);
  site.pagesKnown++;
  ctx.sites.touch(site);
  scheduler.enqueue(site, id, priority);
  known?.set(d.url, id, d.depth);
  return id;
}

/** Pages lowered while queued, by crawl: a page already taken for a fetch finds its links from the lower depth. */
const loweredByCrawl = new WeakMap<CrawlContext, Map<number, number>>();

/** The depth a page fetched now finds its links from: a shorter path found while it was in flight, else its own. */
export function linkDepth(ctx: CrawlContext, id: number, depth: number): number {
  const lowered = loweredByCrawl.get(ctx);
  const d = lowered?.get(id);
  if (d === undefined) return depth;
  lowered!.delete(id);
  return Math.min(d, depth);
}

/**
 * A page found by a shorter path than the one that first found it: its depth is lowered, and
 * when it was fetched its links are found again from the new depth, so a limit its old depth
 * had them hit is lifted and their depths are lowered in turn; its links to another part of a
 * parallel crawl go to their owner again (parts.shorterPath). So a page's depth is the fewest
 * links from a seed found so far, whatever order pages are found in, and the depth limits
 * (maxDepth, maxDynamicDepth) keep the pages they keep in any order: a parallel crawl, whose
 * workers learn of each other's links late and fetch along longer paths first, keeps the
 * pages a single process keeps. A depth only falls, so each page is found again at most once
 * per level.
 */
function shorterPath(ctx: CrawlContext, id: number, status: string, depth: number): void {
  const { store } = ctx;
  store.setDepth(id, depth);
  if (status === 'queued') {
    let lowered = loweredByCrawl.get(ctx);
    if (!lowered) loweredByCrawl.set(ctx, (lowered = new Map()));
    lowered.set(id, depth);
    return;
  }
  const foreign: Discovery[] = [];
  // A redirect's target stands at the page's own depth; any other link's one deeper.
  const childDepth = (kind: string) => (kind === 'redirect' ? depth : depth + 1);
  for (const l of store.linksToLower(id, childDepth)) {
    const child: Discovery = {
      url: l.url, depth: childDepth(l.kind), parentId: id, redirects: l.kind === 'redirect' ? l.redirects : 0, anchor: l.anchor, nofollow: l.nofollow === 1,
    };
    if (l.errorCode === SkipCodes.OTHER_PART) {
      store.setDepth(l.dst, child.depth);
      foreign.push(child);
    } else {
      discover(ctx, child);
    }
  }
  if (foreign.length > 0) ctx.parts?.shorterPath?.(id, store.pageUrl(id), foreign);
}

/**
 * A URL another worker of a parallel crawl owns: handed to the worker to send, and stored
 * once as a skipped page of its own code so that the link to it is recorded (the merge takes
 * the owner's row).
 */
function foreignPage(ctx: CrawlContext, d: Discovery): number {
  ctx.parts!.foreign(d);
  const existing = ctx.store.findPage(d.url);
  if (existing) {
    if (d.depth < existing.depth) ctx.store.setDepth(existing.id, d.depth); // sent with this depth
    return existing.id;
  }
  const { site, created } = ctx.sites.getOrCreate(siteKey(d.url, ctx.settings.siteKey));
  if (created) ctx.scheduler.addSite(site);
  return ctx.store.insertPage({
    url: d.url, siteId: site.id, depth: d.depth, parentId: d.parentId, redirects: d.redirects, status: 'skipped', errorCode: SkipCodes.OTHER_PART,
  });
}

function skipReason(ctx: CrawlContext, d: Discovery, sitePages: number): string | null {
  const s = ctx.settings;
  if (d.redirects > s.maxRedirects) return ErrorCodes.TOO_MANY_REDIRECTS;
  if (d.depth > s.maxDepth) return ErrorCodes.TRAP_DEPTH;
  if (d.depth > s.maxDynamicDepth && isDynamic(d.url)) return ErrorCodes.TRAP_DYNAMIC_DEPTH;
  if (sitePages >= s.maxPagesPerSite) return ErrorCodes.TRAP_SITE_CAP;
  if (d.nofollow) return SkipCodes.NOFOLLOW;
  return null;
}
