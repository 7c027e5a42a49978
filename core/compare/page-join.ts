/**
 * The two crawls' pages joined by URL, whatever its scheme (docs/design.md section 4.10): one merge of their fingerprint-sorted page lists
 * gives the sets (pages only in A, only in B, in both), the status changes and content
 * changes of common pages, and every per-site count; the pages fetched in both are kept as
 * id pairs for the link and PageRank comparisons.
 */
import { compare64 } from './sort64.js';
import { IN, STATUS_CLASSES, type CrawlSide } from './crawl-side.js';

const ERROR_CLASSES = new Set(['client-error', 'server-error', 'failed'].map((c) => STATUS_CLASSES.indexOf(c as never)));

export interface SiteCounts {
  inA: Float64Array;
  inB: Float64Array;
  added: Float64Array;
  removed: Float64Array;
  changed: Float64Array;
  bytesA: Float64Array;
  bytesB: Float64Array;
  errorsA: Float64Array;
  errorsB: Float64Array;
}

export interface PageJoin {
  /** Fetched (status 200) pages per crawl, and their overlap. */
  inA: number;
  inB: number;
  onlyA: number;
  onlyB: number;
  both: number;
  /** Pages per status class in each crawl. */
  classesA: number[];
  classesB: number[];
  /** [class in A][class in B] of pages known to both crawls. */
  statusChanges: number[][];
  /** Common fetched pages whose content hash differs; their sizes. */
  contentChanged: number;
  /** Common fetched pages whose URL is http in one crawl and https in the other. */
  acrossSchemes: number;
  bytesBothA: number;
  bytesBothB: number;
  sizeChanged: number;
  /** Pages fetched in both: ids in A and in B, aligned. */
  pairA: Uint32Array;
  pairB: Uint32Array;
  /** Per page id: fetched in both crawls (1). */
  bothA: Uint8Array;
  bothB: Uint8Array;
  sites: SiteCounts;
}

function siteCounts(n: number): SiteCounts {
  const f = () => new Float64Array(n);
  return { inA: f(), inB: f(), added: f(), removed: f(), changed: f(), bytesA: f(), bytesB: f(), errorsA: f(), errorsB: f() };
}

function countSide(side: CrawlSide, classes: number[], inPerSite: Float64Array, bytes: Float64Array, errors: Float64Array): number {
  let n = 0;
  for (let id = 1; id <= side.maxId; id++) {
    const c = side.cls[id]!;
    if (c === 255) continue;
    const s = side.site[id]!;
    if (c === IN) {
      inPerSite[s]!++;
      bytes[s]! += side.bytes[id]!;
    } else if (ERROR_CLASSES.has(c)) errors[s]!++;
    if (!side.kept[id]) continue;
    classes[c]!++;
    if (c === IN) n++;
  }
  return n;
}

export function joinPages(a: CrawlSide, b: CrawlSide, siteCount: number): PageJoin {
  const k = STATUS_CLASSES.length;
  const sites = siteCounts(siteCount);
  const j: PageJoin = {
    inA: 0, inB: 0, onlyA: 0, onlyB: 0, both: 0,
    classesA: new Array<number>(k).fill(0),
    classesB: new Array<number>(k).fill(0),
    statusChanges: Array.from({ length: k }, () => new Array<number>(k).fill(0)),
    contentChanged: 0, acrossSchemes: 0, bytesBothA: 0, bytesBothB: 0, sizeChanged: 0,
    pairA: new Uint32Array(0), pairB: new Uint32Array(0),
    bothA: new Uint8Array(a.maxId + 1), bothB: new Uint8Array(b.maxId + 1),
    sites,
  };
  j.inA = countSide(a, j.classesA, sites.inA, sites.bytesA, sites.errorsA);
  j.inB = countSide(b, j.classesB, sites.inB, sites.bytesB, sites.errorsB);
  const pairsA: number[] = [];
  const pairsB: number[] = [];
  const A = a.byFp;
  const B = b.byFp;
  let i = 0;
  let m = 0;
  while (i < A.length || m < B.length) {
    const c = i >= A.length ? 1 : m >= B.length ? -1 : compare64(A.hi[i]!, A.lo[i]!, B.hi[m]!, B.lo[m]!);
    if (c < 0) onlyInA(a, A.payload![i++]!, j);
    else if (c > 0) onlyInB(b, B.payload![m++]!, j);
    else inBoth(a, b, A.payload![i++]!, B.payload![m++]!, j, pairsA, pairsB);
  }
  j.pairA = Uint32Array.from(pairsA);
  j.pairB = Uint32Array.from(pairsB);
  return j;
}

function onlyInA(a: CrawlSide, id: number, j: PageJoin): void {
  if (a.cls[id] !== IN) return;
  j.sites.removed[a.site[id]!]!++;
  if (a.kept[id]) j.onlyA++;
}

function onlyInB(b: CrawlSide, id: number, j: PageJoin): void {
  if (b.cls[id] !== IN) return;
  j.sites.added[b.site[id]!]!++;
  if (b.kept[id]) j.onlyB++;
}

function inBoth(a: CrawlSide, b: CrawlSide, ida: number, idb: number, j: PageJoin, pairsA: number[], pairsB: number[]): void {
  const ca = a.cls[ida]!;
  const cb = b.cls[idb]!;
  const kept = a.kept[ida] === 1;
  if (kept) j.statusChanges[ca]![cb]!++;
  if (ca === IN && cb !== IN) onlyInA(a, ida, j);
  else if (cb === IN && ca !== IN) onlyInB(b, idb, j);
  if (ca !== IN || cb !== IN) return;
  const changed = a.hash[ida] !== 0 && b.hash[idb] !== 0 && a.hash[ida] !== b.hash[idb];
  if (changed) j.sites.changed[a.site[ida]!]!++;
  if (!kept) return;
  j.both++;
  j.bothA[ida] = 1;
  j.bothB[idb] = 1;
  pairsA.push(ida);
  pairsB.push(idb);
  if (changed) j.contentChanged++;
  if (a.https[ida] !== b.https[idb]) j.acrossSchemes++;
  j.bytesBothA += a.bytes[ida]!;
  j.bytesBothB += b.bytes[idb]!;
  if (a.bytes[ida] !== b.bytes[idb]) j.sizeChanged++;
}
