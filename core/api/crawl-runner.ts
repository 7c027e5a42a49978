/**
 * A running crawl's own process. The workbench's server (crawl-process.ts) starts one per
 * crawl, detached, so that the crawl outlives the server: a server that crashes (or a window
 * that closes badly) takes no crawl with it, and the server started again connects to it
 * through the socket named in `NAME.db.runner` (crawl-channel.ts).
 *
 * It runs the crawl to its end (finished, max pages, paused or stopped on request), hosts
 * the crawl's demo web when it is a demo crawl, sends every stats sample and its end to every
 * server connected, and exits. SIGTERM or SIGINT pause the crawl cleanly, as a server's
 * request does.
 *
 * Run as `node crawl-runner.js --crawl-runner '{"dbPath":...,"id":...}'` (Electron: with
 * ELECTRON_RUN_AS_NODE=1).
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { Crawler } from '../engine/crawler.js';
import type { StatsEvent } from './contract.js';
import { readLines, runnerFile, sendLine, socketPath, type RunnerMessage, type ServerMessage } from './crawl-channel.js';
import { DemoWebs } from './demo-webs.js';

export interface RunnerArgs {
  dbPath: string;
  id: string;
  maxPages?: number | null;
  demoLog?: string;
  demoPort?: number;
}

export const RUNNER_FLAG = '--crawl-runner';

async function listen(server: ReturnType<typeof createServer>, path: string): Promise<void> {
  if (process.platform !== 'win32') rmSync(path, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
}

export async function runCrawlProcess(a: RunnerArgs): Promise<void> {
  const demos = new DemoWebs({ logFile: a.demoLog, port: a.demoPort });
  await demos.resumeFor(a.id, join(dirname(a.dbPath), `${a.id}.demo.json`));
  const crawler = Crawler.open(a.dbPath, a.maxPages === undefined ? {} : { maxPages: a.maxPages });
  const clients = new Set<Socket>();
  let status: 'running' | 'pausing' = 'running';
  let last: StatsEvent | null = null;
  const broadcast = (m: RunnerMessage) => clients.forEach((s) => sendLine(s, m));
  const slowDown = (how: 'pause' | 'stop') => {
    if (status === 'running') {
      status = 'pausing';
      broadcast({ t: 'state', status: 'pausing' });
    }
    if (how === 'stop') crawler.stop();
    else crawler.pause();
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
  const path = socketPath(a.dbPath);
  await listen(server, path);
  const file = runnerFile(a.dbPath);
  writeFileSync(`${file}.tmp`, JSON.stringify({ pid: process.pid, socket: path, startedAt: new Date().toISOString() }));
  renameSync(`${file}.tmp`, file);
  crawler.on('stats', (s: Omit<StatsEvent, 'crawlId'>) => {
    last = { ...s, crawlId: a.id };
    broadcast({ t: 'stats', data: last });
  });
  process.once('SIGTERM', () => slowDown('pause'));
  process.once('SIGINT', () => slowDown('pause'));

  let end: Extract<RunnerMessage, { t: 'ended' }>;
  try {
    const summary = await crawler.run();
    end = { t: 'ended', status: summary.state === 'finished' ? 'finished' : summary.state === 'stopped' ? 'stopped' : 'paused', reason: summary.stopReason };
  } catch (err) {
    end = { t: 'ended', status: 'paused', reason: `failed: ${(err as Error).message}` };
  }
  crawler.close();
  await demos.stopAll();
  // The crawl file says how it ended; the runner file goes first, so a server that connects
  // from now on finds no running crawl.
  rmSync(file, { force: true });
  broadcast(end);
  await Promise.all([...clients].map((s) => new Promise<void>((resolve) => s.end(() => resolve()))));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (process.platform !== 'win32') rmSync(path, { force: true });
}

if (process.argv[2] === RUNNER_FLAG) {
  runCrawlProcess(JSON.parse(process.argv[3] ?? '{}') as RunnerArgs).then(
    () => process.exit(0),
    (err: Error & { code?: string }) => {
      // The server reads this last line when the process ends before it answers.
      process.stderr.write(`${JSON.stringify({ code: err.code ?? 'CRAWL_INTERNAL', message: err.message })}\n`);
      process.exit(1);
    },
  );
}
