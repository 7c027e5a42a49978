/**
 * The coordinator of a parallel crawl (`crawlbench crawl --parts K ...`): starts the broker
 * (unless --broker), stores the crawl's definition in it, starts N local worker processes
 * (`crawlbench worker`; workers on other machines take the remaining parts), restarts a
 * worker that dies, prints progress, ends the crawl when every part is idle and no consumer
 * has a message pending or unacknowledged, seen twice in a row with nothing moved between,
 * and merges the parts into NAME.db.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { KV } from '@nats-io/kv';
import type { JetStreamManager } from '@nats-io/jetstream';
import type { CrawlSettings } from '../config/settings.js';
import { CrawlError, DISK_FULL_EXIT, ErrorCodes } from '../errors.js';
import { END_REASON } from '../engine/crawler.js';
import { CrawlStore } from '../store/crawl-store.js';
import { mergeParts, type MergeResult } from '../store/merge-parts.js';
import { Assignment, type NewUrlRule, type PartModel, type PartVector } from './assignment.js';
import { EmbeddedBroker, closeConnection, connectBroker, credentialsEnv, defaultReplicas, findNatsServer, storageFull, waitAtMost, type BrokerCredentials } from './broker.js';
import { HEARTBEAT_MS, STATUS_MS, consumerName, coordinatorBeat, kvText, crawlBucket, defineCrawl, ensureStream, parseStatus, partShare, streamName, type ParallelDefinition, type WorkerStatus } from './definition.js';
import { exchangeAccount, type ExchangeAccount } from './exchange-account.js';
import { predictExchange, type Prediction } from './prediction.js';
import { reclaimStaleRun, refuseIfRunning, writeRunFile } from './stale-run.js';
import { makeFolders } from '../folders.js';

export interface CoordinatorOptions {
  /** NAME.db: the merged crawl; the parts go to NAME.parts. */
  db: string;
  settings: CrawlSettings;
  parts: number;
  model: PartModel;
  vector: PartVector | null;
  newUrls: NewUrlRule;
  /** One server's URL, or several of one cluster separated by commas. */
  broker?: string;
  /** Copies of the stream and buckets the broker keeps (--replicas; default: defaultReplicas). */
  replicas?: number;
  credentials: BrokerCredentials;
  localWorkers: number;
  natsServer?: string;
  predictFrom?: string;
  /** --exchange-batch in ms: URLs for a remote part held that long before they are sent (0: not held). */
  exchangeBatchMs?: number;
  /**
   * A page limit given for this run (--max-pages again, or the workbench's start with a limit):
   * a resumed crawl takes it in place of the one the broker holds, split among the parts anew,
   * as `crawl --db NAME.db --max-pages N` does for a crawl of one process.
   */
  maxPagesNow?: number | null;
  /** --max-db-size given for this run: a resumed crawl's parts take it (a crawl paused with its disk full goes on with a larger one). */
  maxDbSizeNow?: number | null;
  /** argv that runs `crawlbench` (node and its script). */
  crawlbench: string[];
  note: (line: string) => void;
  progress: (line: string) => void;
  /** Aborted (Ctrl-C, SIGTERM): the workers pause, the broker stops; the same command resumes. */
  signal?: AbortSignal;
}

/** The exchange: measured, before batching, the causes of its difference from the prediction, the lease traffic (exchange-account.ts). */
export interface ParallelSummary extends ExchangeAccount {
  name: string;
  broker: string;
  /** Copies the broker kept of the crawl's stream and buckets. */
  replicas: number;
  merge: MergeResult;
  workerRestarts: number;
  brokerRestarts: number;
  seconds: number;
  prediction: Prediction | null;
}

export function partsDir(db: string): string {
  return `${db.replace(/\.db$/, '')}.parts`;
}

/** Runs the crawl to its end and merges it; null when it was paused (o.signal). */
export async function runCoordinator(o: CoordinatorOptions): Promise<ParallelSummary | null> {
  // A merged crawl that ended at its page limit goes on from its parts (given a higher --max-pages) and is merged again.
  const again = existsSync(o.db) && endedAtPageLimit(o.db);
  if (existsSync(o.db) && !again) {
    throw new CrawlError(ErrorCodes.OUTPUT_EXISTS, `${o.db} exists: a parallel crawl writes its merged crawl there (choose another --db; a parallel crawl ended at its page limit goes on with a higher --max-pages)`);
  }
  const t0 = Date.now();
  // Absolute: the workers' command lines and the broker's store name it so (stale-run.ts finds them by it).
  const dir = resolve(partsDir(o.db));
  const name = crawlName(o.db);
  makeFolders(dir);
  refuseIfRunning(dir, name);
  const program = o.broker ? null : findNatsServer(o.natsServer);
  // A coordinator killed with kill -9 may have left its workers and its nats-server running.
  await reclaimStaleRun(dir, name, o.note);
  const store = join(dir, 'jetstream');
  const embedded = program ? await EmbeddedBroker.start(program, store, null, o.note) : null;
  const url = o.broker ?? embedded!.url;
  const nc = await connectBroker(url, o.credentials, `crawlbench coordinator ${name}`);
  const watch = new Watch(o.note);
  const workers: LocalWorkers = new LocalWorkers(o, url, name, dir, watch);
  /** Paused for a full disk, the broker did not answer the coordinator's last call: its last calls wait no more. */
  let brokerSilent = false;
  try {
    const replicas = o.replicas ?? defaultReplicas(nc, url);
    const kv = await crawlBucket(nc, name, replicas);
    const defined = await defineCrawl(kv, definition(o, name, replicas), o.vector);
    const { resumed } = defined;
    if (resumed) o.note(`resuming the crawl ${name} with the definition the broker holds (${defined.def.parts} parts)`);
    const def = resumed ? await runLimits(kv, defined.def, o) : defined.def;
    if ((def.replicas ?? 1) > 1) o.note(`the broker keeps ${def.replicas} copies of the crawl's stream and buckets (a NATS cluster: a server lost loses nothing)`);
    await kv.delete('end');
    await kv.delete('pause');
    // The last run's statuses: one that said its disk was full would pause this run at once.
    for (let p = 0; p < def.parts; p++) await kv.delete(`status.${p}`);
    const jsm = await ensureStream(nc, name, def.parts, def.replicas ?? 1);
    // The heartbeat, and in NAME.parts/coordinator.json the processes of this crawl for a person (or a test) to find.
    const beat = setInterval(() => {
      void kv.put('coordinator', coordinatorBeat()).catch(() => {});
      runFile(dir, { pid: process.pid, broker: url, brokerPid: embedded?.pid ?? null, brokerStore: embedded ? store : null, workers: workers.pids() }, watch);
    }, HEARTBEAT_MS);
    await kv.put('coordinator', coordinatorBeat());
    try {
      workers.start(def.parts);
      const end = await waitForEnd(kv, jsm, def, o.progress, watch, workers.elsewhere(def.parts), o.signal);
      if (end !== 'ended') {
        // Workers on other machines read it within STATUS_MS; this machine's are told at once.
        await kv.put('pause', String(Date.now())).catch(() => {});
        await workers.pauseAll(60_000);
        if (end === 'paused') return null;
        throw end;
      }
      await kv.put('end', String(Date.now()));
      await workers.waitAll(120_000);
    } finally {
      clearInterval(beat);
      // Its coordinator gone: a resume at once (a paused crawl started again) is not taken for a
      // second start. A broker whose store is full does not answer it (its 5 s timeout, measured).
      brokerSilent = !(await waitAtMost(kv.delete('coordinator'), watch.diskFull ? 500 : 10_000)) && watch.diskFull;
    }
    const away = Array.from({ length: def.parts }, (_, p) => p).filter((p) => !existsSync(join(dir, `part-${p}.db`)));
    if (away.length > 0) {
      throw new CrawlError(ErrorCodes.DB_MISSING, `the crawl ended; part${away.length > 1 ? 's' : ''} ${away.join(', ')} crawled on other machines: copy their part-I.db into ${dir} and run crawlbench merge ${dir} --out ${o.db}`);
    }
    const merge = mergeParts(dir, o.db, { settings: def.settings, force: again });
    const assignment = new Assignment(def.parts, def.model, def.settings.siteKey, o.vector, def.newUrls);
    const prediction = o.predictFrom ? predictExchange(o.predictFrom, assignment) : null;
    return { name, broker: url, replicas: def.replicas ?? 1, merge, workerRestarts: workers.restarts, brokerRestarts: embedded?.restarts ?? 0, seconds: (Date.now() - t0) / 1000, prediction, ...exchangeAccount(merge, def.exchangeBatchMs ?? 0, prediction) };
  } catch (err) {
    const e = asDiskFull(err);
    if ((e as CrawlError).code === ErrorCodes.DISK_FULL) watch.halt ??= e as CrawlError;
    throw e;
  } finally {
    workers.killAll();
    // A full disk that holds the broker's store too: it answers no more, and its nats-server does not end on SIGTERM.
    await closeConnection(nc, brokerSilent ? 500 : 2000);
    await embedded?.stop(brokerSilent ? 1000 : 5000);
  }
}

/** Writes NAME.parts/coordinator.json; thrown from the heartbeat's timer it ended the process with a stack trace. */
function runFile(dir: string, run: Parameters<typeof writeRunFile>[1], watch: Watch): void {
  try {
    writeRunFile(dir, run);
  } catch (err) {
    if (storageFull(err)) watch.pauseForFullDisk(`this machine (writing ${dir}/coordinator.json)`);
    else watch.once('run-file', `could not write ${dir}/coordinator.json: ${(err as Error).message}`);
  }
}

/** The broker's store (the embedded one is in NAME.parts) or this disk full: said as a full disk (exit 3), not as an internal error. */
function asDiskFull(err: unknown): unknown {
  if (!storageFull(err) || (err instanceof CrawlError && err.code === ErrorCodes.DISK_FULL)) return err;
  return new CrawlError(ErrorCodes.DISK_FULL, `the disk (or the broker's storage) is full: ${(err as Error).message}; every worker paused with what it had committed. Free space and run the same command to resume`, { cause: err });
}

/** `db` is a parallel crawl's merge that ended at its page limit (store/merge-parts.ts records it so). */
function endedAtPageLimit(db: string): boolean {
  let store: CrawlStore;
  try {
    store = CrawlStore.open(db, { readonly: true });
  } catch {
    return false;
  }
  try {
    const end = JSON.parse(store.getMeta(END_REASON) ?? '{}') as { kind?: string };
    return store.getMeta('parallel_parts') !== undefined && end.kind === 'max-pages';
  } catch {
    return false;
  } finally {
    store.close();
  }
}

/** NAME of NAME.db, as a NATS subject token. */
export function crawlName(db: string): string {
  const base = db.replace(/\\/g, '/').split('/').pop()!.replace(/\.db$/, '');
  return base.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'crawl';
}

function definition(o: CoordinatorOptions, name: string, replicas: number): ParallelDefinition {
  const max = o.settings.maxPages;
  // --max-pages is split among the parts (see README: a shared counter would cost a broker round trip per page).
  const share = max === null ? null : Array.from({ length: o.parts }, (_, i) => partShare(max, o.parts, i));
  return {
    name, parts: o.parts, model: o.model, assign: o.vector ? o.vector.file : 'hash', newUrls: o.newUrls, settings: o.settings,
    maxPagesShare: share, exchangeBatchMs: o.exchangeBatchMs ?? 0, replicas, vectorChunks: 0, createdAt: new Date().toISOString(),
  };
}

/**
 * A resumed crawl's definition with this run's limits: another page limit (split among its parts
 * anew) or database size, stored before any worker reads it.
 */
async function runLimits(kv: KV, def: ParallelDefinition, o: CoordinatorOptions): Promise<ParallelDefinition> {
  const { settings } = def;
  const max = o.maxPagesNow === undefined ? settings.maxPages : o.maxPagesNow;
  const size = o.maxDbSizeNow === undefined ? settings.maxDbSize : o.maxDbSizeNow;
  if (max === settings.maxPages && size === settings.maxDbSize) return def;
  const share = max === null ? null : Array.from({ length: def.parts }, (_, i) => partShare(max, def.parts, i));
  const next: ParallelDefinition = { ...def, settings: { ...settings, maxPages: max, maxDbSize: size }, maxPagesShare: share };
  await kv.put('definition', JSON.stringify(next));
  const said = (n: number | null) => (n === null ? 'none' : n.toLocaleString('en-US'));
  if (max !== settings.maxPages) o.note(`the page limit is now ${said(max)} (it was ${said(settings.maxPages)})`);
  if (size !== settings.maxDbSize) o.note(`each part's database may now grow to ${said(size)} bytes (it was ${said(settings.maxDbSize)})`);
  return next;
}

/**
 * What the coordinator's loop is told apart from the broker: a problem noted once, and a reason
 * to pause the whole crawl (a part whose disk is full: the others would go on and the crawl
 * never end).
 */
class Watch {
  private readonly told = new Set<string>();
  halt: CrawlError | null = null;

  constructor(private readonly note: (line: string) => void) {}

  once(key: string, line: string): void {
    if (this.told.has(key)) return;
    this.told.add(key);
    this.note(line);
  }

  refused(which: string): void {
    this.halt ??= new CrawlError(ErrorCodes.PARALLEL_WORKER_REFUSED, `${which} refused to run (exit 2; its own line above says why); every worker paused with what it had committed. Mend that and run the same command to resume`);
  }

  /**
   * A part whose worker runs on another machine, as its status says: paused, ended, or silent
   * (no status written for ELSEWHERE_SILENT_MS). Said once for each such turn, with the command
   * that takes the part on: before, the crawl waited in silence for a part nobody crawled.
   */
  elsewhere(p: number, s: WorkerStatus | null, take: string): void {
    const now = Date.now();
    const beat = s?.beat ?? -1;
    const last = this.beats.get(p);
    if (!last || last.beat !== beat) this.beats.set(p, { beat, at: now });
    if (!s) return;
    const silent = now - this.beats.get(p)!.at > ELSEWHERE_SILENT_MS;
    const why = s.state === 'paused' ? 'paused' : s.state === 'ended' ? 'ended' : silent ? `has written no status for ${ELSEWHERE_SILENT_MS / 1000} s` : null;
    if (why !== null) this.once(`elsewhere.${p}.${beat}`, `part ${p} (worker ${s.pid} on ${s.host}) ${why}: the crawl waits for its part; on the machine holding its part file, run ${take}`);
  }

  private readonly beats = new Map<number, { beat: number; at: number }>();

  /** The crawl pauses for a full disk (a part's, this machine's, or the broker's store). */
  get diskFull(): boolean {
    return this.halt?.code === ErrorCodes.DISK_FULL;
  }

  pauseForFullDisk(where: string): void {
    this.halt ??= new CrawlError(ErrorCodes.DISK_FULL, `${where}: the disk (or --max-db-size) is full; every worker paused with what it had committed. Free space (or give a larger --max-db-size) and run the same command to resume`);
  }
}

/** A worker elsewhere writes its status every STATUS_MS: this long without one, it is said to be away. */
const ELSEWHERE_SILENT_MS = 30_000;

interface Observation {
  quiet: boolean;
  signature: string;
  beats: number[];
}

/**
 * Looks every LOOK_MS; returns when two observations in a row find every part idle, nothing pending, and nothing moved.
 * Twice a worker's status interval, so that every worker has written between two looks (STATUS_MS).
 */
const LOOK_MS = 2 * STATUS_MS;
async function waitForEnd(kv: KV, jsm: JetStreamManager, def: ParallelDefinition, progress: (line: string) => void, watch: Watch, elsewhere: Elsewhere, signal?: AbortSignal): Promise<'ended' | 'paused' | CrawlError> {
  let last: Observation | null = null;
  let lastPrint = 0;
  for (;;) {
    await new Promise((r) => setTimeout(r, LOOK_MS));
    if (signal?.aborted) return 'paused';
    if (watch.halt) return watch.halt;
    let now: Observation;
    try {
      now = await observe(kv, jsm, def, Date.now() - lastPrint > 2000 ? progress : null, watch, elsewhere);
    } catch {
      last = null; // the broker is away: start counting again when it answers
      continue;
    }
    if (Date.now() - lastPrint > 2000) lastPrint = Date.now();
    const fresh = last !== null && now.beats.every((b, i) => b > last!.beats[i]!);
    if (watch.halt) return watch.halt;
    if (now.quiet && last?.quiet && fresh && now.signature === last.signature) return 'ended';
    if (!last || fresh || !now.quiet) last = now;
  }
}

/** The parts other machines run (from this one on), and the command that takes part p on. */
interface Elsewhere {
  from: number;
  take: (p: number) => string;
}

async function observe(kv: KV, jsm: JetStreamManager, def: ParallelDefinition, progress: ((line: string) => void) | null, watch: Watch, elsewhere: Elsewhere): Promise<Observation> {
  const statuses: (WorkerStatus | null)[] = [];
  let quiet = true;
  const sig: unknown[] = [];
  for (let p = 0; p < def.parts; p++) {
    const e = await kvText(kv, `status.${p}`);
    const read = e === null ? null : parseStatus(e, p);
    // A status that is not a worker's is told once and read as none (the part is not quiet): its worker writes its own within STATUS_MS.
    if (read !== null && 'problem' in read) watch.once(`status.${p}`, `part ${p}'s status in the broker is not a worker's (${read.problem}): read as none until its worker writes it again`);
    const s = read !== null && 'status' in read ? read.status : null;
    if (s?.state === 'disk-full') watch.pauseForFullDisk(`part ${p} (worker ${s.pid} on ${s.host})`);
    if (p >= elsewhere.from) watch.elsewhere(p, s, elsewhere.take(p));
    statuses.push(s);
    const c = await jsm.consumers.info(streamName(def.name), consumerName(p));
    if (!s || !s.idle || s.state !== 'running' || s.outbox > 0 || c.num_pending > 0 || c.num_ack_pending > 0) quiet = false;
    sig.push(s?.pagesFetched, s?.sent, s?.received, c.delivered.stream_seq, c.ack_floor.stream_seq);
  }
  if (progress) {
    const pages = statuses.reduce((n, s) => n + (s?.pagesFetched ?? 0), 0);
    const rate = statuses.reduce((n, s) => n + (s?.pagesPerSecond ?? 0), 0);
    const each = statuses.map((s, p) => `${p}:${s ? `${s.pagesFetched}${s.idle ? ' idle' : ''}` : '-'}`).join(' ');
    const sent = statuses.reduce((n, s) => n + (s?.sent ?? 0), 0);
    const received = statuses.reduce((n, s) => n + (s?.received ?? 0), 0);
    const leases = statuses.reduce((n, s) => n + (s?.leaseRequests ?? 0), 0);
    progress(`${pages} pages, ${rate.toFixed(1)} pages/s, messages published ${sent}, taken in ${received}, lease requests ${leases}; workers ${each}`);
  }
  return { quiet, signature: JSON.stringify(sig), beats: statuses.map((s) => s?.beat ?? -1) };
}

/** A worker that ended is started again after this, doubled each time it ends again within RESTART_MAX_MS of its start. */
const RESTART_MS = 300;
const RESTART_MAX_MS = 60_000;

/** The worker processes this machine runs; one that dies before the end is started again. */
class LocalWorkers {
  private readonly children = new Map<number, ChildProcess>();
  /** The wait before each worker's last start again. */
  private readonly delays = new Map<number, number>();
  private ending = false;
  restarts = 0;

  constructor(
    private readonly o: CoordinatorOptions,
    private readonly url: string,
    private readonly name: string,
    private readonly dir: string,
    private readonly watch: Watch,
  ) {}

  /**
   * N processes here take parts 0..N-1, one each; workers on other machines take the rest
   * (`crawlbench worker --parts-to-take`). Before, the N processes took every part round robin,
   * so a part given to another machine as the README shows was crawled twice, by two workers
   * sharing its consumer.
   */
  start(k: number): void {
    const n = Math.max(0, Math.min(this.o.localWorkers, k));
    for (let w = 0; w < n; w++) this.spawn(w, [w]);
    if (n < k) {
      const rest = Array.from({ length: k - n }, (_, i) => n + i).join(',');
      this.o.note(`part${k - n > 1 ? 's' : ''} ${rest} ${k - n > 1 ? 'are' : 'is'} left to other workers: ${this.take(rest)}`);
    }
  }

  /** The parts workers on other machines take (those this one does not), and the command that takes one. */
  elsewhere(k: number): Elsewhere {
    return { from: Math.max(0, Math.min(this.o.localWorkers, k)), take: (p) => this.take(String(p)) };
  }

  private take(parts: string): string {
    return `crawlbench worker --broker ${this.url} --crawl ${this.name} --parts-to-take ${parts} --dir DIR`;
  }

  private spawn(w: number, parts: number[]): void {
    const args = [...this.o.crawlbench.slice(1), 'worker', '--broker', this.url, '--crawl', this.name, '--dir', this.dir, '--parts-to-take', parts.join(','), '--end-with-stdin'];
    // Its standard input is a pipe from this process, never written: it closes when this process
    // ends however it ends (kill -9 included), and the worker then pauses (worker-lifeline.ts).
    const child = spawn(this.o.crawlbench[0]!, args, { stdio: ['pipe', 'ignore', 'inherit'], env: { ...process.env, ...credentialsEnv(this.o.credentials) } });
    this.children.set(w, child);
    const startedAt = Date.now();
    child.once('exit', (code, signal) => {
      if (this.ending) return;
      // Its disk (or --max-db-size) is full (the worker's exit code 3, as crawl's): started again it
      // would end at once; the crawl pauses whole instead.
      const which = `part${parts.length > 1 ? 's' : ''} ${parts.join(',')} (worker ${w})`;
      if (code === DISK_FULL_EXIT) return this.watch.pauseForFullDisk(which);
      // It refused what it was given (its part file, the definition: its own line above says
      // which): started again it would refuse again, so the crawl pauses whole.
      if (code === 2) return this.watch.refused(which);
      this.restarts++;
      // A worker that keeps ending at once (a full disk, a part it cannot open) is started again
      // later each time, up to a minute apart, not every 300 ms for ever; one that ran a while, soon.
      const delay = Date.now() - startedAt > RESTART_MAX_MS ? RESTART_MS : Math.min(RESTART_MAX_MS, 2 * (this.delays.get(w) ?? RESTART_MS / 2));
      this.delays.set(w, delay);
      this.o.note(`worker ${w} (parts ${parts.join(',')}) ended (${signal ?? `exit ${code}`}); starting it again in ${delay / 1000} s`);
      // Not once the crawl is ending (a Ctrl-C reaching the workers before this process): a worker
      // started then kept the crawl and its broker alive.
      setTimeout(() => {
        if (!this.ending) this.spawn(w, parts);
      }, delay);
    });
  }

  pids(): number[] {
    return [...this.children.values()].map((c) => c.pid!).filter((p) => p !== undefined);
  }

  /** Waits for every worker to end after the crawl was ended. */
  async waitAll(ms: number): Promise<void> {
    this.ending = true;
    const until = Date.now() + ms;
    while ([...this.children.values()].some((c) => c.exitCode === null && c.signalCode === null)) {
      if (Date.now() > until) throw new CrawlError(ErrorCodes.INTERNAL, `workers did not end within ${ms / 1000} s of the crawl's end`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Asks every worker to pause (SIGTERM: each commits and ends) and waits for them. */
  async pauseAll(ms: number): Promise<void> {
    this.ending = true;
    for (const c of this.children.values()) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
    await this.waitAll(ms);
  }

  killAll(): void {
    this.ending = true;
    for (const c of this.children.values()) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  }
}
