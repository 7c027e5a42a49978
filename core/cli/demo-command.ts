import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Crawler } from '../engine/crawler.js';
import { CrawlError, ErrorCodes } from '../errors.js';
import { intFlag } from './args.js';
import { defineCommand } from './command.js';
import { runWithSignals } from './crawl-command.js';
import { summaryText } from './output.js';

const USAGE = `crawlbench demo [options]

Starts the demo national web (20,000 pages on 600 sites, latencies up to 20 ms) in its own
process on 127.0.0.1, crawls it to the end with w = 50ms, r = 64, and prints the summary
and where the database is. Nothing leaves this machine.
  --db FILE              the crawl database (default crawlbench-demo.db, or a new dated name
                         if that one exists)
  --sites N              demo sites (default 600)
  --pages N              demo pages, about (default 20000)
  --web-seed N           seed of the demo web (default 1): same seed, same web
  --r N                  simultaneous connections (default 64)
  --c N                  pages per keep-alive connection (default 10)
  --json                 print the summary as one JSON object on stdout
  --quiet                no live progress line`;

const OPTIONS = {
  db: { type: 'string' },
  sites: { type: 'string' },
  pages: { type: 'string' },
  r: { type: 'string' },
  c: { type: 'string' },
  'web-seed': { type: 'string' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean' },
} as const;

export const demoCommand = defineCommand({
  name: 'demo',
  summary: 'start the built-in demo web on loopback and crawl it to the end',
  usage: USAGE,
  options: OPTIONS,
  async run(flags) {
    let db = flags.db ?? 'crawlbench-demo.db';
    if (!flags.db && existsSync(db)) db = `crawlbench-demo-${new Date().toISOString().replace(/[:.]/g, '-')}.db`;
    const sites = intFlag(flags, 'sites', 1) ?? 600;
    const pages = intFlag(flags, 'pages', 1) ?? 20_000;
    const bin = fileURLToPath(new URL('../../../bin/crawlbench.js', import.meta.url));
    const tmp = mkdtempSync(join(tmpdir(), 'crawlbench-demo-'));
    const seedsFile = join(tmp, 'seeds.txt');
    const web = spawn(
      process.execPath,
      [bin, 'testweb', '--seeds-out', seedsFile, '--web-seed', String(intFlag(flags, 'web-seed', 0) ?? 1), '--sites', String(sites), '--pages', String(pages), '--latency', '20'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const info = await firstJsonLine(web);
      if (!flags.json) process.stderr.write(`demo web: ${info.sites} sites, ${info.pages} pages at ${info.url} (its own process)\n`);
      const crawler = Crawler.create(db, {
        // Every site's home page, as the thesis seeded its crawls from the registry's list of sites.
        seeds: readFileSync(seedsFile, 'utf8').split('\n').filter(Boolean),
        scope: { suffixes: ['.demo'] },
        resolve: [{ pattern: '*.demo', address: '127.0.0.1' }],
        w: 50,
        c: intFlag(flags, 'c', 1) ?? 10,
        r: intFlag(flags, 'r', 1) ?? 64,
        connectTimeout: 5000,
        headersTimeout: 10_000,
        bodyTimeout: 10_000,
        retryBase: 1000,
        // The demo web has robots.txt answering 500 on some sites: ask again sooner than a
        // real crawl would, so that the demo does not wait minutes for them at the end.
        robotsRetry: 5000,
        robotsMaxAttempts: 3,
      });
      const summary = await runWithSignals(crawler, !!flags.quiet || !!flags.json);
      crawler.close();
      if (flags.json) process.stdout.write(JSON.stringify(summary) + '\n');
      else process.stdout.write(summaryText(summary) + `\n\nThe crawl is in ${db}: open it with sqlite3, or crawl it further with crawlbench crawl --db ${db}\n`);
      return 0;
    } finally {
      web.kill('SIGTERM');
      rmSync(tmp, { recursive: true, force: true });
    }
  },
});

function firstJsonLine(child: ReturnType<typeof spawn>): Promise<{ url: string; port: number; sites: number; pages: number }> {
  return new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', (line) => {
      rl.close();
      try {
        resolve(JSON.parse(line));
      } catch {
        reject(new CrawlError(ErrorCodes.INTERNAL, `demo web did not start: ${line}`));
      }
    });
    child.once('exit', (code) => reject(new CrawlError(ErrorCodes.INTERNAL, `demo web exited with code ${code}`)));
  });
}
