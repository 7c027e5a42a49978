/**
 * Live statistics of the selected crawl. Every series is a BoundedSeries: however long the
 * crawl runs, the renderer holds at most a few hundred points per chart.
 */
import { defineStore } from 'pinia';
import { markRaw } from 'vue';
import type { ParkedSiteDto, RecentError, SiteRowDto, StatsEvent } from '../../core/api/contract.js';
import { useApi } from '../api/instance.js';
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

export const useLiveStore = defineStore('live', {
  state: () => ({
    crawlId: null as string | null,
    latest: null as StatsEvent | null,
    series: makeSeries(),
    /** Bumped on every sample so charts know to redraw. */
    version: 0,
    topSites: [] as SiteRowDto[],
    errors: [] as RecentError[],
    /** Parked sites and the pages they skipped: asked again only when the error count moves. */
    parked: [] as ParkedSiteDto[],
    parkedAt: -1,
    /** Wall-clock time of the first sample shown: x stays monotonic across pause and resume. */
    startedAt: null as number | null,
  }),
  actions: {
    /** Shows another crawl: its series start empty. */
    watch(crawlId: string | null) {
      if (crawlId === this.crawlId) return;
      this.crawlId = crawlId;
      this.latest = null;
      this.series = makeSeries();
      this.topSites = [];
      this.errors = [];
      this.parked = [];
      this.parkedAt = -1;
      this.startedAt = null;
      this.version++;
    },
    ingest(s: StatsEvent) {
      if (s.crawlId !== this.crawlId) return;
      this.startedAt ??= s.at - s.elapsedSeconds * 1000;
      const t = (s.at - this.startedAt) / 1000;
      const x = this.series;
      x.pagesPerSecond.push(t, s.pagesPerSecond);
      x.bytesPerSecond.push(t, s.bytesPerSecond);
      x.openConnections.push(t, s.openConnections);
      x.r.push(t, s.r);
      x.sitesWithPending.push(t, s.sitesWithPending);
      x.queued.push(t, s.queued);
      if (s.pagerankEstimate !== null) x.pagerankVsPages.push(s.pages, s.pagerankEstimate);
      this.latest = s;
      this.version++;
    },
    /** The slower tables: asked for every few seconds, not on every sample. */
    async refreshTables() {
      const id = this.crawlId;
      if (!id) return;
      const api = useApi();
      const [sites, errors] = await Promise.all([
        api.listSites(id, { sort: 'pages_fetched', descending: true, limit: 10 }),
        api.recentErrors(id, 10),
      ]);
      if (id !== this.crawlId) return;
      this.topSites = sites.rows;
      this.errors = errors;
      // Parking is rare and the list needs a scan of skipped pages: only when errors change.
      const errorTotal = this.latest?.errorTotal ?? 0;
      if (errorTotal !== this.parkedAt || this.latest === null) {
        const parked = await api.parkedSites(id, 20);
        if (id !== this.crawlId) return;
        this.parked = parked;
        this.parkedAt = errorTotal;
      }
    },
  },
});
