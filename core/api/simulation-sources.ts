/**
 * What the simulator can replay (listSimulationSources): the workspace's crawls and the dataset
 * folders of the datasets directory (pages.tsv.gz + links.tsv.gz), named by id only, never by
 * a path from the page.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { badField } from '../errors.js';
import { listPolicies } from '../policies/registry.js';
import type * as C from './contract.js';
import { crawlReadable } from './contract.js';
import { SOURCE_ID } from './simulation-request.js';

const DATASET_FILES = ['pages.tsv.gz', 'links.tsv.gz'];

/** The crawls that have pages and the dataset folders with both files, with the simulator's policies. */
export async function simulationSources(datasetsDir: string, listCrawls: () => Promise<C.CrawlInfo[]>): Promise<C.SimulationSourcesDto> {
  const crawls = (await listCrawls())
    .filter((c) => crawlReadable(c) && c.status !== 'created')
    .map((c): C.SimulationSourceDto => ({ kind: 'crawl', id: c.id, pages: c.pagesKnown, sites: c.sites, bytes: c.sizeBytes }));
  const datasets: C.SimulationSourceDto[] = [];
  if (existsSync(datasetsDir)) {
    for (const name of readdirSync(datasetsDir).sort()) {
      if (!SOURCE_ID.test(name)) continue;
      const folder = join(datasetsDir, name);
      try {
        if (!statSync(folder).isDirectory() || !DATASET_FILES.every((f) => existsSync(join(folder, f)))) continue;
        const bytes = DATASET_FILES.reduce((n, f) => n + statSync(join(folder, f)).size, 0);
        datasets.push({ kind: 'dataset', id: name, pages: null, sites: null, bytes });
      } catch {
        // A broken link or an unreadable folder is no dataset.
      }
    }
  }
  // The simulator's policies, the references included; summaries in the form's words.
  const policies = listPolicies({ simulator: true }).map((p) => ({ name: p.name, summary: p.summary }));
  return { crawls, datasets, datasetsDir, policies };
}

/** A dataset folder of the datasets directory, by name (refused naming the source when it lacks a file). */
export function datasetFolder(datasetsDir: string, id: string): string {
  const folder = join(datasetsDir, id);
  const missing = DATASET_FILES.filter((f) => !existsSync(join(folder, f)));
  if (missing.length > 0) throw badField('source', `no dataset folder "${id}" with ${DATASET_FILES.join(' and ')} in ${datasetsDir}`);
  return folder;
}
