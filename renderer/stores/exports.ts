/**
 * Exports of crawls, started from the Export dialog: each export's progress as the engine
 * reports it (exportProgress events), its files once finished, and the actions that start
 * and cancel one. Errors of a start are kept per crawl ('start:<crawl>'), so the dialog shows
 * them at its fields; a cancel's per export.
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { ExportJobDto, ExportRequest, Unsubscribe } from '../../core/api/contract.js';
import { useApi } from '../api/instance.js';
import { asyncActions } from '../lib/async-action.js';
import { exportRefusal } from '../lib/request-errors.js';

export type ExportActionKey = `${'start' | 'list'}:${string}` | `cancel:${string}`;

export const useExportsStore = defineStore('exports', () => {
  const { run, status } = asyncActions<ExportActionKey>();
  /** Every export seen, by id (newest state wins). */
  const jobs = ref<Record<string, ExportJobDto>>({});

  function apply(e: ExportJobDto): void {
    jobs.value[e.exportId] = e;
  }

  /** Follows every export's progress; call once (App.vue) and keep the function that stops it. */
  function subscribe(): Unsubscribe {
    return useApi().onExportProgress(apply);
  }

  /** A crawl's exports, newest first. */
  function ofCrawl(crawlId: string): ExportJobDto[] {
    return Object.values(jobs.value)
      .filter((j) => j.crawlId === crawlId)
      .sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  }

  async function load(crawlId: string): Promise<void> {
    const out = await run(`list:${crawlId}`, () => useApi().listExports(crawlId));
    if (out.ok) for (const j of out.value) if (!jobs.value[j.exportId] || jobs.value[j.exportId]!.state === 'running') apply(j);
  }

  /** Starts an export; its id, or null when it was refused (the error is `start:<crawl>`). */
  async function start(crawlId: string, req: ExportRequest): Promise<string | null> {
    // Checked with the engine's schema first: a refusal shows at its field as the engine's would, nothing sent.
    const refused = exportRefusal({ ...req });
    if (refused) {
      await run(`start:${crawlId}`, () => Promise.reject(refused));
      return null;
    }
    const out = await run(`start:${crawlId}`, () => useApi().startExport(crawlId, req));
    if (!out.ok) return null;
    const id = out.value.exportId;
    // Events may have come before the answer; if none did, show it as started.
    if (!jobs.value[id]) {
      apply({
        exportId: id, crawlId, format: req.format, what: req.what ?? 'pages', state: 'running', done: 0, total: 0,
        unit: req.format === 'warc' ? 'pages' : (req.what ?? 'pages'), bytesWritten: 0, etaSeconds: null,
        startedAt: new Date().toISOString(), endedAt: null, files: [], warnings: [], error: null,
      });
    }
    return id;
  }

  async function cancel(exportId: string): Promise<void> {
    const out = await run(`cancel:${exportId}`, () => useApi().cancelExport(exportId));
    if (out.ok) apply(out.value);
  }

  return { ...status, jobs, apply, subscribe, ofCrawl, load, start, cancel };
});
