import { decimal } from '../config/units.js';
import type { CrawlSummary } from '../engine/crawler.js';
import { CrawlError, DISK_FULL_EXIT, ErrorCodes, badOption } from '../errors.js';
import { storageFull } from '../parallel/broker.js';
import { runWorker } from '../parallel/worker.js';
import { defineCommand } from './command.js';
import { BROKER_OPTIONS, BROKER_USAGE, credentialsFromFlags } from './parallel-flags.js';

const USAGE = `crawlbench worker --broker nats://HOST:PORT --crawl NAME [--parts-to-take I,J,...] [--dir DIR] [--end-with-stdin]

A worker of a parallel crawl (crawl --parts K): reads the crawl's definition from the broker,
crawls the parts it takes, each into DIR/part-I.db, and exchanges URLs with the other parts
until the coordinator ends the crawl. Started again, it resumes from its databases.
  --crawl NAME           the crawl's name (its --db without .db)
  --parts-to-take LIST   the parts this process crawls (default: all of them)
  --dir DIR              where the part databases live (default NAME.parts)
  --end-with-stdin       pause (commit) and end when standard input closes: the coordinator
                         starts its workers so, and they end with it however it dies
SIGTERM or Ctrl-C pauses: every part commits and the worker ends. Exit codes: 3 when a part
paused because its disk (or --max-db-size, or the broker's storage) is full, and 2 when it refused
what it was given (its part file, the crawl's definition): the coordinator then pauses the whole
crawl; 1 when the broker did not answer or another process holds (or upgrades) its part file:
it starts the worker again later.
${BROKER_USAGE}`;

export const workerCommand = defineCommand({
  name: 'worker',
  summary: 'crawl parts of a parallel crawl whose definition a NATS broker holds',
  usage: USAGE,
  options: { ...BROKER_OPTIONS, crawl: { type: 'string' }, 'parts-to-take': { type: 'string' }, dir: { type: 'string' }, 'end-with-stdin': { type: 'boolean' } },
  async run(flags, positionals) {
    if (positionals.length > 0) throw badOption('arguments', `unexpected "${positionals[0]}"`);
    if (!flags.broker) throw badOption('--broker', 'required: the NATS server that holds the crawl (nats://HOST:PORT)');
    if (!flags.crawl) throw badOption('--crawl', 'required: the crawl name');
    const parts = flags['parts-to-take']?.split(',').map((s) => {
      const n = decimal(s);
      if (!Number.isInteger(n) || n < 0) throw badOption('--parts-to-take', `"${s}" is not a part number`);
      return n;
    });
    let summaries: CrawlSummary[];
    try {
      summaries = await runWorker({
        broker: flags.broker, credentials: credentialsFromFlags(flags), crawl: flags.crawl,
        ...(parts ? { parts } : {}), ...(flags.dir ? { dir: flags.dir } : {}), endWithStdin: !!flags['end-with-stdin'],
      });
    } catch (err) {
      // A broker away or a part file another process holds may be gone by the next start: exit 1,
      // which the coordinator answers by starting this again later (exit 2 pauses the crawl).
      if (err instanceof CrawlError && (err.code === ErrorCodes.BROKER_UNREACHABLE || err.code === ErrorCodes.DB_LOCKED || err.code === ErrorCodes.DB_UPGRADING)) {
        process.stderr.write(`crawlbench worker: ${err.message} [${err.code}]\n`);
        return 1;
      }
      // A full disk met outside the crawl's own pause (opening a part, the broker's store): the
      // same exit 3, so that the coordinator pauses the crawl rather than starting this again.
      if (!storageFull(err)) throw err;
      process.stderr.write(`crawlbench worker: the disk (or the broker's storage) is full: ${(err as Error).message} [${ErrorCodes.DISK_FULL}]\n`);
      return DISK_FULL_EXIT;
    }
    for (const s of summaries) process.stderr.write(`${s.db}: ${s.stopReason}, ${s.pagesFetched} pages fetched\n`);
    // As crawl's: 3 when a part paused because its disk (or --max-db-size) is full; the coordinator then pauses the crawl.
    return summaries.some((s) => s.stopReason === 'disk-full') ? DISK_FULL_EXIT : 0;
  },
});
