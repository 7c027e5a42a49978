/**
 * The processes of a parallel crawl on this machine, as its coordinator writes them every
 * second to NAME.parts/coordinator.json (the coordinator, its embedded nats-server, its local
 * workers), and what the same command run again does with them:
 *
 * - a coordinator still alive: the crawl is running, refused (CRAWL_PARALLEL_CRAWL_RUNNING);
 * - a coordinator gone (kill -9, a crash, a power cut) whose processes outlived it: its workers
 *   pause on their own when its pipe closes (worker-lifeline.ts) and are waited for, and killed
 *   if they have not ended by then; its nats-server, whose storage is the crawl's JetStream
 *   store, is stopped, so that the new run starts its own broker on that storage and no process
 *   of the old run writes a part database or the store the new run opens.
 *
 * A process is taken for one of the old run's only while its command line says so (a worker of
 * this crawl and folder, a nats-server on this crawl's store): a process id used again since by
 * something else is left alone.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CrawlError, ErrorCodes } from '../errors.js';
import { processAlive } from '../process-alive.js';
import { tempName } from '../temp-name.js';
import { PAUSE_GRACE_MS } from './worker-lifeline.js';

export interface RunFile {
  /** The coordinator. */
  pid: number;
  broker: string;
  /** The embedded nats-server (null with --broker). */
  brokerPid: number | null;
  /** The JetStream store the embedded nats-server was given (an absolute path). */
  brokerStore?: string | null;
  /** Local worker processes. */
  workers: number[];
}

const runFile = (dir: string) => join(dir, 'coordinator.json');

/** Written whole or not at all (a new file renamed over the old): a kill while writing leaves the last one whole. */
export function writeRunFile(dir: string, run: RunFile): void {
  const tmp = tempName(runFile(dir), 'tmp');
  try {
    writeFileSync(tmp, JSON.stringify(run));
    renameSync(tmp, runFile(dir));
  } catch (err) {
    // A full disk fails the write every heartbeat: each attempt left an empty file beside the crawl.
    try {
      rmSync(tmp, { force: true });
    } catch {
      // the write's own error says what went wrong
    }
    throw err;
  }
}

export function readRunFile(dir: string): RunFile | null {
  try {
    const r = JSON.parse(readFileSync(runFile(dir), 'utf8')) as RunFile;
    return Number.isInteger(r.pid) ? r : null;
  } catch {
    return null; // none, or cut short by the kill: nothing to take over
  }
}

/**
 * A live process's command line, its arguments joined by spaces: /proc on Linux, ps elsewhere;
 * null when it is gone, a zombie, or cannot be read (then it is never taken for ours).
 */
export function commandLine(pid: number): string | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  if (existsSync('/proc/self/cmdline')) {
    try {
      const text = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      return text.length > 0 ? text.replace(/\0+$/, '').split('\0').join(' ') : null;
    } catch {
      return null;
    }
  }
  try {
    const text = execFileSync('ps', ['-ww', '-o', 'args=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return text.length > 0 ? text : null;
  } catch {
    return null;
  }
}

/** A coordinator of this crawl still alive on this machine: refused before any broker starts. */
export function refuseIfRunning(dir: string, name: string): void {
  const run = readRunFile(dir);
  if (!run || run.pid === process.pid || !processAlive(run.pid)) return;
  throw new CrawlError(ErrorCodes.PARALLEL_CRAWL_RUNNING, `the crawl ${name} is already running (its coordinator is process ${run.pid}); wait for it, or stop it first`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until no process of `pids` still matches `ours`; returns those that still do after `ms`. */
async function waitGone(pids: number[], ours: (cmd: string) => boolean, ms: number): Promise<number[]> {
  const until = Date.now() + ms;
  for (;;) {
    const left = pids.filter((pid) => ours(commandLine(pid) ?? ''));
    if (left.length === 0 || Date.now() >= until) return left;
    await sleep(100);
  }
}

/**
 * Takes over from a coordinator that died without pausing (refuseIfRunning has found it gone):
 * waits for its workers to pause, kills those that do not, then stops its nats-server.
 */
export async function reclaimStaleRun(dir: string, name: string, note: (line: string) => void): Promise<void> {
  const run = readRunFile(dir);
  if (!run || run.pid === process.pid || processAlive(run.pid)) return;
  // The coordinator starts its workers with --crawl NAME --dir DIR (an absolute DIR).
  const isWorker = (cmd: string) => / worker /.test(cmd) && `${cmd} `.includes(` --crawl ${name} `) && `${cmd} `.includes(` --dir ${dir} `);
  const workers = (run.workers ?? []).filter((pid) => isWorker(commandLine(pid) ?? ''));
  if (workers.length > 0) {
    note(`the crawl's last coordinator (process ${run.pid}) is gone; waiting for its ${workers.length} worker process${workers.length > 1 ? 'es' : ''} (${workers.join(', ')}) to pause`);
    const stuck = await waitGone(workers, isWorker, PAUSE_GRACE_MS + 5000);
    if (stuck.length > 0) {
      note(`worker process${stuck.length > 1 ? 'es' : ''} ${stuck.join(', ')} did not pause: killed (they resume from their last committed batch)`);
      for (const pid of stuck) process.kill(pid, 'SIGKILL');
      await waitGone(stuck, isWorker, 5000);
    }
  }
  // The store the file names (an older coordinator's file names none: its default place then).
  const store = run.brokerStore ?? join(dir, 'jetstream');
  const isBroker = (cmd: string) => /nats-server/.test(cmd) && `${cmd} `.includes(` -sd ${store} `);
  if (run.brokerPid !== null && isBroker(commandLine(run.brokerPid) ?? '')) {
    note(`stopping the nats-server (process ${run.brokerPid}) the last coordinator left running on ${store}; a new one starts on the same storage`);
    process.kill(run.brokerPid, 'SIGTERM');
    if ((await waitGone([run.brokerPid], isBroker, 5000)).length > 0) {
      process.kill(run.brokerPid, 'SIGKILL');
      await waitGone([run.brokerPid], isBroker, 5000);
    }
  }
}
