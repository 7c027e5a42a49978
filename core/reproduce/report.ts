/**
 * The Markdown of `reproduce`: per step, its settings against the paper's (and which differ),
 * its tables with the paper's numbers beside, its figures (SVG and CSV), the commands that give
 * the same numbers one by one, and the wall time. `npm run results` puts the same sections
 * into docs/results.md.
 */
import { posix } from 'node:path';
import { tableMarkdown, type ReproduceSummary, type StepResult } from './output.js';

const TITLES: Record<StepResult['paper'], string> = {
  castillo: 'Castillo, Effective Web Crawling, chapter 4',
  cho: 'Cho, Garcia-Molina, Page, Efficient crawling through URL ordering',
  cao: 'Cao, Jiang, Singh, Scheduling Web crawl for better performance and quality',
  turk: 'Türk, Page-to-processor assignment techniques for parallel crawlers',
};

export function formatSeconds(s: number): string {
  return s < 120 ? `${s.toFixed(1)} s` : `${(s / 60).toFixed(1)} min`;
}

/** One step as Markdown; `files` is the folder its CSV and SVG files are linked from. */
export function stepMarkdown(step: StepResult & { graph: string }, files: string, heading = '###'): string {
  const link = (f: string) => posix.join(files, f);
  const out = [`${heading} ${step.step} (${formatSeconds(step.seconds)})`, ''];
  if (step.skipped) return [...out, `Not run: ${step.skipped}`, ''].join('\n');
  out.push('| setting | here | the paper | differs |', '|---|---|---|---|', ...step.settings.map((s) => `| ${s.name} | ${s.value} | ${s.paper} | ${s.differs ? '**yes**' : 'no'} |`), '');
  for (const item of step.items) {
    out.push(`**${item.title}** (${item.cite})`, '');
    if (item.kind === 'table') out.push(tableMarkdown(item), '', `[CSV](${link(`${item.id}.csv`)})`);
    else out.push(`![${item.title}](${link(`${item.id}.svg`)})`, '', `[CSV](${link(`${item.id}.csv`)}) (series, x, y)`);
    out.push('');
    for (const n of item.notes) out.push(`- ${n}`);
    if (item.commands.length > 0) out.push('', 'The same numbers, one command each:', '', '```sh', ...item.commands, '```');
    out.push('');
  }
  return out.join('\n');
}

export function reportMarkdown(s: ReproduceSummary): string {
  const out = [
    '# crawlbench reproduce',
    '',
    `Scale: ${s.scale}; papers: ${s.papers.join(', ')}; started ${s.date}; ${formatSeconds(s.seconds)} in all${s.cpuSeconds !== undefined ? `, ${formatSeconds(s.cpuSeconds)} of CPU` : ''}${s.load ? ` (one-minute load average ${s.load.min.toFixed(1)}-${s.load.max.toFixed(1)})` : ''}. Each table shows crawlbench's`,
    "numbers beside the paper's (transcribed from its tables, or the numbers its text gives where a figure has",
    'no table); every setting is listed with the paper\'s, and "differs" marks where they are not the same.',
    'In the commands, GRAPH is the graph the step ran on (a generated one: in the cache folder, reproduce/NAME).',
    s.pngProblem ? `Figures: SVG and CSV; ${s.pngProblem}.` : 'Figures: SVG (ECharts\' server-side renderer), PNG (the SVG rasterised by resvg) and CSV.',
    '',
    '| paper | step | graph | time | CPU |',
    '|---|---|---|---|---|',
    ...s.steps.map((x) => `| ${x.paper} | ${x.step} | ${x.graph} | ${formatSeconds(x.seconds)} | ${x.cpuSeconds === undefined ? '' : formatSeconds(x.cpuSeconds)} |`),
    '',
  ];
  for (const paper of s.papers) {
    const steps = s.steps.filter((x) => x.paper === paper);
    if (steps.length === 0) continue;
    out.push(`## ${TITLES[paper]}`, '', ...steps.map((x) => stepMarkdown(x, x.dir)));
  }
  return out.join('\n') + '\n';
}
