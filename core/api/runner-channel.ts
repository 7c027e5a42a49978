/**
 * A crawl process's side of its channel to the workbench's servers (crawl-channel.ts), for a
 * runner that is not crawl-runner.ts (cli/parallel-runner.ts): the socket every server connects
 * to, its hello (state and last stats), the messages sent to all of them, pause and stop taken
 * from any, the NAME.db.runner file that names it while it runs, and the end said to all.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import type { StatsEvent } from './contract.js';
import { CrawlError, ErrorCodes } from '../errors.js';
import { processAlive } from '../process-alive.js';
import { channelGone, readLines, readRunnerFile, runnerFile, sendLine, socketPath, type RunnerFile, type RunnerMessage, type RunnerStatus, type ServerMessage } from './crawl-channel.js';

export interface RunnerChannel {
  /** To every server connected (a stats sample is also the next hello's). */
  send(m: RunnerMessage): void;
  /** Pause or stop, as a server asks: said once as 'pausing', handed to the runner. */
  slowDown(how: 'pause' | 'stop'): void;
  /** A channel opened 'starting': the crawl is open, said to all as 'running' (unless pausing already). */
  ready(): void;
  /** The runner file goes first (a server connecting from now on finds no running crawl), then the end to all. */
  close(end: Extract<RunnerMessage, { t: 'ended' }>): Promise<void>;
}

/**
 * `status`: 'starting' for a runner that announces itself before it opens its crawl (then
 * ready() once it is open), so that a server waits for the open as long as it takes.
 */
export async function openRunnerChannel(dbPath: string, onSlowDown: (how: 'pause' | 'stop') => void, initial: RunnerStatus = 'running'): Promise<RunnerChannel> {
  const clients = new Set<Socket>();
  let status: RunnerStatus = initial;
  let last: StatsEvent | null = null;
  const send = (m: RunnerMessage) => {
    if (m.t === 'stats') last = m.data;
    clients.forEach((s) => sendLine(s, m));
  };
  const slowDown = (how: 'pause' | 'stop') => {
    if (status !== 'pausing') {
      status = 'pausing';
      send({ t: 'state', status: 'pausing' });
    }
    onSlowDown(how);
  };
  const server = createServer((sock) => {
    clients.add(sock);
    sock.on('error', () => sock.destroy());
    sock.on('close', () => clients.delete(sock));
    readLines<ServerMessage>(sock, (m) => {
      if (m?.t === 'pause' || m?.t === 'stop') slowDown(m.t);
    });
    sendLine(sock, { t: 'hello', status, last });
  });
  // Another process's crawl of this file, running: its channel and runner file are left alone
  // (this process has not the crawl's lock yet; it would fail on it, having cut that crawl off
  // from every server).
  // One whose process id lives on but whose channel answers nothing is another program that
  // took the id after a reboot or a kill -9: before, it held the crawl from starting for good.
  const other = readRunnerFile(dbPath);
  if (other !== null && other.pid !== process.pid && processAlive(other.pid)) {
    if (!(await channelGone(other.socket))) throw new CrawlError(ErrorCodes.DB_LOCKED, `this crawl already runs in process ${other.pid}`);
  }
  const path = socketPath(dbPath);
  if (process.platform !== 'win32') rmSync(path, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  const file = runnerFile(dbPath);
  const startedAt = new Date().toISOString();
  // Whole or not at all (a server reads it at any moment): written beside, then renamed.
  const announce = (s: RunnerStatus) => {
    writeFileSync(`${file}.tmp`, JSON.stringify({ pid: process.pid, socket: path, startedAt, status: s } satisfies RunnerFile));
    renameSync(`${file}.tmp`, file);
  };
  announce(initial);
  return {
    send,
    slowDown,
    ready() {
      if (status !== 'starting') return;
      status = 'running';
      // A server started from now on waits for its hello, as for any running crawl.
      announce('running');
      send({ t: 'state', status: 'running' });
    },
    async close(end) {
      if (readRunnerFile(dbPath)?.pid === process.pid) rmSync(file, { force: true });
      send(end);
      // Each client is given a while to take what is queued for it; one that reads nothing
      // held the crawl's process from ending for good.
      await Promise.all([...clients].map((s) => endWithin(s, CLOSE_FLUSH_MS)));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (process.platform !== 'win32') rmSync(path, { force: true });
    },
  };
}

/** How long a client is given, once the crawl ends, to read what was sent to it. */
const CLOSE_FLUSH_MS = 5000;

/**
 * Ends `s` and waits for it to close: a client that reads takes what is queued, sees the end and
 * closes; one that reads nothing is cut off after `ms` (flushed into the kernel's buffers, its
 * socket still kept the server from closing, for ever).
 */
function endWithin(s: Socket, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const cut = setTimeout(() => s.destroy(), ms);
    s.once('close', () => {
      clearTimeout(cut);
      resolve();
    });
    if (s.destroyed) {
      clearTimeout(cut);
      resolve();
      return;
    }
    s.end();
  });
}
