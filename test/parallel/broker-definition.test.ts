/**
 * What the broker holds of a parallel crawl is input (README "Parallel crawling"): anyone who
 * can write the crawl's bucket may have written it. A definition or part vector that is not one
 * crawlbench wrote is refused in one line with CRAWL_PARALLEL_BAD_DEFINITION, by a worker and by
 * a coordinator resuming the crawl; before, a missing field crashed every worker with a
 * TypeError, and the coordinator started them again for ever. The built `crawlbench` against a
 * real nats-server.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { Kvm } from '@nats-io/kv';
import { Crawler } from '../../core/engine/crawler.js';
import { EmbeddedBroker, findNatsServer } from '../../core/parallel/broker.js';
import { parseDefinition, parseStatus, type ParallelDefinition } from '../../core/parallel/definition.js';
import { crawlbench } from '../helpers/run.js';
import { tmpDir } from '../helpers/tmp.js';
import { describeWith } from '../references.js';

const dir = tmpDir('crawlbench-broker-definition-');

/** A definition as a coordinator writes it, for a crawl of 2 parts. */
function good(name: string): ParallelDefinition {
  const settings = Crawler.plan({ seeds: ['http://a.test/'], w: 0, maxPages: 10 }, {});
  return { name, parts: 2, model: 'site', assign: 'hash', newUrls: 'discoverer', settings, maxPagesShare: [5, 5], exchangeBatchMs: 0, replicas: 1, vectorChunks: 0, createdAt: new Date().toISOString() };
}

it('a definition as written reads back as it was; one of another shape is refused naming its field', () => {
  const def = good('x');
  expect(parseDefinition(JSON.stringify(def))).toEqual(def);
  // --exchange-batch 1.5ms, as the CLI reads it (a count would have refused a crawl the coordinator itself wrote).
  expect(parseDefinition(JSON.stringify({ ...def, exchangeBatchMs: 1.5 })).exchangeBatchMs).toBe(1.5);
  const refused = (text: string) => {
    try {
      parseDefinition(text);
    } catch (err) {
      return `${(err as Error & { code: string }).code} ${(err as Error).message}`;
    }
    return 'read';
  };
  expect(refused('{')).toMatch(/^CRAWL_PARALLEL_BAD_DEFINITION the broker's crawl definition is not one crawlbench wrote \(not JSON/);
  const { settings: _, ...noSettings } = def;
  expect(refused(JSON.stringify(noSettings))).toMatch(/\(settings: /);
  expect(refused(JSON.stringify({ ...def, parts: 0 }))).toMatch(/\(parts: /);
  expect(refused(JSON.stringify({ ...def, maxPagesShare: [10] }))).toMatch(/maxPagesShare: 1 shares for 2 parts/);
  expect(refused(JSON.stringify({ ...def, settings: { ...def.settings, w: -5 } }))).toMatch(/\(settings\.w: /);
  expect(parseStatus(JSON.stringify({ part: 1 }), 1)).toMatchObject({ problem: expect.stringMatching(/^pid: /) });
  const status = { part: 1, pid: 7, host: 'h', idle: true, pagesFetched: 3, queued: 0, sent: 1, received: 2, outbox: 0, pagesPerSecond: 1.5, beat: 4, state: 'running' };
  expect(parseStatus(JSON.stringify(status), 1)).toEqual({ status });
  expect(parseStatus(JSON.stringify(status), 0)).toEqual({ problem: 'it names part 1' });
});

describeWith(['nats-server'], "a parallel crawl's definition in the broker, refused when it is not crawlbench's", () => {
  let broker: EmbeddedBroker;
  let nc: NatsConnection;

  beforeAll(async () => {
    broker = await EmbeddedBroker.start(findNatsServer(), join(dir, 'broker'), null, () => {});
    nc = await connect({ servers: broker.url });
  }, 20_000);

  afterAll(async () => {
    await nc?.close();
    await broker?.stop();
  });

  /** The crawl `name`'s bucket holding `entries` (key: value), as a coordinator's would. */
  async function bucket(name: string, entries: Record<string, string>): Promise<void> {
    const kv = await new Kvm(nc).create(`crawlbench_${name}`, { history: 1 });
    for (const [k, v] of Object.entries(entries)) await kv.put(k, v);
  }

  /** `crawlbench worker` for the crawl: exit 2 and one line. */
  async function workerRefuses(name: string): Promise<string> {
    const r = await crawlbench(['worker', '--broker', broker.url, '--crawl', name, '--dir', join(dir, `${name}.parts`)], { killAfterMs: 30_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    return r.stderr;
  }

  it('a worker refuses a definition missing a field, or with settings no crawl could have, or a part vector naming a part outside 0..K-1', async () => {
    const { settings: _, ...noSettings } = good('nosettings');
    await bucket('nosettings', { definition: JSON.stringify(noSettings) });
    expect(await workerRefuses('nosettings')).toMatch(/^crawlbench worker: the broker's crawl definition is not one crawlbench wrote \(settings: .*\[CRAWL_PARALLEL_BAD_DEFINITION\]$/m);
    const d = good('badw');
    await bucket('badw', { definition: JSON.stringify({ ...d, settings: { ...d.settings, maxDepth: 'deep' } }) });
    expect(await workerRefuses('badw')).toMatch(/\(settings\.maxDepth: .*\[CRAWL_PARALLEL_BAD_DEFINITION\]/);
    await bucket('badvector', { definition: JSON.stringify({ ...good('badvector'), assign: 'v.parts', vectorChunks: 1 }), 'vector.0': JSON.stringify({ labels: ['a.test', 'b.test'], parts: [0, 7] }) });
    expect(await workerRefuses('badvector')).toMatch(/the broker's part vector \(vector\.0\) is not one crawlbench wrote \(parts\.1: part 7 outside 0\.\.1\)/);
  }, 60_000);

  it('a coordinator resuming a crawl whose stored definition is not crawlbench\'s refuses it in one line, starting no worker', async () => {
    const { model: _, ...noModel } = good('resumebad');
    await bucket('resumebad', { definition: JSON.stringify(noModel) });
    const r = await crawlbench(['crawl', '--db', join(dir, 'resumebad.db'), '--seed', 'http://a.test/', '--parts', '2', '--model', 'site', '--assign', 'hash', '--broker', broker.url], { killAfterMs: 30_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^crawlbench crawl: the broker's crawl definition is not one crawlbench wrote \(model: .*\[CRAWL_PARALLEL_BAD_DEFINITION\]$/m);
    expect(r.stderr).not.toMatch(/worker \d/);
  }, 60_000);
});
