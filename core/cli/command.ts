import { parseFlags, type FlagsOf, type OptionsConfig } from './args.js';

/**
 * One command of the CLI, as written once: the top-level help, `--help`, flag parsing and
 * dispatch all follow from it. `flags` is typed from `options`, so `flags.db` is
 * `string | undefined` and a `multiple: true` option a `string[] | undefined`: no casts.
 */
export interface CommandSpec<O extends OptionsConfig> {
  /** What the user types after `crawlbench`. */
  readonly name: string;
  /** One line for the list in `crawlbench --help`. */
  readonly summary: string;
  /** What `crawlbench <name> --help` prints: the synopsis and a line for every option. */
  readonly usage: string;
  /** The options in parseArgs form; `--help` is every command's and must not be declared. */
  readonly options: O;
  /**
   * Runs with the parsed flags and the positional arguments; resolves to the exit code.
   * Bad input throws a CrawlError (the entry point prints it in one line, exit 2).
   */
  run(flags: FlagsOf<O>, positionals: string[]): Promise<number>;
}

/** A command as the entry point and the help see it, whatever its options. */
export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  /** The options it accepts besides --help. */
  readonly options: Readonly<OptionsConfig>;
  /** Parses argv strictly, prints the usage for --help (exit 0), else runs the command. */
  invoke(argv: string[]): Promise<number>;
}

const HELP = { help: { type: 'boolean' } } as const;

export function defineCommand<const O extends OptionsConfig & { help?: never }>(spec: CommandSpec<O>): Command {
  const { name, summary, usage, options } = spec;
  return Object.freeze({
    name,
    summary,
    usage,
    options,
    async invoke(argv: string[]): Promise<number> {
      const { flags: { help, ...flags }, positionals } = parseFlags<OptionsConfig>(argv, { ...options, ...HELP });
      if (help) {
        process.stdout.write(usage + '\n');
        return 0;
      }
      // Strict parsing returns exactly the declared options, so these are FlagsOf<O>: the one
      // place a cast stands in for what TypeScript cannot follow through a generic O.
      return spec.run(flags as FlagsOf<O>, positionals);
    },
  });
}
