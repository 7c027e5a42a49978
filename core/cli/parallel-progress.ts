/**
 * A parallel crawl's figures as the workbench shows them, read from the workers' own crawl
 * databases (NAME.parts/part-I.db, opened read-only beside the worker that writes it): each
 * one's latest timeline sample (its commit about once a second) and its exchange counts (what
 * it sent to and took in from every other part, store/exchange-store.ts).
 */
import { join } from 'node:path';
import type { ExchangeFigures, ExchangePrediction, ParallelProgressEvent, StatsEvent, WorkerProgress } from '../api/contract.js';
import type { ExchangeCount } from '../store/exchange-store.js';
import { readPartFile, type PartSample } from '../store/part-file.js';

export interface WorkerRead {
  progress: WorkerProgress;
  sample: PartSample | null;
}

const none = (): ExchangeFigures => ({ messages: 0, volume: 0, wireBytes: 0 });

function figures(counts: ExchangeCount[], direction: 'sent' | 'received'): ExchangeFigures {
  const out = none();
  for (const c of counts.filter((c) => c.direction === direction)) {
    out.messages += c.messages;
    out.volume += c.urlBytes;
    out.wireBytes += c.wireBytes;
  }
  return out;
}

function readWorker(file: string, part: number): WorkerRead {
  const read = readPartFile(file);
  if (!read) return { progress: { part, pages: 0, pagesPerSecond: 0, queued: 0, sent: none(), received: none() }, sample: null };
  const { sample, counts } = read;
  const mine = counts.filter((c) => c.worker === part);
  const progress = { part, pages: sample?.pages ?? 0, pagesPerSecond: sample?.pages_per_s ?? 0, queued: sample?.queued ?? 0, sent: figures(mine, 'sent'), received: figures(mine, 'received') };
  return { progress, sample };
}

/** Every part's figures (zeros for a part whose file is not there yet). */
export function readWorkers(partsDir: string, parts: number): WorkerRead[] {
  return Array.from({ length: parts }, (_, p) => readWorker(join(partsDir, `part-${p}.db`), p));
}

export function progressEvent(crawlId: string, t0: number, workers: WorkerRead[], prediction: ExchangePrediction | null, note: string | null): ParallelProgressEvent {
  const exchange = none();
  for (const w of workers) {
    exchange.messages += w.progress.sent.messages;
    exchange.volume += w.progress.sent.volume;
    exchange.wireBytes += w.progress.sent.wireBytes;
  }
  return { crawlId, at: Date.now(), seconds: (Date.now() - t0) / 1000, workers: workers.map((w) => w.progress), exchange, prediction, note };
}

/** The crawl's stats, the workers' samples added up (the crawls list and Live's counters read them as a single crawl's). */
export function statsOf(crawlId: string, t0: number, workers: WorkerRead[]): StatsEvent {
  const sum = (f: (s: PartSample) => number) => workers.reduce((n, w) => n + (w.sample ? f(w.sample) : 0), 0);
  const errorTotal = sum((s) => s.errors);
  return {
    crawlId,
    at: Date.now(),
    elapsedSeconds: (Date.now() - t0) / 1000,
    pages: sum((s) => s.pages),
    pagesPerSecond: sum((s) => s.pages_per_s),
    bytes: sum((s) => s.bytes),
    bytesPerSecond: sum((s) => s.bytes_per_s),
    openConnections: sum((s) => s.open_conns),
    r: sum((s) => s.r),
    sitesWithPending: sum((s) => s.sites_pending),
    queued: sum((s) => s.queued),
    // Each worker's errors by code are in its own file until the merge; their sum is counted here.
    errors: {},
    errorTotal,
    pagerankEstimate: null,
    // This process's (the coordinator's); each worker's is its own process's.
    rssBytes: process.memoryUsage().rss,
    crawlSeconds: workers.reduce((n, w) => Math.max(n, w.sample?.t ?? 0), 0),
    historyMatched: null,
  };
}
