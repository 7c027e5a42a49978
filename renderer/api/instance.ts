/** The one API object of this window, set at start-up (or by a test) and used by the stores. */
import type { CrawlbenchApi } from '../../core/api/contract.js';

let current: CrawlbenchApi | null = null;

export function provideApi(api: CrawlbenchApi): void {
  current = api;
}

export function useApi(): CrawlbenchApi {
  if (!current) throw new Error('crawlbench API not connected');
  return current;
}
