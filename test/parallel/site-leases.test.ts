/**
 * Politeness across workers (issue 25, item 3): per-site leases in a JetStream KV bucket of a
 * real nats-server, each worker a SiteLeases client on its own NATS connection. Two or three
 * workers competing for a site never hold it at once and start their connections at least w
 * apart; a worker that dies without releasing frees its site within the bucket's max age; the
 * lease traffic is counted; a worker whose lease was taken learns it at its refresh.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { KV } from '@nats-io/kv';
import { EmbeddedBroker, findNatsServer } from '../../core/parallel/broker.js';
import { SiteLeases, leaseKey, leaseMaxAge } from '../../core/parallel/site-leases.js';
import { tmpDir } from '../helpers/tmp.js';
import { describeWith } from '../references.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const now = () => performance.now();

describeWith(['nats-server'], 'site leases: politeness across workers over a JetStream KV bucket', () => {
  let broker: EmbeddedBroker;
  const conns: NatsConnection[] = [];
  const W = 300;
  const MAX_AGE = leaseMaxAge(W); // 3 s: the least max age

  // The broker's folder made while the suite is read: from a beforeAll, an afterAll (tmpDir's removal) never runs.
  const store = tmpDir('crawlbench-leases-');
  beforeAll(async () => {
    broker = await EmbeddedBroker.start(findNatsServer(), store, null, () => {});
  }, 20_000);

  afterAll(async () => {
    for (const nc of conns) await nc.close().catch(() => {});
    await broker?.stop();
  });

  /** A worker: its own connection to the broker, and its SiteLeases on the crawl's bucket. */
  async function worker(crawl: string, holder: string, opts: ConstructorParameters<typeof SiteLeases>[3] = {}): Promise<{ nc: NatsConnection; kv: KV; leases: SiteLeases }> {
    const nc = await connect({ servers: `127.0.0.1:${broker.port}`, name: holder });
    conns.push(nc);
    const kv = await SiteLeases.bucket(nc, crawl, MAX_AGE);
    return { nc, kv, leases: new SiteLeases(kv, holder, MAX_AGE, opts) };
  }

  it('three workers competing for one site: never two holders at once, their connections at least w apart', async () => {
    const workers = await Promise.all(['w0', 'w1', 'w2'].map((h) => worker('compete', h)));
    const holds: { holder: string; start: number; end: number }[] = [];
    await Promise.all(
      workers.map(async ({ leases }) => {
        for (let i = 0; i < 4; i++) {
          expect(await leases.acquire('a.demo:8080', W)).toBe(true);
          const start = now();
          await sleep(80); // the connection
          holds.push({ holder: leases.holder, start, end: now() });
          await leases.release('a.demo:8080', W);
        }
      }),
    );
    expect(holds).toHaveLength(12);
    holds.sort((a, b) => a.start - b.start);
    for (let i = 1; i < holds.length; i++) {
      // The next connection starts w after the last one ended, whichever worker holds it.
      expect(holds[i]!.start - holds[i - 1]!.end, `${holds[i - 1]!.holder} then ${holds[i]!.holder}`).toBeGreaterThanOrEqual(W);
    }
    // Every worker had its turns: the lease moved between them.
    expect(new Set(holds.map((h) => h.holder)).size).toBe(3);
    for (const { leases } of workers) leases.close();
  }, 30_000);

  it('a worker that dies holding a site frees it within the bucket\'s max age, and not before w', async () => {
    const dead = await worker('dies', 'dead');
    const { leases } = await worker('dies', 'alive');
    expect(await dead.leases.acquire('b.demo', W)).toBe(true);
    await sleep(MAX_AGE / 2); // it held the site a while, refreshing it
    // It dies: no release, no more refreshes, its connection gone.
    dead.leases.close();
    await dead.nc.close();
    const diedAt = now();
    expect(await leases.tryAcquire('b.demo', W)).not.toBeNull();
    expect(await leases.acquire('b.demo', W)).toBe(true);
    const freedAfter = now() - diedAt;
    expect(freedAfter).toBeGreaterThanOrEqual(W);
    // The stated bound: the max age after its last write (plus the server's expiry sweep and our poll).
    expect(freedAfter).toBeLessThanOrEqual(MAX_AGE + 1000);
    leases.close();
  }, 20_000);

  it('counts every lease operation, its requests and bytes, apart from the exchange', async () => {
    const { kv, leases } = await worker('traffic', 't0');
    const key = leaseKey('c.demo:80');
    expect(key).toMatch(/^[-/_=.a-zA-Z0-9]+$/);
    expect(await leases.tryAcquire('c.demo:80', 0)).toBeNull(); // a read (absent) and a create
    const busy = (await kv.get(key))!;
    expect(leases.traffic.requests).toBe(2);
    expect(leases.traffic.bytes).toBe(2 * key.length + busy.value.length);
    await leases.release('c.demo:80', 0); // an update to free
    const free = (await kv.get(key))!;
    expect(JSON.parse(free.string())).toMatchObject({ holder: 't0', state: 'free' });
    expect(leases.traffic.requests).toBe(3);
    expect(leases.traffic.bytes).toBe(3 * key.length + busy.value.length + free.value.length);
    leases.close();
  }, 20_000);

  it('a worker whose lease expired (it stalled past the max age) stops trusting it, and learns at its refresh that another took it', async () => {
    const lost: string[] = [];
    // Refreshing later than the max age: a worker stalled that long.
    const stalled = await worker('lost', 'stalled', { refreshMs: MAX_AGE + 1500, onLost: (s, why) => lost.push(`${s} ${why}`) });
    const other = await worker('lost', 'other');
    expect(await stalled.leases.acquire('d.demo', W)).toBe(true);
    const heldAt = now();
    expect(stalled.leases.isLost('d.demo')).toBe(false);
    // Before the entry can vanish (max age after the write), the holder stops trusting it.
    await sleep(MAX_AGE - W + 50);
    expect(now() - heldAt).toBeLessThan(MAX_AGE);
    expect(stalled.leases.isLost('d.demo')).toBe(true);
    expect(lost).toEqual(['d.demo expired']);
    // The entry expires and the other worker takes the site.
    expect(await other.leases.acquire('d.demo', W)).toBe(true);
    // The stalled worker's refresh finds another revision: the lease was lost.
    const until = now() + MAX_AGE + 3000;
    while (lost.length < 2 && now() < until) await sleep(100);
    expect(lost).toEqual(['d.demo expired', 'd.demo taken']);
    const entry = await other.kv.get(leaseKey('d.demo'));
    expect(JSON.parse(entry!.string())).toMatchObject({ holder: 'other', state: 'busy' });
    stalled.leases.close();
    other.leases.close();
  }, 30_000);

  it("lease values not of a worker's making (not JSON, missing fields, a gap of 10^12 ms) neither crash a worker nor hold a site past the bucket's max age", async () => {
    // Before: JSON.parse threw in tryAcquire (the worker died, was started again, died again), and a free lease with gapMs 1e12 held its site for ever.
    const { kv, leases } = await worker('garbage', 'g0');
    const started = now();
    await kv.put(leaseKey('e.demo'), 'garbage{');
    await kv.put(leaseKey('f.demo'), JSON.stringify({ holder: 'x', state: 'free' }));
    await kv.put(leaseKey('g.demo'), JSON.stringify({ holder: 'x', state: 'free', gapMs: 1e12 }));
    const took = await Promise.all(['e.demo', 'f.demo', 'g.demo'].map(async (site) => {
      expect(await leases.tryAcquire(site, W)).toBeGreaterThan(0); // waited out, not thrown
      expect(await leases.acquire(site, W)).toBe(true);
      return now() - started;
    }));
    // Each within the max age after it was written (plus the server's expiry sweep and the poll), and the 10^12 gap too.
    for (const t of took) expect(t).toBeLessThanOrEqual(MAX_AGE + 1500);
    leases.close();
  }, 20_000);
});
