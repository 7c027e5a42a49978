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
import { dirname, join } from 'node:path';
import { Crawler } from '../engine/crawler.js';
import { CrawlError, ErrorCodes, type ErrorCode } from '../errors.js';
import { openDatabase } from '../store/database.js';
import type { StatsEvent } from './contract.js';
import type { RunnerMessage } from './crawl-channel.js';
import { DemoWebs } from './demo-webs.js';
import { openRunnerChannel } from './runner-channel.js';

export interface RunnerArgs {
  dbPath: string;
  id: string;
  maxPages?: number | null;
  demoLog?: string;
  demoPort?: number;
}

export const RUNNER_FLAG = '--crawl-runner';
/**
 * `node crawl-runner.js --upgrade-crawl FILE`: brings a crawl file of an earlier schema up to
 * this one's and exits (api/crawl-upgrades.ts). A process, not a thread: migration 12 is one
 * SQLite statement for minutes, which no thread can be stopped in, while a process is killed
 * at once (its transaction rolled back, its lock taken over as a dead process's).
 */
export const UPGRADE_FLAG = '--upgrade-crawl';

export async function runCrawlProcess(a: RunnerArgs): Promise<void> {
  // Pause or stop asked while the crawl opens: applied once it is open.
  let crawler: Crawler | null = null;
  let asked: 'pause' | 'stop' | null = null;
  const slowDown = (how: 'pause' | 'stop') => {
    asked = how === 'stop' || asked === 'stop' ? 'stop' : 'pause';
    if (crawler) (asked === 'stop' ? crawler.stop() : crawler.pause());
  };
  // Announced before the crawl is opened (its frontier loaded, its policy replayed: a minute
  // and more for millions of fetched pages), so that the server that started this process
  // sees it 'starting' at once and waits for the open as long as it takes. Nothing holds the
  // crawl's lock before this: a server that gives up on a process that never got this far
  // ends it without harm (crawl-process.ts). The channel every server connects to; pause and
  // stop from any of them, SIGTERM or SIGINT pause.
  const channel = await openRunnerChannel(a.dbPath, slowDown, 'starting');
  process.once('SIGTERM', () => channel.slowDown('pause'));
  process.once('SIGINT', () => channel.slowDown('pause'));
  const demos = new DemoWebs({ logFile: a.demoLog, port: a.demoPort });
  try {
    await demos.resumeFor(a.id, join(dirname(a.dbPath), `${a.id}.demo.json`));
    crawler = Crawler.open(a.dbPath, a.maxPages === undefined ? {} : { maxPages: a.maxPages });
  } catch (err) {
    await demos.stopAll();
    await channel.close({ t: 'ended', status: 'paused', reason: `failed: ${(err as Error).message}` });
    throw err;
  }
  const open = crawler;
  open.on('stats', (s: Omit<StatsEvent, 'crawlId'>) => channel.send({ t: 'stats', data: { ...s, crawlId: a.id } }));
  if (asked) slowDown(asked);
  channel.ready();

  let end: Extract<RunnerMessage, { t: 'ended' }>;
  try {
    const summary = await open.run();
    end = { t: 'ended', status: summary.state === 'finished' ? 'finished' : summary.state === 'stopped' ? 'stopped' : 'paused', reason: summary.stopReason };
  } catch (err) {
    end = { t: 'ended', status: 'paused', reason: `failed: ${(err as Error).message}` };
  }
  open.close();
  await demos.stopAll();
  // The crawl file says how it ended; the channel removes the runner file first, so a server
  // that connects from now on finds no running crawl, then tells every server the end.
  await channel.close(end);
}

/** The last line a runner writes on stderr when it fails: what the server that started it reports (runnerErrorOf). */
function failed(err: Error & { code?: string }): never {
  process.stderr.write(`${JSON.stringify({ code: err.code ?? 'CRAWL_INTERNAL', message: err.message })}\n`);
  process.exit(1);
}

/** The error a runner's last line tells (failed() wrote it), or null for any other line. */
export function runnerErrorOf(lastLine: string): CrawlError | null {
  try {
    const e = JSON.parse(lastLine) as { code?: string; message?: string };
    if (typeof e.message === 'string') return new CrawlError((e.code as ErrorCode | undefined) ?? ErrorCodes.INTERNAL, e.message);
  } catch {
    // not the runner's error line
  }
  return null;
}

if (process.argv[2] === UPGRADE_FLAG) {
  try {
    openDatabase(process.argv[3] ?? '').release();
    process.exit(0);
  } catch (err) {
    failed(err as Error);
  }
}

if (process.argv[2] === RUNNER_FLAG) {
  runCrawlProcess(JSON.parse(process.argv[3] ?? '{}') as RunnerArgs).then(
    () => process.exit(0),
    // The server reads the last line when the process ends before it answers.
    failed,
  );
}
