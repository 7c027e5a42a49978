/**
 * The throughput web: `sites` sites of exactly `perSite` pages, each site's host its own
 * loopback address (127.2.x.y), so that every crawler reaches it without a resolver. Written
 * as pages.tsv.gz + links.tsv.gz for `crawlbench testweb --graph DIR --bind-per-site`, which
 * serves it with no latency, allow-all robots.txt, 100 requests per keep-alive connection and
 * lognormal page sizes averaging ~10 KB (core/testweb/listed-web.ts).
 *
 * Links: page n links to n+1 (so a site is reachable from its home page whatever the order),
 * to `sameSite` other random pages of its site and to `crossSite` random pages of other sites;
 * targets are unique per page and never the page itself.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { mulberry32 } from '../../core/random.js';

export interface ThroughputWeb {
  hosts: string[];
  /** Path of page n (the same on every site). */
  paths: string[];
  perSite: number;
  /** links[id] = target ids; id = site * perSite + n. */
  links: Int32Array[];
  linkCount: number;
}

export function hostOf(site: number): string {
  return `127.2.${Math.floor(site / 254)}.${(site % 254) + 1}`;
}

export function buildWeb(sites: number, perSite: number, sameSite = 14, crossSite = 3, seed = 6): ThroughputWeb {
  const rand = mulberry32(seed);
  const hosts = Array.from({ length: sites }, (_, i) => hostOf(i));
  const paths = Array.from({ length: perSite }, (_, n) => (n === 0 ? '/' : `/sec${n % 7}/page-${n}.html`));
  const links: Int32Array[] = [];
  let linkCount = 0;
  for (let site = 0; site < sites; site++) {
    for (let n = 0; n < perSite; n++) {
      const id = site * perSite + n;
      const out = new Set<number>();
      if (n + 1 < perSite) out.add(id + 1);
      for (let k = 0; k < sameSite * 3 && out.size < sameSite + 1; k++) {
        const t = site * perSite + Math.floor(rand() * perSite);
        if (t !== id) out.add(t);
      }
      for (let k = 0; k < crossSite && sites > 1; k++) {
        let other = Math.floor(rand() * (sites - 1));
        if (other >= site) other++;
        out.add(other * perSite + Math.floor(rand() * perSite));
      }
      const arr = Int32Array.from(out);
      links.push(arr);
      linkCount += arr.length;
    }
  }
  return { hosts, paths, perSite, links, linkCount };
}

export function pageUrl(web: ThroughputWeb, id: number, port: number, scheme: 'http' | 'https' = 'http'): string {
  return `${scheme}://${web.hosts[Math.floor(id / web.perSite)]}:${port}${web.paths[id % web.perSite]}`;
}

/** Writes the graph in the format `crawlbench testweb --graph` reads. */
export function writeGraphDir(web: ThroughputWeb, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const pages: string[] = [];
  const links: string[] = [];
  for (let id = 0; id < web.links.length; id++) {
    pages.push(`${id}\thttp://${web.hosts[Math.floor(id / web.perSite)]}${web.paths[id % web.perSite]}\n`);
    for (const t of web.links[id]!) links.push(`${id}\t${t}\n`);
  }
  writeFileSync(join(dir, 'pages.tsv.gz'), gzipSync(pages.join(''), { level: 1 }));
  writeFileSync(join(dir, 'links.tsv.gz'), gzipSync(links.join(''), { level: 1 }));
}
