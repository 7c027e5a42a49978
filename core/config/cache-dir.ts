/**
 * crawlbench's cache folder: what it builds or fetches once and keeps between runs (the Zoltan
 * driver it compiles, a KaHyPar the test tools' setup builds, datasets the tests read).
 * CRAWLBENCH_CACHE when set, else ~/.cache/crawlbench.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export function cacheDir(): string {
  const env = process.env.CRAWLBENCH_CACHE;
  return env ? resolve(env) : join(homedir(), '.cache', 'crawlbench');
}
