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
  const db = store.db;
  const page = db.prepare('SELECT id, url, site_id, depth, parent_id FROM pages WHERE id = ?');
  const anchor = db.prepare('SELECT anchor FROM links WHERE src = ? AND dst = ?').pluck();
  const children = new Map<number, number[]>();
  const roots: number[] = [];
  for (const row of db.prepare('SELECT id, parent_id FROM pages ORDER BY id').raw().iterate() as Iterable<[number, number | null]>) {
    const [id, parent] = row;
    if (parent === null) roots.push(id);
    else {
      let list = children.get(parent);
      if (!list) children.set(parent, (list = []));
      list.push(id);
    }
  }
  const linksOf = db.prepare('SELECT dst FROM links WHERE src = ?').pluck();
  const discover = (id: number, parent: number | null) => {
    const p = page.get(id) as { id: number; url: string; site_id: number; depth: number; parent_id: number | null };
    const site = scheduler.site(p.site_id);
    if (!site) return;
    const a = parent === null ? null : ((anchor.get(parent, id) as string | null | undefined) ?? null);
    const priority = policy.pagePriority({ id, site, depth: p.depth, parentId: parent, url: p.url, anchor: a });
    scheduler.setPagePriority(id, site, priority);
  };
  for (const id of roots) discover(id, null);
  let replayed = 0;
  const fetched = db.prepare('SELECT id, site_id FROM pages WHERE fetch_seq IS NOT NULL ORDER BY fetch_seq').raw();
  for (const [id, siteId] of fetched.iterate() as Iterable<[number, number]>) {
    const site = scheduler.site(siteId);
    if (!site) continue;
    for (const child of children.get(id) ?? []) discover(child, id);
    scheduler.pageDone();
    policy.onFetched?.(id, site, linksOf.all(id) as number[]);
    replayed++;
  }
  return replayed;
}
