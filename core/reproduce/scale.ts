/**
 * The sizes `reproduce` runs at. The default fits this project's machine (2 cores) within the
 * 45 minutes of `reproduce --paper all`: the simulations on a generated national web of 1M
 * pages on 20,000 sites, Türk's tables on a 100k-page graph with one run per partitioner and K,
 * Cao's crawls on a 20,000-page test web. `small` is the same experiments on small webs, for
 * the tests and a first look.
 */
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir } from '../config/cache-dir.js';
import { tempName } from '../temp-name.js';
import { generateWeb } from '../testweb/generator.js';
import { exportGraphDir } from '../testweb/graph-files.js';

export interface GraphSpec {
  pages: number;
  sites: number;
  maxSitePages: number;
  seed: number;
}

export interface Scale {
  name: 'default' | 'small';
  /** Castillo's and Cho's simulations. */
  national: GraphSpec;
  /** Türk's tables. */
  turk: GraphSpec;
  turkPageParts: number[];
  turkSiteParts: number[];
  /** Table 4.2's batch: at most this many pages a site. */
  batchPagesPerSite: number;
  /** The demo web's real crawl (Castillo's Figures 4.12-4.15, Cho's Graphs 6 and 7): sites, pages, connections. */
  demo: { sites: number; pages: number; r: number };
  /** Türk's measured columns: the parallel crawler on a test web of this many pages and sites, at these K; the hashes, and the partitioners' assignments too. */
  parallel: { sites: number; pages: number; parts: number[]; partitioners: boolean };
  /** Cao's crawls of the test web. */
  cao: { sites: number; pages: number; rList: number[]; strategiesSites: number; strategiesPages: number; strategiesR: number; pagesPerR: number };
}

export const SCALES: Record<Scale['name'], Scale> = {
  default: {
    name: 'default',
    national: { pages: 1_000_000, sites: 20_000, maxSitePages: 10_000, seed: 1 },
    turk: { pages: 100_000, sites: 1_700, maxSitePages: 8_000, seed: 1 },
    turkPageParts: [2, 4, 8, 16, 32, 64, 128, 256],
    turkSiteParts: [2, 4, 8, 16, 32, 64],
    batchPagesPerSite: 30,
    demo: { sites: 600, pages: 20_000, r: 64 },
    parallel: { sites: 400, pages: 20_000, parts: [2, 4], partitioners: true },
    cao: { sites: 200, pages: 20_000, rList: [1, 4, 16, 64], strategiesSites: 300, strategiesPages: 6_000, strategiesR: 64, pagesPerR: 150 },
  },
  small: {
    name: 'small',
    national: { pages: 3_000, sites: 120, maxSitePages: 300, seed: 1 },
    turk: { pages: 3_000, sites: 120, maxSitePages: 300, seed: 1 },
    turkPageParts: [2, 4, 8],
    turkSiteParts: [2, 4],
    batchPagesPerSite: 30,
    demo: { sites: 12, pages: 300, r: 16 },
    parallel: { sites: 12, pages: 300, parts: [2], partitioners: false },
    cao: { sites: 20, pages: 400, rList: [4], strategiesSites: 12, strategiesPages: 150, strategiesR: 8, pagesPerR: 30 },
  },
};

/** What a graph spec is called in files and reports. */
export function graphName(s: GraphSpec): string {
  return `national-${s.pages}-${s.sites}-max${s.maxSitePages}-seed${s.seed}`;
}

/**
 * A generated national web as a dataset folder, made once into the cache
 * (CRAWLBENCH_CACHE/reproduce/NAME) and reused: the test web's generator, no latency in the
 * graph (the simulator draws its own network).
 */
export async function generatedGraph(s: GraphSpec, log: (msg: string) => void): Promise<string> {
  const dir = join(cacheDir(), 'reproduce', graphName(s));
  if (existsSync(join(dir, 'links.tsv.gz'))) return dir;
  const t0 = performance.now();
  const web = generateWeb({ seed: s.seed, sites: s.sites, pages: s.pages, maxSitePages: s.maxSitePages, latency: false });
  // Written beside and renamed into place: a run killed while writing leaves no half graph.
  const part = tempName(dir, 'part');
  await exportGraphDir(web, part);
  rmSync(dir, { recursive: true, force: true });
  renameSync(part, dir);
  log(`generated ${graphName(s)}: ${web.pageCount} pages, ${web.linkCount} links on ${web.sites.length} sites (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  return dir;
}
