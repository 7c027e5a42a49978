import { availableParallelism } from 'node:os';

/**
 * The threads a crawl process runs beside its crawl thread, from its share of the machine's
 * cores: `cores` (default: all of them) divided among the crawls that run on it at once
 * (`crawls`: a parallel crawl's K workers). Measured on bench/throughput (docs/performance.md,
 * 2 cores, the test web's server on them too):
 *
 * - One parse thread (parse-pool.ts) from a share of two cores: it takes decoding, hashing and
 *   link extraction, 40% of the crawl thread's time, and the crawl's CPU in all went down
 *   (its garbage is collected on the parse thread's small heap); on less than two cores it
 *   would only take turns with the crawl thread. One is enough: it parses a page in less time
 *   than the crawl thread spends on the rest of it, so a second would wait.
 * - The writer thread (store-writer.ts) from three: it takes the SQLite writes, another 15% of
 *   the crawl thread's time, but costs 5-10% more CPU in all (each write is written into a
 *   batch and read back on the other side) and 30-50 MB of RSS; on two cores, shared with a
 *   parse thread, that CPU is what the crawl waits for.
 *
 * CRAWLBENCH_WRITER=0|1 and CRAWLBENCH_PARSE_THREADS=N override this, for measuring one
 * without the other.
 */
export interface ThreadPlan {
  writer: boolean;
  parseThreads: number;
}

export function threadPlan(crawls = 1, cores = availableParallelism(), env: NodeJS.ProcessEnv = process.env): ThreadPlan {
  const share = cores / Math.max(1, crawls);
  const threads = env.CRAWLBENCH_PARSE_THREADS;
  const parseThreads = threads !== undefined && /^\d+$/.test(threads) ? Math.min(Number(threads), 16) : share >= 2 ? 1 : 0;
  const writer = env.CRAWLBENCH_WRITER === '1' ? true : env.CRAWLBENCH_WRITER === '0' ? false : share >= 3;
  return { writer, parseThreads };
}
