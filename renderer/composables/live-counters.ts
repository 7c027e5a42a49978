/**
 * What Live's counters show of a crawl, run or not: while a run is on, its last live sample;
 * otherwise the crawl's stored final state (pages, queue, errors, running time as committed at
 * its end), with the rates as averages over the whole crawl, never the last sample of a run
 * that has ended. The errors by code, the pages found in the history crawl and whether there is
 * a PageRank estimate to draw follow the same rule.
 */
import { computed, ref, watch, type ComputedRef } from 'vue';
import type { CrawlInfo, StatsEvent } from '../../core/api/contract.js';
import { errorsExplained } from '../lib/words.js';
import { useCrawlsStore } from '../stores/crawls.js';
import { useLiveStore } from '../stores/live.js';

/** One line of counters: a rate is null when unknown; `average` when taken over the whole crawl. */
export interface LiveCounters {
  pages: number;
  pagesPerSecond: number | null;
  bytesPerSecond: number | null;
  connections: string;
  sitesPending: number | null;
  queued: number;
  errors: number | null;
  pagerank: number | null;
  seconds: number | null;
  average: boolean;
}

function fromSample(x: StatsEvent): LiveCounters {
  return { pages: x.pages, pagesPerSecond: x.pagesPerSecond, bytesPerSecond: x.bytesPerSecond, connections: `${x.openConnections} / ${x.r}`, sitesPending: x.sitesWithPending, queued: x.queued, errors: x.errorTotal, pagerank: x.pagerankEstimate, seconds: x.crawlSeconds, average: false };
}

/** The crawl as stored at its last commit, rates averaged over its running time. */
function fromStored(c: CrawlInfo, live: ReturnType<typeof useLiveStore>): LiveCounters {
  const x = live.latest;
  void live.version; // the last timeline point (bytes, PageRank) is read below
  const seconds = c.crawlSeconds ?? null;
  const perSecond = (n: number | null) => (n !== null && seconds ? n / seconds : null);
  const r = live.settings?.r;
  return {
    pages: c.pagesFetched,
    pagesPerSecond: perSecond(c.pagesFetched),
    bytesPerSecond: perSecond(live.series.lastBytes),
    connections: r === undefined ? '–' : `0 / ${r}`,
    sitesPending: null,
    queued: c.queued,
    errors: c.errorTotal ?? x?.errorTotal ?? null,
    pagerank: live.series.lastPagerank ?? x?.pagerankEstimate ?? null,
    seconds,
    average: true,
  };
}

/** Live's counters of `crawl`; `active`: a run is on (running or pausing). */
export function useLiveCounters(crawl: ComputedRef<CrawlInfo | null>, active: ComputedRef<boolean>) {
  const live = useLiveStore();
  const crawls = useCrawlsStore();
  const s = computed(() => live.latest);
  // A run that has just ended: its state came at once (crawls.applyState) but the stored
  // figures come with the list applyState asked for, so until that list is here the stored ones
  // are those of before the run (a resumed crawl showed the page count it was paused at). The
  // last sample stands until then.
  const ending = ref(false);
  watch(active, (on, was) => {
    if (!was || on) return;
    ending.value = true;
    void crawls.listed().finally(() => (ending.value = false));
  });
  const sampled = computed(() => (active.value || ending.value) && s.value !== null);
  const counters = computed(() => {
    const c = crawl.value;
    if (!c) return null;
    return sampled.value && s.value ? fromSample(s.value) : fromStored(c, live);
  });
  /** The policy has an estimate of the PageRank fetched to draw (stored or live); without one Live draws no empty chart. */
  const hasEstimate = computed(() => live.version >= 0 && (live.series.pagerankVsPages.data().length > 0 || (s.value?.pagerankEstimate ?? null) !== null));
  /** The errors counted, by code: a running crawl's last sample, else as stored at its last commit. */
  const errorKinds = computed(() => (sampled.value && s.value ? s.value.errors : (crawl.value?.errors ?? s.value?.errors ?? {})));
  const errorLines = computed(() => errorsExplained(errorKinds.value));
  /** Pages found in the history crawl: while a run is on, its last sample's count (the list's is as of the last commit). */
  const historyMatched = computed(() => (sampled.value && s.value?.historyMatched != null ? s.value.historyMatched : (crawl.value?.historyMatched ?? null)));
  return { counters, hasEstimate, errorKinds, errorLines, historyMatched };
}
