/**
 * Live statistics of the selected crawl. The charts start from the crawl's stored timeline
 * (its whole history, x = the crawl's own running time from 0, so a reopened or reloaded
 * crawl shows everything), then follow its live events. Every series is a BoundedSeries:
 * however long the crawl runs, the renderer holds at most a few hundred points per chart.
 */
import { defineStore } from 'pinia';
import { markRaw, ref, shallowRef } from 'vue';
import type { CrawlSettingsDto, ParkedSiteDto, RecentError, SiteRowDto, StatsEvent, Unsubscribe } from '../../core/api/contract.js';
import { useApi } from '../api/instance.js';
import { asyncActions } from '../lib/async-action.js';
import { LiveSeries, SERIES_MAX } from '../lib/live-series.js';

export { SERIES_MAX };

/** markRaw: Vue must not make thousands of points reactive; `version` triggers redraws. */
const makeSeries = () => markRaw(new LiveSeries());

/** The settings of crawl `id` into `into`, unless another crawl is shown by the time they come. */
async function settingsOf(id: string, run: ReturnType<typeof asyncActions<'settings'>>['run'], shown: () => string | null, into: { value: CrawlSettingsDto | null }) {
  const out = await run('settings', () => useApi().crawlSettings(id));
  if (out.ok && id === shown()) into.value = out.value;
}

type Run = ReturnType<typeof asyncActions<'tables' | 'parked'>>['run'];

/** Crawl `id`'s top sites and recent errors into `top` and `errors`, unless stale (a newer ask, or another crawl shown) by the time they come. */
async function tablesOf(id: string, run: Run, shown: () => string | null, top: { value: SiteRowDto[] }, errors: { value: RecentError[] }): Promise<boolean> {
  const api = useApi();
  const out = await run('tables', () => Promise.all([api.listSites(id, { sort: 'pages_fetched', descending: true, limit: 10 }), api.recentErrors(id, 10)]));
  if (!out.ok || out.stale || id !== shown()) return false;
  [{ rows: top.value }, errors.value] = out.value;
  return true;
}

/** Crawl `id`'s parked sites into `into`, unless stale by the time they come; whether they came. */
async function parkedOf(id: string, run: Run, shown: () => string | null, into: { value: ParkedSiteDto[] }): Promise<boolean> {
  const p = await run('parked', () => useApi().parkedSites(id, 20));
  if (!p.ok || p.stale || id !== shown()) return false;
  into.value = p.value;
  return true;
}

export const useLiveStore = defineStore('live', () => {
  const { run, status } = asyncActions<'tables' | 'parked' | 'timeline' | 'settings'>();
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
  /** Final refreshes asked, and met (parked sites asked after them came): a later refresh that supersedes one asks for them. */
  const finals = { asked: 0, met: 0 };
  /** False for a crawl made before crawlbench kept timelines (its charts start empty); null until known. */
  const timelineStored = ref<boolean | null>(null);
  /** The settings the crawl was made with (Live shows them); null until loaded. */
  const settings = ref<CrawlSettingsDto | null>(null);

  /** Shows another crawl: its series start empty. `again`: the same crawl anew (its settings and timeline asked again). */
  function watch(id: string | null, again = false) {
    if (id === crawlId.value && !again) return;
    crawlId.value = id;
    latest.value = null;
    series.value = makeSeries();
    [topSites.value, errors.value, parked.value, parkedAt.value, finals.met] = [[], [], [], -1, finals.asked];
    timelineStored.value = null;
    settings.value = null;
    version.value++;
    if (id) void Promise.all([loadTimeline(id), settingsOf(id, run, () => crawlId.value, settings)]);
  }

  /** The crawl's history from its start, then whatever arrived live meanwhile. */
  async function loadTimeline(id: string) {
    const out = await run('timeline', () => useApi().timeline(id, SERIES_MAX * 2));
    if (id !== crawlId.value) return;
    if (out.ok) timelineStored.value = out.value.stored;
    series.value.loaded(out.ok ? out.value.points : []);
    version.value++;
  }

  function ingest(s: StatsEvent) {
    if (s.crawlId !== crawlId.value) return;
    latest.value = s;
    series.value.feed(s);
    version.value++;
  }

  /** Feeds every stats event to `ingest` (events of crawls not shown are dropped there). */
  function subscribe(): Unsubscribe {
    return useApi().onStats(ingest);
  }

  /**
   * The slower tables: asked for every few seconds, not on every sample. `final`: the run has
   * just ended, so everything is asked again at once (parked sites too), as its stored final state.
   */
  async function refreshTables(final = false) {
    const id = crawlId.value;
    if (!id) return;
    // The periodic refresh may start while the final one waits for its answers, making it
    // stale: the parked sites it owed are then asked by the newer one (their skipped pages grow
    // without the error count moving, so that count alone would not ask again).
    if (final) finals.asked++;
    // An answer to an older ask (one made before the run ended) must not overwrite a newer one.
    const shown = () => crawlId.value;
    if (!(await tablesOf(id, run, shown, topSites, errors))) return;
    // Parking is rare and the list needs a scan of skipped pages: only when errors change.
    const errorTotal = latest.value?.errorTotal ?? 0;
    if (finals.asked > finals.met || errorTotal !== parkedAt.value || latest.value === null) {
      const asked = finals.asked;
      if (!(await parkedOf(id, run, shown, parked))) return;
      parkedAt.value = errorTotal;
      finals.met = Math.max(finals.met, asked);
    }
  }

  return { ...status, crawlId, latest, series, version, topSites, errors, parked, parkedAt, timelineStored, settings, watch, ingest, subscribe, refreshTables };
});
