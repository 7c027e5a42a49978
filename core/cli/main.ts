import { CrawlError, ErrorCodes, clipped, sqliteFileError } from '../errors.js';
import { onMigration } from '../store/migration-notice.js';
import { PARAMS } from '../policies/params.js';
import type { Command } from './command.js';

/**
 * Every command, in the order `crawlbench --help` lists them: a new command is one entry here.
 * Each is loaded when it runs (or when the help lists them all), so a crawl does not load
 * the export writers, the partitioners or the engine API with every other command's modules.
 */
const COMMAND_FILES: ReadonlyArray<readonly [string, () => Promise<Command>]> = [
  ['crawl', async () => (await import('./crawl-command.js')).crawlCommand],
  ['demo', async () => (await import('./demo-command.js')).demoCommand],
  ['testweb', async () => (await import('./testweb-command.js')).testwebCommand],
  ['serve', async () => (await import('./serve-command.js')).serveCommand],
  ['rank', async () => (await import('./rank-command.js')).rankCommand],
  ['eval', async () => (await import('./eval-command.js')).evalCommand],
  ['export', async () => (await import('./export-command.js')).exportCommand],
  ['simulate', async () => (await import('./simulate-command.js')).simulateCommand],
  ['compare', async () => (await import('./compare-command.js')).compareCommand],
  ['export-graph', async () => (await import('./export-graph-command.js')).exportGraphCommand],
  ['partition-eval', async () => (await import('./partition-eval-command.js')).partitionEvalCommand],
  ['partition', async () => (await import('./partition-command.js')).partitionCommand],
  ['reproduce', async () => (await import('./reproduce-command.js')).reproduceCommand],
  ['worker', async () => (await import('./worker-command.js')).workerCommand],
  ['merge', async () => (await import('./merge-command.js')).mergeCommand],
];

/** The command table, every command loaded. */
export async function loadCommands(): Promise<Command[]> {
  return Promise.all(COMMAND_FILES.map(([, load]) => load()));
}

/** `crawlbench --help`: each command's name and summary, then each command's usage. */
export async function helpText(): Promise<string> {
  const COMMANDS = await loadCommands();
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
    process.stdout.write(await helpText());
    if (!name) process.stderr.write(`crawlbench: no command given (the commands are listed above) [${ErrorCodes.BAD_OPTION}]\n`);
    return name ? 0 : 2;
  }
  const load = COMMAND_FILES.find(([n]) => n === name)?.[1];
  if (!load) {
    process.stderr.write(`crawlbench: unknown command ${JSON.stringify(clipped(name, 100))} (try crawlbench --help) [${ErrorCodes.BAD_OPTION}]\n`);
    return 2;
  }
  // A crawl file made by an earlier crawlbench is brought up to date as a command opens it:
  // minutes for millions of pages (its links are rewritten), so the command says so first.
  onMigration((path, from, to) => {
    process.stderr.write(`crawlbench ${name}: bringing ${path} up to this version's schema (${to}, from ${from}); for a large crawl this takes minutes (about 3 s per million links)\n`);
  });
  try {
    const command = await load();
    if (command.name !== name) throw new Error(`the command table names ${name} for the command ${command.name}`);
    return await command.invoke(rest);
  } catch (thrown) {
    const err = sqliteFileError(thrown) ?? thrown;
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
