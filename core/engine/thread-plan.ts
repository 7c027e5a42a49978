import { availableParallelism } from 'node:os';

/**
 * The threads a crawl process runs beside its crawl thread, from its share of the machine's
 * cores: `cores` (default: all of them) divided among the crawls that run on it at once
 * (`crawls`: a parallel crawl's K workers).
 *
 * - The writer thread (store-writer.ts) always: its SQLite work is a fifth of what the crawl
 *   thread did, and no more CPU in all than writing inline (bench/throughput).
 * - One parse thread (parse-pool.ts) when the share is two cores or more: it takes decoding,
 *   hashing and link extraction, about 40% of the crawl thread's time, at no more CPU in all;
 *   on less than two cores it would only compete with the crawl thread. One is enough: it
 *   parses a page in less time than the crawl thread spends on the rest of it, so a second
 *   would wait.
 *
 * CRAWLBENCH_WRITER=0 and CRAWLBENCH_PARSE_THREADS=N override this, for measuring one
 * without the other (docs/performance.md).
 */
export interface ThreadPlan {
  writer: boolean;
  parseThreads: number;
}

export function threadPlan(crawls = 1, cores = availableParallelism(), env: NodeJS.ProcessEnv = process.env): ThreadPlan {
  const share = cores / Math.max(1, crawls);
  const forced = env.CRAWLBENCH_PARSE_THREADS;
  const parseThreads = forced !== undefined && /^\d+$/.test(forced) ? Math.min(Number(forced), 16) : share >= 2 ? 1 : 0;
  return { writer: env.CRAWLBENCH_WRITER !== '0', parseThreads };
}
