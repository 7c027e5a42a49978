/**
 * A parallel crawl as the broker holds it, so that a worker anywhere needs only the broker's
 * address, its credentials and the crawl's name: a JetStream KV bucket `crawlbench_NAME` with
 * the definition (settings with every seed, K, the model, the assignment and the vector), the
 * workers' status, the coordinator's heartbeat and the end; a stream `crawlbench_NAME` whose
 * subject `crawlbench.NAME.part.I` carries the URLs found for part I, read by part I's durable
 * consumer `part-I` with explicit acks. On a NATS cluster the stream, its consumers and the
 * buckets keep `replicas` copies (the definition's; consumers take their stream's).
 *
 * The definition is written with create-if-absent: a second coordinator of a crawl whose
 * coordinator still beats is refused; one whose coordinator is gone resumes it.
 */
import { hostname } from 'node:os';
import { jetstreamManager, AckPolicy, DeliverPolicy, JetStreamApiCodes, JetStreamApiError, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { z } from 'zod';
import { readJson } from './broker-input.js';
import { validateSettings, type CrawlSettings, type CrawlSettingsInput } from '../config/settings.js';
import { CrawlError, ErrorCodes, badOption } from '../errors.js';
import type { NewUrlRule, PartModel, PartVector } from './assignment.js';
import { processAlive } from '../process-alive.js';

export interface ParallelDefinition {
  name: string;
  parts: number;
  model: PartModel;
  /** 'hash' or the vector's file name (for messages; the vector itself is stored apart). */
  assign: string;
  newUrls: NewUrlRule;
  settings: CrawlSettings;
  /** Each part's share of --max-pages (null: no cap). */
  maxPagesShare: number[] | null;
  /** --exchange-batch: how long URLs for a remote part are held before they are sent, in ms (0 or absent: not held). */
  exchangeBatchMs?: number;
  /**
   * Copies the broker keeps of the crawl's stream and buckets (1 when absent): more than one on
   * a NATS cluster, so that losing a server loses nothing (--replicas).
   */
  replicas?: number;
  /** Keys under which the vector is stored in chunks (0 for hash). */
  vectorChunks: number;
  createdAt: string;
}

export interface WorkerStatus {
  part: number;
  pid: number;
  host: string;
  idle: boolean;
  pagesFetched: number;
  queued: number;
  sent: number;
  received: number;
  outbox: number;
  /** Requests to the site-lease bucket so far (a page assignment; 0 for a site assignment). */
  leaseRequests?: number;
  pagesPerSecond: number;
  /** Increases with every status written: a fresh status is told from a stale one. */
  beat: number;
  /** 'disk-full': the part paused because its disk (or --max-db-size) is full; the coordinator pauses the crawl. */
  state: 'running' | 'paused' | 'ended' | 'disk-full';
}

/*
 * What the broker holds is read as input: anyone who can write the crawl's bucket (a worker of
 * another version, a person with the nats CLI, a bug) may have written it. Before, a definition
 * missing a field crashed every worker at once, and the coordinator started them again for
 * ever; a status that was not JSON was taken for the broker being away, every 500 ms.
 */
const count = z.number().int().nonnegative();
const DefinitionShape = z.object({
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  parts: z.number().int().min(1).max(10_000),
  model: z.enum(['page', 'site']),
  assign: z.string().max(4096),
  newUrls: z.enum(['discoverer', 'hash']),
  settings: z.record(z.string(), z.unknown()),
  maxPagesShare: z.array(count).nullable(),
  exchangeBatchMs: z.number().nonnegative().finite().optional(),
  replicas: z.number().int().min(1).max(5).optional(),
  vectorChunks: count,
  createdAt: z.string(),
});
const VectorChunk = z.object({ labels: z.array(z.string()), parts: z.array(count) }).refine((v) => v.labels.length === v.parts.length, 'labels and parts of different lengths');
const StatusShape = z.object({
  part: count, pid: count, host: z.string(), idle: z.boolean(), pagesFetched: count, queued: count, sent: count, received: count, outbox: count,
  leaseRequests: count.optional(), pagesPerSecond: z.number().nonnegative(), beat: count, state: z.enum(['running', 'paused', 'ended', 'disk-full']),
});

const badDefinition = (what: string, problem: string) =>
  new CrawlError(ErrorCodes.PARALLEL_BAD_DEFINITION, `the broker's ${what} is not one crawlbench wrote (${problem}): start the crawl under another name, or delete its bucket and stream on the broker`);

/** The definition the broker holds, checked: its settings as a crawl's are (validateSettings), its shares one a part. */
export function parseDefinition(text: string): ParallelDefinition {
  const r = readJson(DefinitionShape, text);
  if ('problem' in r) throw badDefinition('crawl definition', r.problem);
  const d = r.ok;
  if (d.maxPagesShare !== null && d.maxPagesShare.length !== d.parts) throw badDefinition('crawl definition', `maxPagesShare: ${d.maxPagesShare.length} shares for ${d.parts} parts`);
  let settings: CrawlSettings;
  try {
    settings = validateSettings(d.settings as CrawlSettingsInput);
  } catch (err) {
    throw badDefinition('crawl definition', `settings.${(err as Error).message}`);
  }
  return { ...d, settings };
}

/** A worker's status as the coordinator reads it; null with the problem when it is not one. */
export function parseStatus(text: string, part: number): { status: WorkerStatus } | { problem: string } {
  const r = readJson(StatusShape, text);
  if ('problem' in r) return r;
  if (r.ok.part !== part) return { problem: `it names part ${r.ok.part}` };
  return { status: r.ok };
}

/** Part `part`'s share of a limit of the whole crawl split among k parts: the first (total mod k) parts get one more. */
export function partShare(total: number, k: number, part: number): number {
  return Math.floor(total / k) + (part < total % k ? 1 : 0);
}

/** A crawl name is one NATS subject token. */
export function checkCrawlName(name: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) throw badOption('--crawl', `"${name}" is not a crawl name (letters, digits, - and _, at most 64)`);
  return name;
}

export const streamName = (name: string) => `crawlbench_${name}`;
export const partSubject = (name: string, part: number) => `crawlbench.${name}.part.${part}`;
export const consumerName = (part: number) => `part-${part}`;
const VECTOR_CHUNK = 20_000;
/** How long a delivered message waits for its acknowledgement before it is delivered again. */
export const ACK_WAIT_MS = 5000;
/** The coordinator's heartbeat is this old at most while it runs. */
export const HEARTBEAT_MS = 1000;
/**
 * A worker writes its status and reads `end` and `pause` this often. Twice per look of the
 * coordinator's (every 500 ms, LOOK_MS in coordinator.ts): the end needs two looks in a row to find every status written
 * anew, and at 500 ms each the beats fell on the wrong side of a look about every other crawl,
 * which then waited a third; a worker also learns of the end within a quarter second. Measured
 * on a parallel crawl of 600 pages, K = 4: from its last fetch to its end 1.4-1.8 s, against
 * 2.1-2.6 s at 500 ms.
 */
export const STATUS_MS = 250;

/**
 * The coordinator's heartbeat in the bucket: `MS PID@HOST`, the time it was written and by which
 * process, so that a coordinator of this machine that was killed is known dead at once (its
 * beat, younger than 3 s, would otherwise refuse the same command run again right away).
 */
export function coordinatorBeat(): string {
  return `${Date.now()} ${process.pid}@${hostname()}`;
}

/** A beat's age in ms; Infinity when none, or when its process was of this machine and is gone. */
function beatAge(beat: string | null): number {
  if (beat === null) return Infinity;
  const [at, who] = beat.split(' ');
  const [pid, host] = (who ?? '').split('@');
  if (host === hostname() && pid !== process.pid.toString() && !processAlive(Number(pid))) return Infinity;
  const age = Date.now() - Number(at);
  return Number.isFinite(age) ? age : Infinity;
}

/** A key's value, or null when it was never put or was deleted (a deleted key reads as a tombstone). */
export async function kvText(kv: KV, key: string): Promise<string | null> {
  const e = await kv.get(key);
  return e && e.operation === 'PUT' ? e.string() : null;
}

/**
 * Creates a stream or bucket with `replicas` copies; a broker that cannot keep that many (a single
 * server, or a cluster of fewer servers) refuses it in words that name --replicas.
 */
export async function replicated<T>(replicas: number, create: () => Promise<T>): Promise<T> {
  try {
    return await create();
  } catch (err) {
    if (replicas <= 1) throw err;
    throw badOption('--replicas', `the broker cannot keep ${replicas} copies of the crawl's stream and buckets (${(err as Error).message}): that needs a NATS cluster of at least ${replicas} servers with JetStream`);
  }
}

/**
 * The crawl's bucket: opened (a worker: `replicas` null), or created with `replicas` copies by
 * the coordinator (a resumed crawl's bucket is opened as it was made).
 */
export async function crawlBucket(nc: NatsConnection, name: string, replicas: number | null): Promise<KV> {
  const kvm = new Kvm(nc);
  if (replicas !== null) {
    try {
      const kv = await kvm.open(`crawlbench_${name}`);
      await kv.status();
      return kv;
    } catch {
      return replicated(replicas, () => kvm.create(`crawlbench_${name}`, { history: 1, replicas }));
    }
  }
  try {
    const kv = await kvm.open(`crawlbench_${name}`);
    await kv.status();
    return kv;
  } catch (err) {
    // Only a bucket the broker says is not there is no crawl: a broker that did not answer in time
    // (stopped, overloaded) is away, and a worker started again later finds the crawl.
    if (err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound) {
      throw new CrawlError(ErrorCodes.PARALLEL_UNKNOWN_CRAWL, `the broker holds no crawl named ${name}`);
    }
    throw new CrawlError(ErrorCodes.BROKER_UNREACHABLE, `the broker did not give the crawl ${name}'s bucket (${(err as Error).message})`, { cause: err });
  }
}

/**
 * Stores the definition if the crawl is new; a crawl whose coordinator beats within 3 s is
 * refused; one whose coordinator is gone keeps its stored definition (returned).
 */
export async function defineCrawl(kv: KV, def: ParallelDefinition, vector: PartVector | null): Promise<{ def: ParallelDefinition; resumed: boolean }> {
  const chunks = vector ? Math.ceil(vector.labels.length / VECTOR_CHUNK) : 0;
  const full = { ...def, vectorChunks: chunks };
  // Read back as a worker will read it: a definition the workers would refuse is never written
  // (a crawl that could not run, every worker refusing it at each start).
  parseDefinition(JSON.stringify(full));
  try {
    // Chunks first: the definition's key, written last with create-if-absent, is what makes the crawl exist.
    for (let c = 0; c < chunks; c++) {
      const slice = { labels: vector!.labels.slice(c * VECTOR_CHUNK, (c + 1) * VECTOR_CHUNK), parts: vector!.parts.slice(c * VECTOR_CHUNK, (c + 1) * VECTOR_CHUNK) };
      if ((await kvText(kv, 'definition')) === null) await kv.put(`vector.${c}`, JSON.stringify(slice));
    }
    await kv.create('definition', JSON.stringify(full));
    return { def: full, resumed: false };
  } catch (err) {
    const stored = await kvText(kv, 'definition');
    if (stored === null) throw err;
    const age = beatAge(await kvText(kv, 'coordinator'));
    if (age < 3 * HEARTBEAT_MS) {
      throw new CrawlError(ErrorCodes.PARALLEL_CRAWL_RUNNING, `the crawl ${def.name} is already running (its coordinator beat ${Math.round(age)} ms ago); wait for it, or stop it first`);
    }
    return { def: parseDefinition(stored), resumed: true };
  }
}

export async function readDefinition(kv: KV): Promise<{ def: ParallelDefinition; vector: PartVector | null }> {
  const e = await kvText(kv, 'definition');
  if (e === null) throw new CrawlError(ErrorCodes.PARALLEL_UNKNOWN_CRAWL, `the broker's bucket holds no crawl definition`);
  const def = parseDefinition(e);
  if (def.vectorChunks === 0) return { def, vector: null };
  const labels: string[] = [];
  const parts: number[] = [];
  for (let c = 0; c < def.vectorChunks; c++) {
    const chunk = await kvText(kv, `vector.${c}`);
    if (chunk === null) throw new CrawlError(ErrorCodes.PARALLEL_UNKNOWN_CRAWL, `the crawl ${def.name}'s part vector is incomplete in the broker (vector.${c} missing)`);
    const r = readJson(VectorChunk, chunk);
    if ('problem' in r) throw badDefinition(`part vector (vector.${c})`, r.problem);
    const out = r.ok.parts.findIndex((p) => p >= def.parts);
    if (out >= 0) throw badDefinition(`part vector (vector.${c})`, `parts.${out}: part ${r.ok.parts[out]} outside 0..${def.parts - 1}`);
    for (let i = 0; i < r.ok.labels.length; i++) {
      labels.push(r.ok.labels[i]!);
      parts.push(r.ok.parts[i]!);
    }
  }
  return { def, vector: { labels, parts, file: def.assign } };
}

/** The stream and one durable consumer per part (idempotent). */
export async function ensureStream(nc: NatsConnection, name: string, k: number, replicas: number): Promise<JetStreamManager> {
  const jsm = await jetstreamManager(nc);
  const stream = streamName(name);
  try {
    await jsm.streams.info(stream);
  } catch {
    // Duplicates are dropped by message id within 10 minutes: a worker's outbox is republished well within it.
    await replicated(replicas, () => jsm.streams.add({ name: stream, subjects: [`crawlbench.${name}.part.*`], duplicate_window: 600 * 1e9, num_replicas: replicas }));
  }
  for (let p = 0; p < k; p++) {
    try {
      await jsm.consumers.info(stream, consumerName(p));
    } catch {
      await jsm.consumers.add(stream, {
        durable_name: consumerName(p),
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: partSubject(name, p),
        // A worker acknowledges after its next commit (every second). Messages on the wire when a
        // worker was killed or paused are never acknowledged: they come back after this wait (a
        // broker started again keeps them pending that long), so it is short; a redelivery of a
        // message taken in is absorbed (exchange_seen).
        ack_wait: ACK_WAIT_MS * 1e6,
        max_ack_pending: 10_000,
      });
    }
  }
  return jsm;
}
