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
import { connect, type Socket } from 'node:net';
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

/**
 * What the channel bounds, for a local process that connects to a crawl's socket and does not
 * play its part (or a server that hangs): a line past LINE_MAX ends that connection, and past
 * BACKLOG_MAX unread a client's messages (stats, each superseded by the next) are dropped
 * rather than held in the crawl's process. Before, bytes without a newline were kept whole and
 * searched again at each chunk (48 MiB cut a crawl from 120 pages/s to 10), and a client that
 * never read had about 41 MB a day queued.
 */
export const CHANNEL_LIMITS = { lineBytes: 16 * 1024 * 1024, backlogBytes: 8 * 1024 * 1024 };

/** A connection to a runner's channel at `path`, or why there is none (the connect error's code). */
function dial(path: string): Promise<{ socket: Socket } | { code: string | undefined }> {
  return new Promise((resolve) => {
    const s = connect(path);
    s.once('connect', () => {
      s.removeAllListeners('error');
      resolve({ socket: s });
    });
    s.once('error', (err: NodeJS.ErrnoException) => resolve({ code: err.code }));
  });
}

/** A connection to a runner's channel at `path`, or null when nothing listens there. */
export async function connectTo(path: string): Promise<Socket | null> {
  const r = await dial(path);
  return 'socket' in r ? r.socket : null;
}

/** Messages each superseded by the next of its kind: the only ones dropped for a client that does not read. */
const SUPERSEDED = new Set(['stats', 'parallel']);

/** Sends one message as a JSON line (stats and progress dropped for a client with CHANNEL_LIMITS.backlogBytes unread; a state change or the end always sent). */
export function sendLine(socket: Socket, msg: RunnerMessage | ServerMessage): void {
  if (socket.destroyed || !socket.writable) return;
  if (SUPERSEDED.has(msg.t) && socket.writableLength > CHANNEL_LIMITS.backlogBytes) return;
  socket.write(`${JSON.stringify(msg)}\n`);
}

/**
 * Nothing listens at a runner's channel: refused, or its socket file gone. A connection that
 * fails otherwise (a full accept queue: EAGAIN) may be a live runner under load, not stale.
 */
export async function channelGone(path: string): Promise<boolean> {
  const r = await dial(path);
  if ('socket' in r) r.socket.destroy();
  return 'code' in r && (r.code === 'ECONNREFUSED' || r.code === 'ENOENT');
}

/**
 * Calls `onMessage` for each JSON line the socket brings (a line that is not JSON is dropped;
 * one longer than CHANNEL_LIMITS.lineBytes ends the connection). Each chunk is searched once.
 */
export function readLines<T>(socket: Socket, onMessage: (msg: T) => void): void {
  let partial: string[] = [];
  let partialLength = 0;
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    let start = 0;
    let nl: number;
    while ((nl = chunk.indexOf('\n', start)) >= 0) {
      const tail = chunk.slice(start, nl);
      const line = partial.length > 0 ? partial.join('') + tail : tail;
      partial = [];
      partialLength = 0;
      start = nl + 1;
      let msg: T;
      try {
        msg = JSON.parse(line) as T;
      } catch {
        continue;
      }
      onMessage(msg);
      if (socket.destroyed) return;
    }
    if (start === chunk.length) return;
    partial.push(start === 0 ? chunk : chunk.slice(start));
    partialLength += chunk.length - start;
    if (partialLength > CHANNEL_LIMITS.lineBytes) {
      partial = [];
      socket.destroy();
    }
  });
}
