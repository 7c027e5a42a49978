import { hash, lognormalAt, unit } from '../random.js';
import type { MeasuredSite } from './sim-graph.js';

/** How one simulated server behaves. Times in ms, rates in bytes per second. */
export interface ServerModel {
  /** Opening a connection (TCP handshake). */
  connectMs: number;
  /** From sending a request to the first byte of its response. */
  latencyMs: number;
  /** The server's own transfer rate (Infinity: only the crawler's bandwidth limits it). */
  bytesPerSec: number;
  /** Requests the server allows over one keep-alive connection. */
  keepAliveMax: number;
}

/**
 * Distributions of the simulated network, chosen to match docs/design.md section 5.3 (the thesis's
 * measurements on the Chilean web): per site, lognormal latency (median 90 ms, a heavy tail
 * capped at 30 s, the crawler's headers timeout) and transfer rate (median 100 KB/s); per
 * page, lognormal size (median 7 KB, mean about 10 KB). Then 90% of pages take under 1.5 s,
 * 96% under 3 s, and latency exceeds transfer time for most pages (test/simulator/network.test.ts
 * checks all three). Keep-alive as on the test
 * web: two thirds of servers allow 100 requests per connection, a quarter only 1.
 */
export const NETWORK = {
  latencyMedianMs: 90,
  latencySigma: 1.9,
  maxLatencyMs: 30_000,
  rateMedian: 100_000,
  rateSigma: 1.2,
  sizeMedian: 7_000,
  sizeSigma: 0.9,
  maxSize: 2_000_000,
} as const;

const S_LATENCY = 41;
const S_RATE = 42;
const S_KEEPALIVE = 43;
const S_SIZE = 44;

export interface NetworkOptions {
  /** false: every latency 0 and every rate infinite (order-only simulation). */
  latency: boolean;
  /** Seed of the draws: the same seed gives the same servers and page sizes. */
  seed: number;
}

/** The model of site `s`: measured by a real crawl where it has figures, else drawn. */
export function serverModel(opts: NetworkOptions, s: number, measured: MeasuredSite | null = null): ServerModel {
  const h = (k: number) => hash(opts.seed, s, S_KEEPALIVE, k);
  const ka = unit(h(1));
  const keepAliveMax = measured?.requestsPerConn
    ? Math.max(1, Math.round(measured.requestsPerConn))
    : ka < 2 / 3 ? 100 : ka < 2 / 3 + 1 / 4 ? 1 : 2 + (h(2) % 19);
  if (!opts.latency) return { connectMs: 0, latencyMs: 0, bytesPerSec: Infinity, keepAliveMax };
  const latencyMs =
    measured?.responseMs ??
    Math.min(NETWORK.maxLatencyMs, lognormalAt(hash(opts.seed, s, S_LATENCY, 1), hash(opts.seed, s, S_LATENCY, 2), NETWORK.latencyMedianMs, NETWORK.latencySigma));
  const connectMs = measured?.connectMs ?? latencyMs / 2;
  const bytesPerSec = lognormalAt(hash(opts.seed, s, S_RATE, 1), hash(opts.seed, s, S_RATE, 2), NETWORK.rateMedian, NETWORK.rateSigma);
  return { connectMs, latencyMs, bytesPerSec, keepAliveMax };
}

/** Size of page `v` in bytes: from the source where known, else drawn (lognormal). */
export function pageSize(opts: NetworkOptions, v: number, known?: number): number {
  if (known !== undefined && Number.isFinite(known)) return known;
  const x = lognormalAt(hash(opts.seed, v, S_SIZE, 1), hash(opts.seed, v, S_SIZE, 2), NETWORK.sizeMedian, NETWORK.sizeSigma);
  return Math.round(Math.min(NETWORK.maxSize, Math.max(200, x)));
}
