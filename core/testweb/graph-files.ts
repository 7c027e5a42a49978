/**
 * Link graphs as files: `pages.tsv.gz` (id<TAB>url, optionally <TAB>bytes) and `links.tsv.gz`
 * (src<TAB>dst), the format of a dataset folder (core/dataset/), such as the UCI ICS web graph
 * (not shipped with crawlbench: its terms forbid republishing it; the tests find it through
 * CRAWLBENCH_UCI, the folder holding its two files). loadGraphDir serves such a graph (https URLs
 * are served as http; host = URL host, path = path + query); exportGraphDir writes a web in the
 * same format, so a generated web round-trips. Loading is synchronous (the CLI builds its web
 * synchronously) and parses bytes directly: the 53k-page / 580k-link dataset loads in ~0.2 s.
 */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { gunzipDatasetFile, parsePairs } from '../dataset/tsv.js';
import { ListedWeb } from './listed-web.js';
import { siteTraits, type TraitOptions } from './site-model.js';
import type { SiteInfo, Web } from './web.js';
import { makeFolders } from '../folders.js';

export interface LoadOptions extends TraitOptions {
  /** Seed for per-site latency, bandwidth and keep-alive limits (as generated webs draw them). */
  seed?: number;
}

const URL_RE = /^https?:\/\/([^/?#]+)([^#]*)/i;

export function loadGraphDir(dir: string, opts: LoadOptions = {}): ListedWeb {
  const pageText = gunzipDatasetFile(dir, 'pages.tsv.gz').toString('utf8');
  const rawHosts: string[] = [];
  const rawPaths: string[] = [];
  const fileIds: number[] = [];
  let lineNo = 0;
  for (const line of pageText.split('\n')) {
    lineNo++;
    if (line === '') continue;
    const tab = line.indexOf('\t');
    const id = Number(line.slice(0, tab));
    const m = URL_RE.exec(line.slice(tab + 1).split('\t')[0]!.trim()); // a third column (size) is not part of the URL
    if (tab < 0 || !Number.isInteger(id) || id < 0 || !m) throw new Error(`${dir}/pages.tsv.gz line ${lineNo}: not id<TAB>http(s) URL`);
    const hostPort = m[1]!.toLowerCase();
    const colon = hostPort.lastIndexOf(':');
    rawHosts.push(colon > 0 && !hostPort.endsWith(']') ? hostPort.slice(0, colon) : hostPort);
    const rest = m[2]!;
    rawPaths.push(rest === '' ? '/' : rest.startsWith('?') ? '/' + rest : rest);
    fileIds.push(id);
  }
  const n = fileIds.length;
  // Our ids must be dense and contiguous per host: renumber by (first appearance of host, file id).
  const hostOrder = new Map<string, number>();
  rawHosts.forEach((h) => hostOrder.has(h) || hostOrder.set(h, hostOrder.size));
  const order = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => hostOrder.get(rawHosts[a]!)! - hostOrder.get(rawHosts[b]!)! || fileIds[a]! - fileIds[b]!,
  );
  const fromFile = new Map<number, number>(); // file id -> our id
  const paths: string[] = new Array(n);
  const sites: SiteInfo[] = [];
  order.forEach((row, id) => {
    fromFile.set(fileIds[row]!, id);
    paths[id] = rawPaths[row]!;
    const host = rawHosts[row]!;
    if (sites.length === 0 || sites[sites.length - 1]!.host !== host) sites.push(site(host, id, sites.length, opts));
    sites[sites.length - 1]!.count++;
  });
  if (fromFile.size !== n) throw new Error(`${dir}/pages.tsv.gz: duplicate page ids`);
  const identity = order.every((row, id) => fileIds[row] === id);

  const { src, dst, count } = parsePairs(gunzipDatasetFile(dir, 'links.tsv.gz'), `${dir}/links.tsv.gz`);
  const offsets = new Int32Array(n + 1);
  const map = (f: number) => {
    const v = identity && f < n ? f : fromFile.get(f);
    if (v === undefined) throw new Error(`${dir}/links.tsv.gz: unknown page id ${f}`);
    return v;
  };
  for (let i = 0; i < count; i++) {
    src[i] = map(src[i]!);
    dst[i] = map(dst[i]!);
    offsets[src[i]! + 1]!++;
  }
  for (let i = 0; i < n; i++) offsets[i + 1]! += offsets[i]!;
  const cursor = offsets.slice(0, n);
  const targets = new Int32Array(count);
  for (let i = 0; i < count; i++) targets[cursor[src[i]!]!++] = dst[i]!; // stable: file order kept
  return new ListedWeb({ sites, paths, offsets, targets, sizeModel: 'lognormal', seed: opts.seed ?? 0 });
}

function site(host: string, first: number, index: number, opts: LoadOptions): SiteInfo {
  const t = opts.seed !== undefined ? siteTraits(opts.seed, index, opts) : undefined;
  return {
    host,
    first,
    count: 0,
    latencyMs: t?.latencyMs ?? 0,
    bytesPerSec: t?.bytesPerSec ?? 0,
    keepAliveMax: t?.keepAliveMax ?? 100,
    robots: 'allow-all',
  };
}

/** Writes `web` as pages.tsv.gz + links.tsv.gz (URLs 'http://host/path'), streaming. */
export async function exportGraphDir(web: Web, dir: string): Promise<void> {
  makeFolders(dir);
  await writeGz(join(dir, 'pages.tsv.gz'), function* () {
    let chunk = '';
    for (let id = 0; id < web.pageCount; id++) {
      chunk += `${id}\thttp://${web.sites[web.siteOf(id)]!.host}${web.path(id)}\n`;
      if (chunk.length > 65536) {
        yield chunk;
        chunk = '';
      }
    }
    yield chunk;
  });
  await writeGz(join(dir, 'links.tsv.gz'), function* () {
    let chunk = '';
    for (let id = 0; id < web.pageCount; id++) {
      for (const t of web.outLinks(id)) chunk += `${id}\t${t}\n`;
      if (chunk.length > 65536) {
        yield chunk;
        chunk = '';
      }
    }
    yield chunk;
  });
}

async function writeGz(file: string, lines: () => Generator<string>): Promise<void> {
  await pipeline(Readable.from(lines()), createGzip({ level: 6 }), createWriteStream(file));
}
