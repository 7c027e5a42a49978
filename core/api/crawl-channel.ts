/**
 * The channel between the workbench's server and a crawl's own process (crawl-runner.ts):
 * JSON lines over a local socket (a Unix socket, a named pipe on Windows), so that a server
 * started again after a crash can connect to a crawl that went on without it.
 *
 * Where a crawl's process is found: `NAME.db.runner` beside the crawl file holds its pid and
 * socket path while it runs (removed when it ends).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CrawlStatus, ParallelProgressEvent, StatsEvent } from './contract.js';

/**
 * What a crawl's process says: on connect (hello), each stats sample (a parallel crawl's
 * workers too), a change of state, the end. A crawl's process announces itself 'starting',
 * before it opens the crawl, and says 'running' once the crawl is open (crawl-runner.ts).
 */
export type RunnerMessage =
  | { t: 'hello'; status: RunnerStatus; last: StatsEvent | null }
  | { t: 'stats'; data: StatsEvent }
  | { t: 'parallel'; data: ParallelProgressEvent }
  | { t: 'state'; status: Exclude<RunnerStatus, 'starting'> }
  | { t: 'ended'; status: CrawlStatus; reason: string };

/** A crawl's process: opening the crawl, crawling, or ending its run (pause or stop asked). */
export type RunnerStatus = 'starting' | 'running' | 'pausing';

/** What the server asks of it. */
export type ServerMessage = { t: 'pause' } | { t: 'stop' };

export interface RunnerFile {
  pid: number;
  socket: string;
  startedAt: string;
  /**
   * The runner's status when it wrote the file: 'starting' (crawl-runner.ts, before it opens the
   * crawl, when its thread may be busy opening it for minutes: its hello comes once it is open),
   * or 'running' (absent in files of earlier versions).
   */
  status?: RunnerStatus;
}

export const runnerFile = (dbPath: string): string => `${dbPath}.runner`;

/** A short socket path for a crawl file (Unix socket paths are limited to about 100 bytes). */
export function socketPath(dbPath: string): string {
  const hash = createHash('sha1').update(dbPath).digest('hex').slice(0, 16);
  return process.platform === 'win32' ? `\\\\.\\pipe\\crawlbench-${hash}` : join(tmpdir(), `crawlbench-${hash}.sock`);
}

export function readRunnerFile(dbPath: string): RunnerFile | null {
  const file = runnerFile(dbPath);
  if (!existsSync(file)) return null;
  try {
    const r = JSON.parse(readFileSync(file, 'utf8')) as RunnerFile;
    return typeof r.pid === 'number' && typeof r.socket === 'string' ? r : null;
  } catch {
    return null;
  }
}

/** Sends one message as a JSON line. */
export function sendLine(socket: Socket, msg: RunnerMessage | ServerMessage): void {
  if (!socket.destroyed && socket.writable) socket.write(`${JSON.stringify(msg)}\n`);
}

/** Calls `onMessage` for each JSON line the socket brings (a line that is not JSON is dropped). */
export function readLines<T>(socket: Socket, onMessage: (msg: T) => void): void {
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      let msg: T;
      try {
        msg = JSON.parse(line) as T;
      } catch {
        continue;
      }
      onMessage(msg);
    }
  });
}
