import { CrawlReader } from '../store/crawl-reader.js';
import type { CrawlContext } from './context.js';

/**
 * Rebuilds a policy's memory on resume (OPIC cash, backlink counts, the graph seen so far,
 * batch PageRank) by replaying what the crawl database records, in the order it happened:
 * seeds first, then every fetched page by fetch sequence, with the pages it discovered
 * (pagePriority) and the pages it links to (onFetched). Pending pages are already in the
 * scheduler, so the priorities the replay produces land on them; the result is the state
 * an uninterrupted crawl would have had at the last commit.
 */
export function replayPolicy(ctx: CrawlContext): number {
  const { policy, store, scheduler } = ctx;
  if (!policy.onFetched && !policy.onBatch) return 0;
  const reader = CrawlReader.over(store.db);
  const children = new Map<number, number[]>();
  const roots: number[] = [];
  for (const { id, parentId } of reader.pages(['parentId'])) {
    if (parentId === null) roots.push(id);
    else {
      let list = children.get(parentId);
      if (!list) children.set(parentId, (list = []));
      list.push(id);
    }
  }
  const discover = (id: number, parent: number | null) => {
    const p = reader.page(id, ['url', 'siteId', 'depth'])!;
    const site = scheduler.site(p.siteId);
    if (!site) return;
    const a = parent === null ? null : reader.linkAnchor(parent, id);
    const priority = policy.pagePriority({ id, site, depth: p.depth, parentId: parent, url: p.url, anchor: a });
    scheduler.setPagePriority(id, site, priority);
  };
  for (const id of roots) discover(id, null);
  let replayed = 0;
  for (const { id, siteId } of reader.pagesByFetch(['id', 'siteId'])) {
    const site = scheduler.site(siteId);
    if (!site) continue;
    for (const child of children.get(id) ?? []) discover(child, id);
    scheduler.pageDone();
    policy.onFetched?.(id, site, reader.outLinks(id));
    replayed++;
  }
  return replayed;
}
