/**
 * Cho et al.'s one-site experiment (section 6, Graphs 4 and 5) needs one site alone: the site of
 * the graph nearest the Database Group's size, cut out with its internal links.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { SimGraph } from '../simulator/sim-graph.js';
import { makeFolders } from '../folders.js';

/** The site of the graph whose page count is nearest `target` (the Database Group's 1,100), written as a dataset folder of its own. */
export function oneSiteGraph(g: SimGraph, dir: string, target: number): { site: string; pages: number } {
  const counts = new Map<number, number>();
  for (let v = 0; v < g.n; v++) counts.set(g.siteOf[v]!, (counts.get(g.siteOf[v]!) ?? 0) + 1);
  let best = 0;
  for (const [s, n] of counts) if (Math.abs(n - target) < Math.abs((counts.get(best) ?? 0) - target)) best = s;
  const local = new Map<number, number>();
  const pages: string[] = [];
  for (let v = 0; v < g.n; v++) if (g.siteOf[v] === best) { local.set(v, local.size); pages.push(`${local.size - 1}\t${g.urls[v]}\n`); }
  const links: string[] = [];
  for (const [v, id] of local) {
    for (let k = g.graph.offsets[v]!; k < g.graph.offsets[v + 1]!; k++) {
      const t = local.get(g.graph.targets[k]!);
      if (t !== undefined) links.push(`${id}\t${t}\n`);
    }
  }
  makeFolders(dir);
  writeFileSync(join(dir, 'pages.tsv.gz'), gzipSync(pages.join('')));
  writeFileSync(join(dir, 'links.tsv.gz'), gzipSync(links.join('')));
  return { site: g.sites[best]!, pages: local.size };
}
