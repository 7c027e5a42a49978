/**
 * The Partition view's partitionings, computed in the engine (partitionCrawl: gpmetis, Zoltan
 * PHG and, where installed, KaHyPar as child processes beside hashing): the window waits for the report and follows the
 * engine's progress events for its job, so nothing here can freeze the UI. Cancel kills the
 * partitioner under way. The last report of each crawl is kept, so coming back shows it at once;
 * graph files written for download are kept per crawl too.
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { GraphExportDto, GraphFormat, GraphModel, PartitionProgressEvent, PartitionReport } from '../../core/api/contract.js';
import { useApi } from '../api/instance.js';
import { asyncActions } from '../lib/async-action.js';
import { graphExportRefusal, partitionRefusal } from '../lib/request-errors.js';

export type PartitionActionKey = `partition:${string}` | `export:${string}`;

export interface PartitionChoice {
  models: GraphModel[];
  parts: number[];
  runs: number;
}

export const usePartitionStore = defineStore('partition', () => {
  const { run, status } = asyncActions<PartitionActionKey>();
  /** The last report of each crawl. */
  const reports = ref<Record<string, PartitionReport>>({});
  /** Progress of the job under way (its crawl, done of total, the last step); null when none is. */
  const progress = ref<(Pick<PartitionProgressEvent, 'done' | 'total' | 'step'> & { crawlId: string }) | null>(null);
  /** Graph files written, per crawl, newest first. */
  const files = ref<Record<string, GraphExportDto[]>>({});
  let job: string | null = null;
  let jobs = 0;

  async function partition(crawlId: string, choice: PartitionChoice): Promise<void> {
    // Checked with the engine's schema first: a refusal shows as the engine's would, nothing sent.
    const refused = partitionRefusal(choice);
    if (refused) return void (await run(`partition:${crawlId}`, () => Promise.reject(refused)));
    await cancel();
    const id = `ui-${Date.now().toString(36)}-${++jobs}`;
    job = id;
    progress.value = { crawlId, done: 0, total: 0, step: 'reading the graph' };
    const api = useApi();
    const off = api.onPartitionProgress((e) => {
      if (e.jobId === id) progress.value = { crawlId, done: e.done, total: e.total, step: e.step };
    });
    try {
      const out = await run(`partition:${crawlId}`, () => api.partitionCrawl(crawlId, { jobId: id, ...choice }));
      if (out.ok) reports.value[crawlId] = out.value;
    } finally {
      off();
      if (job === id) {
        job = null;
        progress.value = null;
      }
    }
  }

  /** Cancels the partitioning under way (it then ends with CRAWL_CANCELLED, kept as its error). */
  async function cancel(): Promise<void> {
    if (job) await useApi().cancelPartition(job);
  }

  async function exportGraph(crawlId: string, model: GraphModel, format: GraphFormat): Promise<void> {
    const refused = graphExportRefusal({ model, format });
    if (refused) return void (await run(`export:${crawlId}`, () => Promise.reject(refused)));
    const out = await run(`export:${crawlId}`, () => useApi().exportGraph(crawlId, { model, format }));
    if (!out.ok) return;
    const kept = (files.value[crawlId] ?? []).filter((f) => f.model !== model || f.format !== format);
    files.value[crawlId] = [out.value, ...kept];
  }

  const running = () => job !== null;

  return { ...status, reports, progress, files, partition, cancel, exportGraph, running };
});
