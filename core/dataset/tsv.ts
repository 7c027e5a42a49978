/**
 * The link-graph dataset format (a dataset folder, dataset-folder.ts): `pages.tsv.gz`
 * (id<TAB>url) and `links.tsv.gz` (src<TAB>dst). Read by the test web (to serve a graph) and
 * by the simulator (to replay policies on it); parsed from bytes, since a 10-million-link file
 * split into strings would cost seconds and gigabytes.
 */
import { readFileSync } from 'node:fs';
import { constants } from 'node:buffer';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/**
 * The most a dataset file may hold once decompressed: pages.tsv is read as one string (V8's
 * longest, about 512 MiB), links.tsv as bytes, 2 GiB (about 130 million links). A file that
 * inflates past it (a gzip bomb: 13 MB made 3 GB and took the server to 7.7 GB before it failed)
 * stops there.
 */
export const DATASET_LIMITS = { 'pages.tsv.gz': constants.MAX_STRING_LENGTH, 'links.tsv.gz': 2 * 1024 ** 3 } as const;

/**
 * And the most lines each may hold: bytes alone do not bound memory, as `0<TAB>1` lines under
 * 2 GiB are 537 million links (two Int32Arrays of them: 4.3 GB more). 20 million pages and 150
 * million links, counted before anything is allocated for them.
 */
export const DATASET_LINES = { 'pages.tsv.gz': 20_000_000, 'links.tsv.gz': 150_000_000 } as const;

/** A dataset folder's file decompressed, at most its DATASET_LIMITS; why not as the error's words. */
export function gunzipDatasetFile(dir: string, name: keyof typeof DATASET_LIMITS): Buffer {
  const file = join(dir, name);
  const cap = DATASET_LIMITS[name];
  let buf: Buffer;
  try {
    buf = gunzipSync(readFileSync(file), { maxOutputLength: cap });
  } catch (err) {
    const past = (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
    throw new Error(past ? `${file} decompresses to more than ${Math.round(cap / 1024 ** 2)} MiB, past what crawlbench reads of a dataset's ${name}` : `cannot read ${file} (${(err as Error).message})`);
  }
  let lines = 0;
  for (let at = buf.indexOf(10); at >= 0; at = buf.indexOf(10, at + 1)) lines++;
  if (lines > DATASET_LINES[name]) throw new Error(`${file} holds ${lines.toLocaleString('en-US')} lines, past the ${DATASET_LINES[name].toLocaleString('en-US')} crawlbench reads of a dataset's ${name}`);
  return buf;
}

/** Parses "a<TAB>b\n" lines of non-negative integers straight from bytes. */
export function parsePairs(buf: Buffer, name: string): { src: Int32Array; dst: Int32Array; count: number } {
  let lines = 0;
  for (let i = 0; i < buf.length; i++) if (buf[i] === 10) lines++;
  const src = new Int32Array(lines + 1);
  const dst = new Int32Array(lines + 1);
  let count = 0;
  let a = -1;
  let cur = -1;
  for (let i = 0; i <= buf.length; i++) {
    const c = i < buf.length ? buf[i]! : 10;
    if (c >= 48 && c <= 57) cur = (cur < 0 ? 0 : cur * 10) + (c - 48);
    else if (c === 9 || c === 32) {
      if (cur >= 0) {
        a = cur;
        cur = -1;
      }
    } else if (c === 10 || c === 13) {
      if (a >= 0 && cur >= 0) {
        src[count] = a;
        dst[count++] = cur;
      } else if (a >= 0 || cur >= 0) throw new Error(`${name}: bad line ${count + 1}`);
      a = -1;
      cur = -1;
    } else throw new Error(`${name}: unexpected byte ${c} near line ${count + 1}`);
  }
  return { src, dst, count };
}

