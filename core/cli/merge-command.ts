import { badOption } from '../errors.js';
import { mergeParts, partFiles, type WorkerCounters } from '../store/merge-parts.js';
import { defineCommand } from './command.js';
import { checkOutputTarget } from '../store/output-guard.js';

const USAGE = `crawlbench merge NAME.parts --out NAME.db [--force] [--json]

Merges the part databases of a parallel crawl (NAME.parts/part-I.db) into one crawl database
that every reader takes: pages unique by URL in fetch-time order, links, sites, robots.txt,
events, counters and timelines of all parts, and each worker's exchange counts. States each
worker's counters and the pages two workers both fetched. (crawl --parts runs it at the end.)
  --out FILE             the merged crawl (refused if it exists, unless --force)
  --json                 print the result as one JSON object`;

/** A part's or the merged crawl's end in words: a share of --max-pages spent reads as such, not as 'paused'. */
export function endWords(e: Pick<WorkerCounters, 'state' | 'endKind'>): string {
  return e.state === 'paused' && e.endKind === 'max-pages' ? 'at its page limit' : e.state;
}

export const mergeCommand = defineCommand({
  name: 'merge',
  summary: "merge a parallel crawl's part databases into one crawl database",
  usage: USAGE,
  options: { out: { type: 'string' }, force: { type: 'boolean' }, json: { type: 'boolean' } },
  async run(flags, positionals) {
    if (positionals.length !== 1) throw badOption('arguments', 'give one parts folder (NAME.parts)');
    if (!flags.out) throw badOption('--out', 'required: the merged crawl database');
    // Not one of the parts it reads, or a device, even with --force.
    checkOutputTarget('--out', flags.out, partFiles(positionals[0]!).map((p) => p.file), false);
    const r = mergeParts(positionals[0]!, flags.out, { force: !!flags.force });
    if (flags.json) {
      process.stdout.write(JSON.stringify(r) + '\n');
      return 0;
    }
    const lines = [
      `merged ${r.parts} parts into ${r.out} (${endWords(r)}): ${r.pagesFetched} pages fetched, ${r.pagesKnown} known, ${r.links} links, ${r.sites} sites`,
      `  fetched by two workers: ${r.fetchedTwice}${r.fetchedTwiceSample.length > 0 ? ` (${r.fetchedTwiceSample.slice(0, 3).join(', ')})` : ''}`,
      ...r.workers.map((w) => `  part ${w.part}: ${endWords(w)}, ${w.pagesFetched} fetched, ${w.pagesKnown} known, ${w.links} links, ${w.bytes} bytes, ${w.seconds.toFixed(1)} s`),
    ];
    process.stdout.write(lines.join('\n') + '\n');
    return 0;
  },
});
