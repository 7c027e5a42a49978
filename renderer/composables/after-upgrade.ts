/**
 * A crawl made by an earlier version is brought up to this schema when first read (the engine's
 * crawl-upgrades.ts), and meanwhile every read of it is refused (CRAWL_DB_UPGRADING). A view
 * left open on it asks again once the crawl's status leaves 'upgrading', which the Crawls
 * store learns from the engine's crawlState event: before, it kept the refusal until it was
 * left and opened again, or the page reloaded.
 */
import { watch } from 'vue';
import { useCrawlsStore } from '../stores/crawls.js';

export function onUpgraded(id: () => string | null | undefined, reload: () => void): void {
  const crawls = useCrawlsStore();
  // The crawl with its status: moving to another crawl (one upgrading, the next not) is no upgrade's end.
  watch(
    () => [id(), crawls.byId(id())?.status] as const,
    ([crawlId, now], [was, then]) => {
      if (crawlId === was && then === 'upgrading' && now !== undefined && now !== 'upgrading') reload();
    },
  );
}
