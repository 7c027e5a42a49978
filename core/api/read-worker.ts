/**
 * The body of a read worker thread (read-pool.ts starts a few and keeps them): answers the
 * Sites and Pages views' reads (crawl-reads.ts) one at a time, so that the thread serving the
 * workbench's calls only passes messages while SQLite sorts 50,000 sites or scans a page
 * search. Holds no crawl file open between reads.
 */
import { parentPort } from 'node:worker_threads';
import { runCrawlRead, toReadError, type CrawlRead, type ReadError } from './crawl-reads.js';

export interface ReadWorkerRequest {
  id: number;
  read: CrawlRead;
}

export type ReadWorkerAnswer = { id: number; result: unknown } | { id: number; error: ReadError };

parentPort!.on('message', ({ id, read }: ReadWorkerRequest) => {
  let answer: ReadWorkerAnswer;
  try {
    answer = { id, result: runCrawlRead(read) };
  } catch (err) {
    answer = { id, error: toReadError(err) };
  }
  parentPort!.postMessage(answer);
});
