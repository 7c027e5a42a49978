import { CrawlError } from '../errors.js';
import { PARAMS } from '../policies/params.js';
import { crawlCommand, CRAWL_USAGE } from './crawl-command.js';
import { demoCommand, DEMO_USAGE } from './demo-command.js';
import { evalCommand, EVAL_USAGE } from './eval-command.js';
import { rankCommand, RANK_USAGE } from './rank-command.js';
import { serveCommand, SERVE_USAGE } from './serve-command.js';
import { simulateCommand, SIMULATE_USAGE } from './simulate-command.js';
import { testwebCommand, TESTWEB_USAGE } from './testweb-command.js';

const USAGE = `crawlbench — a workbench for crawling a national web domain

usage: crawlbench <command> [options]   (crawlbench <command> --help for details)

commands:
  crawl     crawl (or resume) into a SQLite crawl database
  demo      start the built-in demo web on loopback and crawl it to the end
  testweb   serve a generated national web (or a graph from files) on loopback
  rank      compute and store the PageRank of a crawl's pages (and sites)
  eval      measure a finished crawl's ordering against PageRank
  simulate  replay crawl policies on a stored web graph in virtual time and compare them
  serve     the workbench in a browser: UI and API on 127.0.0.1, guarded by a token

${CRAWL_USAGE}

${DEMO_USAGE}

${TESTWEB_USAGE}

${SERVE_USAGE}

${RANK_USAGE}

${EVAL_USAGE}

${SIMULATE_USAGE}
`;

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  crawl: crawlCommand,
  demo: demoCommand,
  testweb: testwebCommand,
  serve: serveCommand,
  rank: rankCommand,
  eval: evalCommand,
  simulate: simulateCommand,
};

/**
 * Entry point of the `crawlbench` command. Bad input prints one line naming the problem
 * and exits 2; an unexpected failure prints its stack and exits 1.
 */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(USAGE);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`crawlbench: unknown command "${name}" (try crawlbench --help)\n`);
    return 2;
  }
  try {
    return await command(rest);
  } catch (err) {
    if (err instanceof CrawlError) {
      process.stderr.write(`crawlbench ${name}: ${cliMessage(err)} [${err.code}]\n`);
      return err.isUserError ? 2 : 1;
    }
    process.stderr.write(`crawlbench ${name}: internal error: ${(err as Error).stack ?? String(err)}\n`);
    return 1;
  }
}

/** Settings whose flag is not their name in kebab case. */
const FLAG_NAMES: Record<string, string> = { maxPagesPerSite: '--max-site-pages', maxBodyBytes: '--max-body', seedText: '--seeds' };

/** The flag a setting is given with: `maxDepth` -> `--max-depth`, `policyParams.alpha` -> `--alpha`. */
export function flagOf(field: string): string {
  if (field.startsWith('policyParams.')) return PARAMS[field.slice(13)]?.flag ?? field;
  return FLAG_NAMES[field] ?? `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** An engine error names a setting field (as a form would show it); the CLI names the flag. */
function cliMessage(err: CrawlError): string {
  if (err.field === undefined || !err.message.startsWith(`${err.field}:`)) return err.message;
  return `${flagOf(err.field)}${err.message.slice(err.field.length)}`;
}
