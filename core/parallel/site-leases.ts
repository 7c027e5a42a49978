/**
 * Politeness across workers (issue 25, item 3; docs/architecture.md, "Politeness across
 * workers"): with a page assignment a site's pages lie on several workers, and a per-site
 * lease in a JetStream KV bucket keeps at most one connection to a site across all of them,
 * and the site's gap (w, or its Crawl-delay) between their connections. Built only on what
 * Debian's nats-server 2.9.10 offers: create-if-absent, revision-checked updates, and the
 * bucket's max age (no per-key TTL).
 *
 * A key per site holds {holder, state: 'busy' | 'free', gapMs}.
 * - acquire: an absent key is created busy; a free key seen at revision n is taken with
 *   update(busy, n) once the gap has passed on this worker's monotonic clock since it first saw
 *   revision n (so the gap since the release is at least that long on any clock); a failed
 *   create or update means another worker took it first.
 * - hold: the holder rewrites its busy entry (revision-checked) every maxAge/3. Had it to stop
 *   writing, the server drops the entry maxAge after its last write; the holder itself treats
 *   the lease as lost at (send time of its last confirmed write) + maxAge - gap, so its last
 *   connection has ended a gap before the entry can vanish: durations on each clock, never a
 *   comparison of two clocks. A refresh that finds another revision: the lease was lost.
 * - release: update(free with the gap, myRevision).
 * A dead worker's leases are free at most maxAge after it died. Every KV operation is counted
 * (requests and bytes) apart from the link exchange.
 */
import { hostname } from 'node:os';
import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';
import { Kvm, type KV, type KvEntry } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { z } from 'zod';
import { CrawlError, ErrorCodes } from '../errors.js';
import { readJson } from './broker-input.js';

/** The least max age of the lease bucket: a dead worker's sites are free within it (3 s). */
export const MIN_LEASE_AGE_MS = 3000;

/** The bucket's max age for a crawl whose gap between connections is w: 3 w, at least 3 s. */
export function leaseMaxAge(w: number): number {
  return Math.max(MIN_LEASE_AGE_MS, 3 * w);
}

export const leaseBucketName = (crawl: string) => `crawlbench_${crawl}_leases`;

/** A site key in KV-safe characters: letters, digits and '-' kept, every other byte as _XX. */
export function leaseKey(site: string): string {
  let out = 'site.';
  for (const b of Buffer.from(site, 'utf8')) {
    const c = String.fromCharCode(b);
    out += /[A-Za-z0-9-]/.test(c) ? c : `_${b.toString(16).padStart(2, '0')}`;
  }
  return out;
}

interface LeaseValue {
  holder: string;
  state: 'busy' | 'free';
  /** For a free lease: how long after this entry the next connection may start. */
  gapMs: number;
}

const LeaseShape = z.object({ holder: z.string(), state: z.enum(['busy', 'free']), gapMs: z.number().nonnegative().finite() });

/**
 * A lease as a worker wrote it, or null: the bucket is input like the exchange's messages (any
 * process that reaches the broker may write it). Before, a value that was not JSON threw and
 * the worker died, was started again and died on it again; a gap of 10^12 ms held the site for ever.
 */
export function readLease(text: string): LeaseValue | null {
  const r = readJson(LeaseShape, text);
  return 'ok' in r ? r.ok : null;
}

export type LostReason = 'expired' | 'taken';

interface Held {
  revision: number;
  gapMs: number;
  /** Local monotonic time at which the last confirmed write was sent. */
  confirmedSentAt: number;
  lost: LostReason | null;
  /** Set while the holder keeps a released site through a gap longer than the entry lives. */
  coolUntil: number | null;
}

export interface LeaseTraffic {
  /** KV operations sent (get, create, update). */
  requests: number;
  /** Bytes of keys and values sent and received. */
  bytes: number;
}

export interface SiteLeaseOptions {
  /** How often a held lease is rewritten (default maxAge / 3). */
  refreshMs?: number;
  /**
   * Told when a lease stops being trusted: 'expired', no write confirmed for maxAge - gap;
   * 'taken', a refresh found another revision.
   */
  onLost?: (site: string, why: LostReason) => void;
  /** How long to wait before asking again for a busy site (default max(gap, 50 ms)). */
  busyRetryMs?: number;
}

const monotonic = () => performance.now();
const encoder = new TextEncoder();

export class SiteLeases {
  readonly traffic: LeaseTraffic = { requests: 0, bytes: 0 };
  private readonly held = new Map<string, Held>();
  /** A free revision seen, and when (local monotonic ms). */
  private readonly seen = new Map<string, { revision: number; at: number }>();
  private readonly timer: NodeJS.Timeout;
  private refreshing = false;

  constructor(
    private readonly kv: KV,
    readonly holder: string,
    readonly maxAgeMs: number,
    private readonly opts: SiteLeaseOptions = {},
  ) {
    this.timer = setInterval(() => void this.refreshAll(), opts.refreshMs ?? maxAgeMs / 3);
    this.timer.unref();
  }

  /** Opens (or creates, with `replicas` copies) the crawl's lease bucket, whose max age bounds a dead worker's leases. */
  static async bucket(nc: NatsConnection, crawl: string, maxAgeMs: number, replicas = 1): Promise<KV> {
    const kvm = new Kvm(nc);
    try {
      return await kvm.create(leaseBucketName(crawl), { history: 1, ttl: maxAgeMs, replicas });
    } catch {
      return await kvm.open(leaseBucketName(crawl));
    }
  }

  /**
   * Asks for the site once: null when this worker now holds it (until release()), else how
   * many ms to wait before asking again. `gapMs`: this worker's gap for the site.
   */
  async tryAcquire(site: string, gapMs: number): Promise<number | null> {
    const mine = this.held.get(site);
    if (mine) return mine.coolUntil !== null ? Math.max(1, mine.coolUntil - monotonic()) : this.busyRetry(gapMs);
    const entry = await this.read(site);
    if (entry === null) {
      if (await this.write(site, gapMs, (data) => this.kv.create(leaseKey(site), data))) return null;
      this.traffic.requests++; // a refused create: the client reads the key once more to tell a deleted one
      return this.busyRetry(gapMs);
    }
    const value = readLease(entry.string());
    // One not of a worker's making is waited out as a busy one: nobody refreshes it, and the bucket drops it within its max age.
    if (value === null || value.state === 'busy') return this.busyRetry(gapMs);
    // A worker frees a site with a gap of at most 2/3 of the max age (release()): a longer one would hold the site for ever.
    const gap = Math.max(gapMs, Math.min(value.gapMs, this.maxAgeMs));
    let seen = this.seen.get(site);
    if (!seen || seen.revision !== entry.revision) this.seen.set(site, (seen = { revision: entry.revision, at: monotonic() }));
    const left = gap - (monotonic() - seen.at);
    if (left > 0) return left;
    return (await this.write(site, gapMs, (data) => this.kv.update(leaseKey(site), data, entry.revision))) ? null : this.busyRetry(gapMs);
  }

  /** Waits until this worker holds the site (or `stop` says to give up: false). */
  async acquire(site: string, gapMs: number, stop: () => boolean = () => false): Promise<boolean> {
    while (!stop()) {
      const wait = await this.tryAcquire(site, gapMs);
      if (wait === null) return true;
      await sleep(wait);
    }
    return false;
  }

  /**
   * The connection to the site ended: the next may start `gapMs` later. A gap longer than a
   * free entry safely lives (2/3 of the max age) is spent holding the site first.
   */
  async release(site: string, gapMs: number): Promise<void> {
    const h = this.held.get(site);
    if (!h || h.coolUntil !== null) return;
    const freeGap = Math.min(gapMs, (2 * this.maxAgeMs) / 3);
    if (freeGap < gapMs) {
      h.coolUntil = monotonic() + gapMs - freeGap;
      await sleep(gapMs - freeGap);
    }
    this.held.delete(site);
    if (h.lost !== null) return;
    const value: LeaseValue = { holder: this.holder, state: 'free', gapMs: freeGap };
    try {
      const rev = await this.counted(leaseKey(site), JSON.stringify(value), (data) => this.kv.update(leaseKey(site), data, h.revision));
      // This worker saw its own release as it happened: its own next connection counts from here.
      this.seen.set(site, { revision: rev, at: monotonic() });
    } catch {
      // Taken meanwhile, or the broker is away: the entry expires within the max age.
    }
  }

  /**
   * True once the lease can no longer be trusted: a refresh found it taken, or no write was
   * confirmed for maxAge - gap since it was sent (the entry may vanish a gap later).
   */
  isLost(site: string): boolean {
    const h = this.held.get(site);
    if (!h) return false;
    if (!h.lost && monotonic() - h.confirmedSentAt > this.maxAgeMs - h.gapMs) this.markLost(site, h, 'expired');
    return h.lost !== null;
  }

  /** Sites held now. */
  holding(): string[] {
    return [...this.held.keys()];
  }

  /** Stops refreshing (leases still held then expire within the max age). */
  close(): void {
    clearInterval(this.timer);
  }

  private busyValue(): string {
    return JSON.stringify({ holder: this.holder, state: 'busy', gapMs: 0 } satisfies LeaseValue);
  }

  private busyRetry(gapMs: number): number {
    return this.opts.busyRetryMs ?? Math.max(gapMs, 50);
  }

  private async read(site: string): Promise<KvEntry | null> {
    const key = leaseKey(site);
    this.traffic.requests++;
    this.traffic.bytes += key.length;
    const e = await this.kv.get(key);
    if (!e || e.operation !== 'PUT') return null;
    this.traffic.bytes += e.value.length;
    return e;
  }

  /** A create or update that makes this worker the holder; false when another won. */
  private async write(site: string, gapMs: number, op: (data: string) => Promise<number>): Promise<boolean> {
    const sentAt = monotonic();
    try {
      const revision = await this.counted(leaseKey(site), this.busyValue(), op);
      this.held.set(site, { revision, gapMs, confirmedSentAt: sentAt, lost: null, coolUntil: null });
      this.seen.delete(site);
      return true;
    } catch (err) {
      if (isConflict(err)) return false;
      throw new CrawlError(ErrorCodes.BROKER_UNREACHABLE, `site lease for ${site}: ${(err as Error).message}`);
    }
  }

  private async counted(key: string, data: string, op: (data: string) => Promise<number>): Promise<number> {
    this.traffic.requests++;
    this.traffic.bytes += key.length + encoder.encode(data).length;
    return op(data);
  }

  private async refreshAll(): Promise<void> {
    if (this.refreshing) return;
    this.refreshing = true;
    try {
      // A lease expired here is still refreshed: the refresh tells whether another took it.
      for (const [site, h] of this.held) if (h.lost !== 'taken') await this.refresh(site, h);
    } finally {
      this.refreshing = false;
    }
  }

  private async refresh(site: string, h: Held): Promise<void> {
    const sentAt = monotonic();
    try {
      h.revision = await this.counted(leaseKey(site), this.busyValue(), (data) => this.kv.update(leaseKey(site), data, h.revision));
      h.confirmedSentAt = sentAt;
    } catch (err) {
      if (isConflict(err)) this.markLost(site, h, 'taken');
      // Otherwise the broker is away: isLost() says when the lease stops being trusted.
    }
  }

  private markLost(site: string, h: Held, why: LostReason): void {
    h.lost = why;
    this.opts.onLost?.(site, why);
  }
}

/** The server refused a create or update because the key is not at the revision asked. */
function isConflict(err: unknown): boolean {
  return err instanceof JetStreamApiError && (err.code === JetStreamApiCodes.StreamWrongLastSequence || err.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A worker's leases for part `part` of the crawl: the bucket's max age from the crawl's w (leaseMaxAge). */
export async function partLeases(nc: NatsConnection, crawl: string, part: number, w: number, replicas: number): Promise<SiteLeases> {
  const maxAge = leaseMaxAge(w);
  return new SiteLeases(await SiteLeases.bucket(nc, crawl, maxAge, replicas), `part-${part}@${hostname()}:${process.pid}`, maxAge);
}
