/**
 * The flags of a parallel crawl (issue 25): `crawl --parts K ...` and `crawlbench worker`
 * share the broker's; the crawl adds the assignment's. Declared here so that crawl-command.ts
 * only spreads them into its options and hands over to parallel-crawl.ts.
 */
import { ParallelShapeSchema } from '../api/parallel-request-schema.js';
import { checkWith } from '../config/request-words.js';
import { badOption } from '../errors.js';
import type { PartModel } from '../parallel/assignment.js';
// Not broker.js: that loads the NATS client, which a crawl without --parts never needs.
import { credentialsFromEnv, type BrokerCredentials } from '../parallel/broker-credentials.js';

export const BROKER_OPTIONS = {
  broker: { type: 'string' },
  'nats-user': { type: 'string' },
  'nats-password': { type: 'string' },
  'nats-token': { type: 'string' },
  'nats-nkey': { type: 'string' },
} as const;

export const PARALLEL_OPTIONS = {
  ...BROKER_OPTIONS,
  parts: { type: 'string' },
  model: { type: 'string' },
  assign: { type: 'string' },
  ids: { type: 'string' },
  'new-urls': { type: 'string' },
  'local-workers': { type: 'string' },
  'nats-server': { type: 'string' },
  'predict-from': { type: 'string' },
  'exchange-batch': { type: 'string' },
  replicas: { type: 'string' },
} as const;

export const BROKER_USAGE = `  --broker nats://HOST:PORT   a running NATS server with JetStream (default: crawlbench starts
                         nats-server on 127.0.0.1 with its storage beside the crawl); for a
                         NATS cluster, several of its servers separated by commas
  --nats-user U --nats-password P | --nats-token T | --nats-nkey FILE
                         the broker's credentials (required for a broker outside loopback;
                         also read from CRAWLBENCH_NATS_USER, _PASSWORD, _TOKEN, _NKEY_FILE)`;

export const PARALLEL_USAGE = `parallel crawl (docs/design.md section 6; README "Parallel crawling"):
  --parts K              crawl with K workers exchanging URLs over NATS JetStream; the crawl
                         is merged into --db when it ends (the parts stay in NAME.parts)
  --model page|site      what the assignment gives out: pages or whole sites
  --assign hash|FILE     hash: partition-eval's hash (FNV-1a of the URL, or of the site key);
                         FILE: a part vector (gpmetis, KaHyPar, the Zoltan driver) of a graph
                         export-graph wrote from an earlier crawl
  --ids MAP              that graph's id map (default: GRAPH.ids.tsv beside FILE)
  --new-urls discoverer|hash  a page model's URL the vector does not name: the worker that
                         found it (default, the thesis's rule) or the hash of the URL
  --local-workers N      worker processes started here, for parts 0..N-1 (default K); the
                         rest need crawlbench worker --broker URL --crawl NAME
                         --parts-to-take I,J,... (elsewhere: give --broker a server they reach)
  --nats-server PATH     the nats-server program (default: PATH, then /usr/sbin/nats-server)
  --predict-from DB      print partition-eval's prediction of the exchange on this earlier
                         crawl's graph beside the measured one
  --exchange-batch DURATION  hold the URLs found for each other part this long (2s, 500ms) and
                         send them in one message: fewer, larger messages against delay; the
                         summary states what batching merged (default: one message per page)
  --replicas N           copies the broker keeps of the crawl's stream and buckets, 1 to 5
                         (default: 3 on a NATS cluster of 3 servers or more, else 1)
${BROKER_USAGE}`;

type BrokerFlags = { [K in keyof typeof BROKER_OPTIONS]?: string | undefined };

export function credentialsFromFlags(flags: BrokerFlags): BrokerCredentials {
  const c = credentialsFromEnv();
  if (flags['nats-user'] !== undefined) c.user = flags['nats-user'];
  if (flags['nats-password'] !== undefined) c.password = flags['nats-password'];
  if (flags['nats-token'] !== undefined) c.token = flags['nats-token'];
  if (flags['nats-nkey'] !== undefined) c.nkeyFile = flags['nats-nkey'];
  if ((c.user === undefined) !== (c.password === undefined)) throw badOption('--nats-user', 'give --nats-user and --nats-password together');
  return c;
}

/** The schema's fields and the flags that give them. */
const SHAPE_FLAGS: Record<string, string> = { parts: '--parts', model: '--model' };

/**
 * --parts and --model through the parallel options' schema (api/parallel-request-schema.ts), so
 * the CLI refuses a bad K or model in the words the workbench's form and the API use. The model
 * may be named as partition-eval names it (page-hypergraph is the page model's).
 */
export function parallelShapeOfFlags(flags: { parts?: string; model?: string }): { parts: number; model: PartModel } {
  if (flags.model === undefined) throw badOption('--model', 'required with --parts: page or site (whose vertices the assignment gives out)');
  const parts = flags.parts !== undefined && /^\s*-?\d+(\.\d+)?\s*$/.test(flags.parts) ? Number(flags.parts) : flags.parts;
  const model = flags.model.replace(/-hypergraph$/, '');
  const checked = checkWith(ParallelShapeSchema, { parts, model }, 'a parallel crawl');
  if (checked.ok) return checked.value;
  const first = checked.refusals[0]!;
  throw badOption(SHAPE_FLAGS[first.field] ?? `--${first.field}`, first.problem);
}
