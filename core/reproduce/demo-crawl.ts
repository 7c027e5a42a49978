/**
 * The real crawl of `reproduce`: the demo web (`crawlbench demo`'s generated national web on
 * loopback, its own process as the demo starts it) crawled to the end by `crawlbench crawl` with
 * larger-sites-first and one page per connection, as
 * Castillo's first real crawl (section 4.5.1) but with the demo's w and r (the thesis's
 * w = 15 s on the demo's largest site would take hours) and without batches: a thirtieth of a
 * web of a few hundred sites is a batch of few sites, and the crawl waits on each one's tail. It stores the pages' text
 * (--store-content), so Cho et al.'s topic experiments (section 7) can judge hot pages by
 * content on the same crawl. Made once per run of `reproduce` and shared by the steps that read it.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { runCrawl, startTestWeb, type CrawlRun } from './cao-crawls.js';
import type { StepContext } from './context.js';

export interface DemoCrawl {
  db: string;
  run: CrawlRun;
  /** The web's and the crawl's command lines (DB and SEEDS stand for the files). */
  commands: string[];
  web: { sites: number; pages: number };
  settings: { policy: string; r: number; w: string; c: number };
}

const WEB_SEED = 1;
const LATENCY = '20';
const POLICY = 'larger-sites-first';
const FIXED = ['--w', '50ms', '--robots-retry', '5s', '--max-crawl-delay', '0', '--retry-base', '0ms'];

/** The crawl of this run's demo web; crawled on the first call, the same one after. */
export async function demoCrawl(ctx: StepContext): Promise<DemoCrawl> {
  const known = ctx.shared.get('demo-crawl') as Promise<DemoCrawl> | undefined;
  if (known) return known;
  const made = crawlDemo(ctx);
  ctx.shared.set('demo-crawl', made);
  return made;
}

async function crawlDemo(ctx: StepContext): Promise<DemoCrawl> {
  const { sites, pages, r } = ctx.scale.demo;
  const db = join(ctx.outDir, 'demo-crawl.db');
  for (const f of [db, `${db}-wal`, `${db}-shm`, `${db}.content`]) rmSync(f, { recursive: true, force: true });
  const seeds = join(ctx.outDir, 'demo-seeds.txt');
  const webArgs = ['--web-seed', String(WEB_SEED), '--sites', String(sites), '--pages', String(pages), '--latency', LATENCY];
  const web = await startTestWeb([...webArgs, '--seeds-out', seeds]);
  const settings = { policy: POLICY, r, w: '50ms', c: 1 };
  const crawlArgs = ['--policy', POLICY, '--r', String(settings.r), '--c', '1', '--store-content', '--scope', '.demo'];
  try {
    ctx.log(`  crawling the demo web (${web.info.sites} sites, ${web.info.pages} pages) with ${POLICY} ...`);
    // The demo's own settings but c: w = 50 ms, robots.txt asked again after 5 s (some sites answer 500).
    const args = ['--db', db, '--seeds', seeds, ...web.info.resolve.split(',').flatMap((rule) => ['--resolve', rule]), ...FIXED, ...crawlArgs];
    const run = await runCrawl(args);
    ctx.log(`  ${run.pagesFetched} pages in ${run.seconds.toFixed(1)} s`);
    return {
      db, run, web: { sites: web.info.sites, pages: web.info.pages }, settings,
      commands: [
        `crawlbench testweb ${webArgs.join(' ')} --seeds-out SEEDS`,
        `crawlbench crawl --db DB --seeds SEEDS --resolve '*.demo=127.0.0.1' ${FIXED.join(' ')} ${crawlArgs.join(' ')}`,
      ],
    };
  } finally {
    await web.stop();
  }
}
