/**
 * A file written in large buffered pieces under a temporary name beside its destination and
 * renamed over it when complete, so that a reader never sees half a graph and a failed or
 * cancelled export leaves nothing behind. Synchronous writes: an export is one long loop, and
 * a 1 MB buffer makes the system calls cheap.
 */
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { tempName } from '../temp-name.js';

const FLUSH_AT = 1 << 20;

export class TextSink {
  private readonly fd: number;
  private readonly tmp: string;
  private parts: string[] = [];
  private pending = 0;
  private done = false;
  bytes = 0;

  constructor(readonly path: string) {
    this.tmp = tempName(path, 'partial');
    this.fd = openSync(this.tmp, 'w');
  }

  write(text: string): void {
    this.parts.push(text);
    this.pending += text.length;
    if (this.pending >= FLUSH_AT) this.flush();
  }

  line(text: string): void {
    this.write(text + '\n');
  }

  private flush(): void {
    if (this.parts.length === 0) return;
    const buf = Buffer.from(this.parts.join(''), 'utf8');
    this.parts = [];
    this.pending = 0;
    let at = 0;
    while (at < buf.length) at += writeSync(this.fd, buf, at, buf.length - at);
    this.bytes += buf.length;
  }

  /** Writes what is buffered and renames the file into place. */
  commit(): void {
    this.flush();
    closeSync(this.fd);
    this.done = true;
    renameSync(this.tmp, this.path);
  }

  /** Drops the temporary file (after a failure); nothing happens after commit. */
  abort(): void {
    if (this.done) return;
    this.done = true;
    try {
      closeSync(this.fd);
    } catch {
      // Already closed by a failed commit.
    }
    rmSync(this.tmp, { force: true });
  }
}

/** Runs fn with sinks for each path; all are committed together, or all dropped if fn throws. */
export function writeFiles<T>(paths: string[], fn: (sinks: TextSink[]) => T): T {
  const sinks: TextSink[] = [];
  try {
    for (const p of paths) sinks.push(new TextSink(p));
    const out = fn(sinks);
    for (const s of sinks) s.commit();
    return out;
  } catch (err) {
    for (const s of sinks) s.abort();
    throw err;
  }
}
