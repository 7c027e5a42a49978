import { ErrorCodes, SkipCodes } from '../errors.js';
import { isDynamic } from '../url/canonical.js';
import { siteKey } from '../url/site-key.js';
import type { CrawlContext, Discovery } from './context.js';

export type { Discovery } from './context.js';

/** Told the URLs that are pages not skipped: discover() returns their id at once from then on. */
export interface KnownPages {
  set(url: string, id: number): void;
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
    known?.set(d.url, existing.id);
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
      known?.set(d.url, existing.id);
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
  // The id is needed for the priority (policies tie-break on it), so insert, then rank.
  const id = store.insertPage(page, 0);
  const priority = policy.pagePriority({ id, site, depth: d.depth, parentId: d.parentId, url: d.url, anchor: d.anchor });
  if (priority !== 0) store.setPriority(id, priority);
  site.pagesKnown++;
  ctx.sites.touch(site);
  scheduler.enqueue(site, id, priority);
  known?.set(d.url, id);
  return id;
}

/**
 * A URL another worker of a parallel crawl owns: handed to the worker to send, and stored
 * once as a skipped page of its own code so that the link to it is recorded (the merge takes
 * the owner's row).
 */
function foreignPage(ctx: CrawlContext, d: Discovery): number {
  ctx.parts!.foreign(d);
  const existing = ctx.store.findPage(d.url);
  if (existing) return existing.id;
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
