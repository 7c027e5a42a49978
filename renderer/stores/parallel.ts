/**
 * Parallel crawls in the workbench (issue 25): New crawl's "parallel: K workers" choice and its
 * creation (createParallelCrawl, the choice checked with the engine's schema first), and for the
 * crawl Live shows, its options and each worker's throughput and the link exchange against
 * partition-eval's prediction as they come (parallelProgress events), in bounded series.
 */
import { defineStore } from 'pinia';
import { markRaw, reactive, ref, shallowRef } from 'vue';
import type { CrawlInfo, CreateCrawlRequest, ParallelCrawlDto, ParallelOptions, ParallelProgressEvent, Unsubscribe } from '../../core/api/contract.js';
import { useApi } from '../api/instance.js';
import { blankParallelForm, parallelFormErrors, parallelOptionsOf } from '../composables/parallel-options.js';
import { asyncActions } from '../lib/async-action.js';
import { BoundedSeries } from '../lib/bounded-series.js';
import { useCrawlsStore } from './crawls.js';

/** A line of LineChart.vue. */
type ChartLine = { name: string; data: Array<[number, number]>; reference?: boolean };

/** Per worker its pages/s; and the exchange's messages measured so far. */
interface Series {
  workers: BoundedSeries[];
  messages: BoundedSeries;
}
const makeSeries = (): Series => markRaw({ workers: [], messages: new BoundedSeries() });

export const useParallelStore = defineStore('parallel', () => {
  const { run, status } = asyncActions<'create' | 'load'>();
  const form = reactive(blankParallelForm());
  /** The form's refusals by field, from the last Create. */
  const errors = ref<Record<string, string>>({});
  const shown = ref<ParallelCrawlDto | null>(null);
  let shownId: string | null = null;
  const series = shallowRef(makeSeries());
  /** Bumped on every event so charts know to redraw. */
  const version = ref(0);

  /** The new parallel crawl, or null (the form's refusals in `errors`, the engine's as `create`'s error). */
  async function create(req: CreateCrawlRequest): Promise<CrawlInfo | null> {
    errors.value = parallelFormErrors(form);
    if (Object.keys(errors.value).length > 0) return null;
    const out = await run('create', () => useApi().createParallelCrawl({ ...req, parallel: parallelOptionsOf(form) as unknown as ParallelOptions }));
    if (!out.ok) return null;
    await useCrawlsStore().refresh();
    return out.value;
  }

  function ingest(e: ParallelProgressEvent): void {
    if (e.crawlId !== shownId || !shown.value) return;
    shown.value = { ...shown.value, progress: e };
    const s = series.value;
    e.workers.forEach((w, i) => (s.workers[i] ??= new BoundedSeries()).push(e.seconds, w.pagesPerSecond));
    s.messages.push(e.seconds, e.exchange.messages);
    version.value++;
  }

  /** Follows crawl `id` (null: none): its options and latest figures, then its events. */
  async function watch(id: string | null): Promise<void> {
    shownId = id;
    shown.value = null;
    series.value = makeSeries();
    if (!id) return;
    const out = await run('load', () => useApi().parallelCrawl(id));
    if (!out.ok || out.stale || id !== shownId) return;
    shown.value = out.value;
    if (out.value?.progress) ingest(out.value.progress);
  }

  function subscribe(): Unsubscribe {
    return useApi().onParallelProgress(ingest);
  }

  const workerLines = (): ChartLine[] => series.value.workers.map((w, i) => ({ name: `worker ${i}`, data: w.data() }));
  /** The messages measured, and the prediction for the whole crawl as a dashed line. */
  function exchangeLines(): ChartLine[] {
    const measured = series.value.messages.data();
    const lines: ChartLine[] = [{ name: 'messages measured', data: measured }];
    const p = shown.value?.progress?.prediction;
    const end = measured[measured.length - 1]?.[0] ?? 0;
    if (p) lines.push({ name: `predicted on ${p.crawl}`, reference: true, data: [[0, p.messages], [end, p.messages]] });
    return lines;
  }

  return { ...status, form, errors, shown, version, create, watch, ingest, subscribe, workerLines, exchangeLines };
});
