/**
 * Live statistics of the selected crawl. Every series is a BoundedSeries: however long the
 * crawl runs, the renderer holds at most a few hundred points per chart.
 */
import { defineStore } from 'pinia';
import { markRaw, ref, shallowRef } from 'vue';
import type { ParkedSiteDto, RecentError, SiteRowDto, StatsEvent, Unsubscribe } from '../../core/api/contract.js';
import { useApi } from '../api/instance.js';
import { asyncActions } from '../lib/async-action.js';
import { BoundedSeries } from '../lib/bounded-series.js';

export const SERIES_MAX = 400;

function makeSeries() {
  // markRaw: Vue must not make thousands of points reactive; `version` triggers redraws.
  return markRaw({
    pagesPerSecond: new BoundedSeries(SERIES_MAX),
    bytesPerSecond: new BoundedSeries(SERIES_MAX),
    openConnections: new BoundedSeries(SERIES_MAX),
    r: new BoundedSeries(SERIES_MAX),
    sitesWithPending: new BoundedSeries(SERIES_MAX),
    queued: new BoundedSeries(SERIES_MAX),
    pagerankVsPages: new BoundedSeries(SERIES_MAX),
  });
}

export const useLiveStore = defineStore('live', () => {
  const { run, status } = asyncActions<'tables' | 'parked'>();
  const crawlId = ref<string | null>(null);
  const latest = ref<StatsEvent | null>(null);
  const series = shallowRef(makeSeries());
  /** Bumped on every sample so charts know to redraw. */
  const version = ref(0);
  const topSites = ref<SiteRowDto[]>([]);
  const errors = ref<RecentError[]>([]);
  /** Parked sites and the pages they skipped: asked again only when the error count moves. */
  const parked = ref<ParkedSiteDto[]>([]);
  const parkedAt = ref(-1);
  /** Wall-clock time of the first sample shown: x stays monotonic across pause and resume. */
  const startedAt = ref<number | null>(null);

  /** Shows another crawl: its series start empty. */
  function watch(id: string | null) {
    if (id === crawlId.value) return;
    crawlId.value = id;
    latest.value = null;
    series.value = makeSeries();
    topSites.value = [];
    errors.value = [];
    parked.value = [];
    parkedAt.value = -1;
    startedAt.value = null;
    version.value++;
  }

  function ingest(s: StatsEvent) {
    if (s.crawlId !== crawlId.value) return;
    startedAt.value ??= s.at - s.elapsedSeconds * 1000;
    const t = (s.at - startedAt.value) / 1000;
    const x = series.value;
    x.pagesPerSecond.push(t, s.pagesPerSecond);
    x.bytesPerSecond.push(t, s.bytesPerSecond);
    x.openConnections.push(t, s.openConnections);
    x.r.push(t, s.r);
    x.sitesWithPending.push(t, s.sitesWithPending);
    x.queued.push(t, s.queued);
    if (s.pagerankEstimate !== null) x.pagerankVsPages.push(s.pages, s.pagerankEstimate);
    latest.value = s;
    version.value++;
  }

  /** Feeds every stats event to `ingest` (events of crawls not shown are dropped there). */
  function subscribe(): Unsubscribe {
    return useApi().onStats(ingest);
  }

  /** The slower tables: asked for every few seconds, not on every sample. */
  async function refreshTables() {
    const id = crawlId.value;
    if (!id) return;
    const api = useApi();
    const out = await run('tables', () => Promise.all([api.listSites(id, { sort: 'pages_fetched', descending: true, limit: 10 }), api.recentErrors(id, 10)]));
    if (!out.ok || id !== crawlId.value) return;
    const [sites, recent] = out.value;
    topSites.value = sites.rows;
    errors.value = recent;
    // Parking is rare and the list needs a scan of skipped pages: only when errors change.
    const errorTotal = latest.value?.errorTotal ?? 0;
    if (errorTotal !== parkedAt.value || latest.value === null) {
      const p = await run('parked', () => api.parkedSites(id, 20));
      if (!p.ok || id !== crawlId.value) return;
      parked.value = p.value;
      parkedAt.value = errorTotal;
    }
  }

  return { ...status, crawlId, latest, series, version, topSites, errors, parked, parkedAt, startedAt, watch, ingest, subscribe, refreshTables };
});
