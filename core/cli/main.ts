import { compareCommand } from './compare-command.js';
import { CrawlError } from '../errors.js';
import { PARAMS } from '../policies/params.js';
import type { Command } from './command.js';
import { crawlCommand } from './crawl-command.js';
import { demoCommand } from './demo-command.js';
import { evalCommand } from './eval-command.js';
import { exportCommand } from './export-command.js';
import { exportGraphCommand } from './export-graph-command.js';
import { partitionCommand } from './partition-command.js';
import { partitionEvalCommand } from './partition-eval-command.js';
import { rankCommand } from './rank-command.js';
import { serveCommand } from './serve-command.js';
import { simulateCommand } from './simulate-command.js';
import { testwebCommand } from './testweb-command.js';

/** Every command, in the order `crawlbench --help` lists them: a new command is one entry here. */
export const COMMANDS: readonly Command[] = [crawlCommand, demoCommand, testwebCommand, serveCommand, rankCommand, evalCommand, exportCommand, simulateCommand, compareCommand, exportGraphCommand, partitionEvalCommand, partitionCommand];

/** `crawlbench --help`: each command's name and summary, then each command's usage. */
export function helpText(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return `crawlbench — a workbench for crawling a national web domain

usage: crawlbench <command> [options]   (crawlbench <command> --help for details)

commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`).join('\n')}

${COMMANDS.map((c) => c.usage).join('\n\n')}
`;
}

/**
 * Entry point of the `crawlbench` command. Bad input prints one line naming the problem
 * and exits 2; an unexpected failure prints its stack and exits 1.
 */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(helpText());
    return name ? 0 : 2;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`crawlbench: unknown command "${name}" (try crawlbench --help)\n`);
    return 2;
  }
  try {
    return await command.invoke(rest);
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
