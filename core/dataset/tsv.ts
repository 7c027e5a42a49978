/**
 * The link-graph dataset format (a dataset folder, dataset-folder.ts): `pages.tsv.gz`
 * (id<TAB>url) and `links.tsv.gz` (src<TAB>dst). Read by the test web (to serve a graph) and
 * by the simulator (to replay policies on it); parsed from bytes, since a 10-million-link file
 * split into strings would cost seconds and gigabytes.
 */

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

