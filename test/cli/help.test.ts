/**
 * A user learns the CLI from `--help`: every option a command accepts must be named in its
 * help, and `crawlbench --help` must list every command. Both are read from the CLI's one
 * command table (core/cli/main.ts), so a flag added without its line in the usage fails here.
 */
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineCommand } from '../../core/cli/command.js';
import { loadCommands } from '../../core/cli/main.js';

const COMMANDS = await loadCommands();
import { crawlbench } from '../helpers/run.js';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The options (as --key) that no option line of a help text names: a line that starts with
 * `--` (`  --w DURATION  wait ...`, or `  --connect-timeout, --headers-timeout DURATION`). A
 * flag only in the synopsis is not explained, and `--seeds` does not name `--seed`.
 */
function undocumented(options: Readonly<Record<string, unknown>>, help: string): string[] {
  const optionLines = help.split('\n').filter((line) => line.trimStart().startsWith('--'));
  return Object.keys(options)
    .map((key) => `--${key}`)
    .filter((flag) => !optionLines.some((line) => new RegExp(`${escape(flag)}(?![\\w-])`).test(line)));
}

describe('crawlbench <command> --help', () => {
  it('the table holds every command file of core/cli (NAME-command.ts), and nothing else', () => {
    const files = readdirSync(new URL('../../core/cli/', import.meta.url)).filter((f) => f.endsWith('-command.ts')).map((f) => f.replace(/-command\.ts$/, ''));
    expect(files.length).toBeGreaterThanOrEqual(8);
    expect(COMMANDS.map((c) => c.name).sort()).toEqual(files.sort());
  });

  for (const command of COMMANDS) {
    it(`${command.name} --help names every option ${command.name} accepts`, async () => {
      const r = await crawlbench([command.name, '--help']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(command.usage + '\n');
      expect(undocumented(command.options, r.stdout)).toEqual([]);
    });
  }
});

describe('crawlbench --help', () => {
  it('lists every command with its summary, then each command\'s usage', async () => {
    const r = await crawlbench(['--help']);
    expect(r.code, r.stderr).toBe(0);
    for (const command of COMMANDS) {
      expect(r.stdout).toMatch(new RegExp(`^  ${command.name} +${escape(command.summary)}$`, 'm'));
      expect(r.stdout).toContain(command.usage);
    }
  });

  it('prints the same list, exiting 2, when no command is given', async () => {
    const [bare, help] = await Promise.all([crawlbench([]), crawlbench(['--help'])]);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe(help.stdout);
  });
});

describe('the help check itself', () => {
  afterEach(() => vi.restoreAllMocks());

  it('fails for a command whose usage has no line for an option', async () => {
    const fake = defineCommand({
      name: 'fake',
      summary: 'a command whose usage explains no --seed',
      usage: 'crawlbench fake [--seed URL] [--seeds FILE] [--json]\n\n  --seeds FILE  seed URLs, one per line\n  --json        one JSON object',
      options: { seed: { type: 'string', multiple: true }, seeds: { type: 'string' }, json: { type: 'boolean' } },
      run: async () => 0,
    });
    let printed = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      printed += String(chunk);
      return true;
    });
    expect(await fake.invoke(['--help'])).toBe(0);
    expect(printed).toBe(fake.usage + '\n');
    expect(undocumented(fake.options, printed)).toEqual(['--seed']);
  });
});
