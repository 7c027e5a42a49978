import type { Clock } from '../scheduler/clock.js';

import type { StatsSnapshot } from './stats-report.js';

export type { StatsSnapshot } from './stats-report.js';

const WINDOW_MS = 5000;

/** Rates over a sliding window of a few seconds, so the figures react but do not jitter. */
export class LiveStats {
  private samples: Array<{ t: number; pages: number; bytes: number }> = [];
  private startedAt = 0;
  initialPages = 0;

  constructor(private readonly clock: Clock) {}

  start(pages: number, bytes: number): void {
    this.startedAt = this.clock.now();
    this.initialPages = pages;
    this.samples = [{ t: this.startedAt, pages, bytes }];
  }

  snapshot(now: Omit<StatsSnapshot, 'at' | 'elapsedSeconds' | 'pagesPerSecond' | 'bytesPerSecond' | 'errorTotal' | 'rssBytes'>): StatsSnapshot {
    const t = this.clock.now();
    this.samples.push({ t, pages: now.pages, bytes: now.bytes });
    while (this.samples.length > 2 && t - this.samples[1]!.t >= WINDOW_MS) this.samples.shift();
    const first = this.samples[0]!;
    const dt = (t - first.t) / 1000;
    return {
      ...now,
      at: t,
      elapsedSeconds: (t - this.startedAt) / 1000,
      pagesPerSecond: dt > 0 ? (now.pages - first.pages) / dt : 0,
      bytesPerSecond: dt > 0 ? (now.bytes - first.bytes) / dt : 0,
      errorTotal: Object.values(now.errors).reduce((a, b) => a + b, 0),
      rssBytes: process.memoryUsage.rss(),
    };
  }
}
