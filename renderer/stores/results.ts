/**
 * The Results view's PageRank and evaluation of each crawl, computed in the engine
 * (runPageRank, runEvaluation, in a worker thread there) while the window follows their
 * analysisProgress events; Cancel stops them (cancelAnalysis). The
 * stored PageRank runs are read back at once (pageRankResult) so that a crawl ranked before
 * shows its figures without recomputing; the last evaluation of each crawl is kept for the
 * session, so coming back to the view shows it again.
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { AnalysisProgressEvent, EvaluationDto, EvaluationRequest, PageRankResultDto, StoredPageRankDto } from '../../core/api/contract.js';
import { useApi } from '../api/instance.js';
import { asyncActions } from '../lib/async-action.js';

export type ResultsActionKey = `load:${string}` | `rank:${string}` | `evaluate:${string}`;

export type ResultsProgress = Pick<AnalysisProgressEvent, 'what' | 'fraction' | 'step'>;

export const useResultsStore = defineStore('results', () => {
  const { run, status } = asyncActions<ResultsActionKey>();
  /** The latest stored PageRank runs of each crawl read so far (null: none stored). */
  const stored = ref<Record<string, StoredPageRankDto | null>>({});
  /** The PageRank computed in this window, with its times (a stored run has none). */
  const computed = ref<Record<string, PageRankResultDto>>({});
  /** The last evaluation of each crawl. */
  const evaluations = ref<Record<string, EvaluationDto>>({});
  /** The computation under way for each crawl, as its last progress event told. */
  const progress = ref<Record<string, ResultsProgress>>({});

  /** Reads the crawl's stored PageRank runs (computes nothing). */
  async function load(crawlId: string): Promise<void> {
    const out = await run(`load:${crawlId}`, () => useApi().pageRankResult(crawlId));
    if (out.ok && !out.stale) stored.value[crawlId] = out.value;
  }

  /** Runs one computation of a crawl, following its progress events until it ends. */
  async function follow<T>(crawlId: string, what: AnalysisProgressEvent['what'], key: ResultsActionKey, firstStep: string, fn: () => Promise<T>) {
    const api = useApi();
    progress.value[crawlId] = { what, fraction: 0, step: firstStep };
    const off = api.onAnalysisProgress((e) => {
      if (e.crawlId === crawlId && e.what === what) progress.value[crawlId] = { what, fraction: e.fraction, step: e.step };
    });
    try {
      return await run(key, fn);
    } finally {
      off();
      delete progress.value[crawlId];
    }
  }

  /** Computes and stores the crawl's PageRank (page and site graphs), then reads the stored runs back. */
  async function computePageRank(crawlId: string): Promise<void> {
    const out = await follow(crawlId, 'pagerank', `rank:${crawlId}`, 'reading the link graph', () => useApi().runPageRank(crawlId));
    if (!out.ok) return;
    computed.value[crawlId] = out.value;
    await load(crawlId);
  }

  /**
   * Evaluates the crawl's fetch order against the request's measure: PageRank (the stored run, or
   * one computed for it now) unless it names one of Cho et al.'s.
   */
  async function evaluate(crawlId: string, req: EvaluationRequest = {}): Promise<void> {
    const pagerank = (req.measure ?? 'pagerank') === 'pagerank' && req.damping === undefined;
    const first = !pagerank ? `computing ${req.measure ?? 'pagerank'}` : stored.value[crawlId] ? 'reading the pages in fetch order' : 'computing PageRank (none is stored), then evaluating';
    const out = await follow(crawlId, 'evaluation', `evaluate:${crawlId}`, first, () => useApi().runEvaluation(crawlId, req));
    if (out.ok) evaluations.value[crawlId] = out.value;
  }

  /** Cancels the crawl's computation under way (it then ends with CRAWL_CANCELLED, kept as its error). */
  async function cancel(crawlId: string): Promise<void> {
    await useApi().cancelAnalysis(crawlId);
  }

  const busy = (crawlId: string) => progress.value[crawlId] !== undefined;

  return { ...status, stored, computed, evaluations, progress, load, computePageRank, evaluate, cancel, busy };
});
