/**
 * Pages in URL order without the URL index: a running crawl has none (pages_url is built
 * when a crawl finishes, see migrations/003), and sorting a whole crawl in memory is what a
 * stream must not do. So: an external merge sort in bounded memory. Rows arrive in id
 * chunks; every `runRows` of them are sorted and spilled to a temporary NDJSON file; the
 * runs are then merged k ways, one read buffer per run. A crawl that fits in one run is
 * sorted in memory and never touches the disk.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

export interface SortOptions {
  /** Rows held in memory per sorted run. */
  runRows: number;
  /** Folder for the temporary run files (a fresh subfolder is made and removed). */
  tmpDir: string;
}

interface Keyed {
  id: number;
  url: string;
}

const READ_BLOCK = 1 << 18;
const WRITE_LINES = 4096;

/**
 * The rows sorted by URL (the order of SQLite's BINARY collation: UTF-8 bytes), ties by id.
 * The temporary files are removed when the stream ends, fails or is closed early (`break`
 * out of a for-of, or `return()`); a caller that abandons the iterator without either keeps
 * them until then, so consume or close it.
 */
export function* sortByUrl<T extends Keyed>(rows: Iterable<T>, opts: SortOptions): Generator<T> {
  const runRows = Math.max(1, Math.floor(opts.runRows));
  let dir: string | null = null;
  const runs: string[] = [];
  try {
    let buffer: T[] = [];
    for (const row of rows) {
      buffer.push(row);
      if (buffer.length < runRows) continue;
      dir ??= mkdtempSync(join(opts.tmpDir, 'crawlbench-url-sort-'));
      runs.push(spill(buffer.sort(compareRows), join(dir, `run-${runs.length}.ndjson`)));
      buffer = [];
    }
    buffer.sort(compareRows);
    if (runs.length === 0) {
      yield* buffer;
      return;
    }
    if (buffer.length > 0) runs.push(spill(buffer, join(dir!, `run-${runs.length}.ndjson`)));
    buffer = [];
    yield* merge<T>(runs);
  } finally {
    if (dir !== null) rmSync(dir, { recursive: true, force: true });
  }
}

/** Orders two strings as SQLite's BINARY collation does (UTF-8 bytes, i.e. code points). */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // UTF-16 puts surrogates (U+D800-DFFF, code points above U+FFFF) below U+E000-FFFF.
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

function compareRows(a: Keyed, b: Keyed): number {
  return compareUtf8(a.url, b.url) || a.id - b.id;
}

function spill(rows: readonly unknown[], path: string): string {
  const fd = openSync(path, 'w');
  try {
    for (let i = 0; i < rows.length; i += WRITE_LINES) {
      const lines = rows.slice(i, i + WRITE_LINES).map((r) => JSON.stringify(r));
      writeSync(fd, lines.join('\n') + '\n');
    }
  } finally {
    closeSync(fd);
  }
  return path;
}

/** k-way merge of sorted run files through a binary heap of their heads. */
function* merge<T extends Keyed>(paths: string[]): Generator<T> {
  const files = paths.map((p) => new RunFile(p));
  try {
    const heap: Array<{ row: T; file: RunFile }> = [];
    for (const file of files) {
      const row = file.next<T>();
      if (row !== undefined) heapPush(heap, { row, file });
    }
    while (heap.length > 0) {
      const top = heap[0]!;
      yield top.row;
      const next = top.file.next<T>();
      if (next !== undefined) {
        top.row = next;
        siftDown(heap, 0);
      } else {
        const last = heap.pop()!;
        if (heap.length > 0) {
          heap[0] = last;
          siftDown(heap, 0);
        }
      }
    }
  } finally {
    for (const f of files) f.close();
  }
}

function heapPush<H extends { row: Keyed }>(heap: H[], item: H): void {
  heap.push(item);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (compareRows(heap[parent]!.row, heap[i]!.row) <= 0) break;
    [heap[parent], heap[i]] = [heap[i]!, heap[parent]!];
    i = parent;
  }
}

function siftDown<H extends { row: Keyed }>(heap: H[], i: number): void {
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < heap.length && compareRows(heap[l]!.row, heap[m]!.row) < 0) m = l;
    if (r < heap.length && compareRows(heap[r]!.row, heap[m]!.row) < 0) m = r;
    if (m === i) return;
    [heap[m], heap[i]] = [heap[i]!, heap[m]!];
    i = m;
  }
}

/** A run file read line by line through one fixed buffer (synchronously, as SQLite is). */
class RunFile {
  private readonly fd: number;
  private readonly block = Buffer.alloc(READ_BLOCK);
  private readonly decoder = new StringDecoder('utf8');
  private lines: string[] = [];
  private at = 0;
  private rest = '';
  private eof = false;

  constructor(path: string) {
    this.fd = openSync(path, 'r');
  }

  next<T>(): T | undefined {
    while (this.at >= this.lines.length) {
      if (this.eof) return undefined;
      const n = readSync(this.fd, this.block, 0, READ_BLOCK, null);
      const text = this.rest + (n > 0 ? this.decoder.write(this.block.subarray(0, n)) : this.decoder.end());
      this.lines = text.split('\n');
      this.rest = n > 0 ? this.lines.pop()! : '';
      this.at = 0;
      if (n === 0) {
        this.eof = true;
        this.lines = this.lines.filter((l) => l !== '');
      }
    }
    return JSON.parse(this.lines[this.at++]!) as T;
  }

  close(): void {
    closeSync(this.fd);
  }
}
