/**
 * The Compare view's comparison of two crawls, computed in the engine (compareCrawls): the
 * window only waits for the report, following the engine's progress events for its job, so
 * nothing here can freeze the UI. A comparison can be cancelled (Cancel, or leaving the view);
 * the report of the pair shown last is kept, so coming back to it is instant.
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { CompareProgressEvent, CompareReport } from '../../core/api/contract.js';
import { useApi } from '../api/instance.js';
import { asyncActions } from '../lib/async-action.js';
import { compareRefusal } from '../lib/request-errors.js';

/** Risers, fallers and added, removed, changed pages the view lists (the per-site table has every site). */
export const COMPARE_TOP = 100;

export const useCompareStore = defineStore('compare', () => {
  const { run, status } = asyncActions<'compare'>();
  /** The pair asked for last (A, B) and its report once it came. */
  const pair = ref<{ a: string; b: string } | null>(null);
  const report = ref<CompareReport | null>(null);
  /** The engine's last progress event of the job under way; null when none is. */
  const progress = ref<Pick<CompareProgressEvent, 'step' | 'fraction'> | null>(null);
  let job: string | null = null;
  let jobs = 0;

  /** Compares B with A (again, when `fresh`); a report of the same pair is reused. */
  async function compare(a: string, b: string, fresh = false): Promise<void> {
    if (!fresh && pair.value?.a === a && pair.value.b === b && (report.value || job)) return;
    await cancel();
    pair.value = { a, b };
    report.value = null;
    const id = `ui-${Date.now().toString(36)}-${++jobs}`;
    job = id;
    progress.value = { step: 'starting', fraction: 0 };
    const api = useApi();
    const off = api.onCompareProgress((e) => {
      if (e.jobId === id) progress.value = { step: e.step, fraction: e.fraction };
    });
    try {
      // Checked with the engine's schema first: a refusal shows as the engine's would, nothing sent.
      const opts = { jobId: id, top: COMPARE_TOP };
      const refused = compareRefusal(opts);
      const out = await run('compare', () => (refused ? Promise.reject(refused) : api.compareCrawls(a, b, opts)));
      if (job !== id) return;
      if (out.ok) report.value = out.value;
    } finally {
      off();
      if (job === id) {
        job = null;
        progress.value = null;
      }
    }
  }

  /** Cancels the comparison under way (it then ends with CRAWL_CANCELLED, kept as `compare`'s error). */
  async function cancel(): Promise<void> {
    if (job) await useApi().cancelCompare(job);
  }

  const running = () => job !== null;

  return { ...status, pair, report, progress, compare, cancel, running };
});
