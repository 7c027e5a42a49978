/**
 * The CDXJ index of an export's WARC files (what pywb and other replay tools open a collection
 * through), made by warcio's own indexer reading the files just written, and sorted as the
 * format wants (by SURT URL key, then time). Sorted in bounded memory: runs of lines spill to
 * temporary files and are merged.
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { CDXIndexer } from 'warcio';
import type { ExportContext } from './context.js';
import type { WarcFiles } from './warc-files.js';

const RUN_CHARS = 32 * 1024 * 1024;

/** Writes PREFIX-STAMP.cdxj beside the WARC files; returns its name. */
export async function writeCdxj(ctx: ExportContext, files: WarcFiles, prefix: string): Promise<string> {
  const name = `${prefix}-${files.stamp}.cdxj`;
  const out = ctx.out.open(join(ctx.options.out, name));
  const indexer = new CDXIndexer({ format: 'cdxj' });
  const sources = files.files.map((f) => ({ filename: f.name, reader: createReadStream(ctx.out.tempPath(f.index)) }));
  const total = ctx.reader.snapshot.fetchSeq;
  let n = 0;
  async function* lines(): AsyncGenerator<string> {
    for await (const entry of indexer.iterIndex(sources)) {
      yield indexer.serialize(entry);
      // Indexing reads every file again: cancel and the event loop are served meanwhile.
      if (++n % 256 === 0) await ctx.tick(total, total);
    }
  }
  await sortLines(lines(), (line) => ctx.out.write(out, Buffer.from(line, 'utf8')));
  ctx.out.close(out);
  return name;
}

/** Sorts newline-terminated lines by their text; at most RUN_CHARS of them in memory at once. */
export async function sortLines(lines: AsyncIterable<string>, write: (line: string) => void, runChars = RUN_CHARS): Promise<void> {
  let run: string[] = [];
  let chars = 0;
  const runs: string[] = [];
  let dir: string | null = null;
  try {
    for await (const line of lines) {
      run.push(line);
      chars += line.length;
      if (chars >= runChars) {
        dir ??= mkdtempSync(join(tmpdir(), 'crawlbench-cdxj-'));
        runs.push(await spill(run.sort(byText), join(dir, `run-${runs.length}`)));
        run = [];
        chars = 0;
      }
    }
    run.sort(byText);
    if (runs.length === 0) {
      for (const l of run) write(l);
      return;
    }
    runs.push(await spill(run, join(dir!, `run-${runs.length}`)));
    run = [];
    await merge(runs, write);
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

function byText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function spill(lines: string[], path: string): Promise<string> {
  const s = createWriteStream(path);
  for (const l of lines) if (!s.write(l)) await once(s, 'drain');
  s.end();
  await once(s, 'finish');
  return path;
}

async function merge(paths: string[], write: (line: string) => void): Promise<void> {
  const its = paths.map((p) => createInterface({ input: createReadStream(p), crlfDelay: Infinity })[Symbol.asyncIterator]());
  const heads: Array<string | null> = await Promise.all(its.map(async (it) => ((await it.next()).value as string | undefined) ?? null));
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i++) if (heads[i] !== null && (best < 0 || heads[i]! < heads[best]!)) best = i;
    if (best < 0) return;
    write(heads[best]! + '\n');
    const next = await its[best]!.next();
    heads[best] = next.done ? null : (next.value as string);
  }
}
