/**
 * An export's files, written under temporary names and renamed only when the whole export is
 * done: a crashed, cancelled or failed export leaves no file that looks whole (at most
 * `.*.partial-PID-THREAD-RANDOM` files after a crash; cancel and failure remove them). A full disk becomes a
 * CrawlError that says so.
 */
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, renameSync, rmdirSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CrawlError, ErrorCodes } from '../errors.js';
import { tempName } from '../temp-name.js';

interface OpenFile {
  temp: string;
  final: string;
  fd: number | null;
  bytes: number;
}

export class OutputFiles {
  private readonly files: OpenFile[] = [];
  private readonly madeDirs: string[] = [];
  /** Files that --force replaces, removed at commit. */
  private readonly replaced: string[] = [];
  private done = false;
  bytesWritten = 0;

  /** Refuses an existing file unless `force`; creates missing parent folders (removed again on abort). */
  checkFile(path: string, force: boolean): void {
    if (existsSync(path)) {
      if (statSync(path).isDirectory()) throw new CrawlError(ErrorCodes.OUTPUT_EXISTS, `${path}: is a directory; give a file name for the export`, { field: 'out' });
      if (!force) throw new CrawlError(ErrorCodes.OUTPUT_EXISTS, `${path}: already exists (use --force to replace it)`, { field: 'out' });
    }
    this.ensureDir(dirname(path));
  }

  /**
   * A directory for WARC files: refused when it holds files this export would write (names
   * starting with `prefix-` and ending .warc.gz or .cdxj) unless `force`, which replaces them.
   */
  checkDir(dir: string, prefix: string, force: boolean): void {
    if (existsSync(dir) && !statSync(dir).isDirectory()) throw new CrawlError(ErrorCodes.OUTPUT_EXISTS, `${dir}: is a file; a WARC export writes into a directory`, { field: 'out' });
    this.ensureDir(dir);
    const mine = readdirSync(dir).filter((f) => f.startsWith(`${prefix}-`) && (f.endsWith('.warc.gz') || f.endsWith('.cdxj')));
    if (mine.length > 0 && !force) {
      throw new CrawlError(ErrorCodes.OUTPUT_EXISTS, `${dir}: already holds ${mine.length} file(s) of this prefix (${mine[0]}...); use --force to replace them, or --prefix`, { field: 'out' });
    }
    this.replaced.push(...mine.map((f) => join(dir, f)));
  }

  /** Opens `final` under a temporary name; returns its index. */
  open(final: string): number {
    const temp = tempName(final, 'partial', true);
    const fd = guard(temp, () => openSync(temp, 'w'));
    this.files.push({ temp, final, fd, bytes: 0 });
    return this.files.length - 1;
  }

  write(file: number, bytes: Uint8Array): void {
    const f = this.files[file]!;
    let at = 0;
    while (at < bytes.length) at += guard(f.temp, () => writeSync(f.fd!, bytes, at, bytes.length - at));
    f.bytes += bytes.length;
    this.bytesWritten += bytes.length;
  }

  /** Where a file is while the export runs (its temporary name). */
  tempPath(file: number): string {
    return this.files[file]!.temp;
  }

  size(file: number): number {
    return this.files[file]!.bytes;
  }

  close(file: number): void {
    const f = this.files[file]!;
    if (f.fd !== null) guard(f.temp, () => closeSync(f.fd!));
    f.fd = null;
  }

  /** Renames every file to its name (replacing what --force allowed); the export is then whole. */
  commit(): Array<{ path: string; bytes: number }> {
    for (let i = 0; i < this.files.length; i++) this.close(i);
    const finals = new Set(this.files.map((f) => f.final));
    for (const old of this.replaced) if (!finals.has(old)) unlinkSync(old);
    for (const f of this.files) renameSync(f.temp, f.final);
    this.done = true;
    return this.files.map((f) => ({ path: f.final, bytes: f.bytes }));
  }

  /** Removes every temporary file (and the folders this export made, if empty). Never throws. */
  abort(): void {
    if (this.done) return;
    for (const f of this.files) {
      try {
        if (f.fd !== null) closeSync(f.fd);
      } catch {
        /* already closed */
      }
      f.fd = null;
      try {
        unlinkSync(f.temp);
      } catch {
        /* never created */
      }
    }
    for (const d of this.madeDirs.reverse()) {
      try {
        rmdirSync(d);
      } catch {
        /* not empty, or gone */
      }
    }
    this.done = true;
  }

  private ensureDir(dir: string): void {
    if (existsSync(dir)) return;
    this.ensureDir(dirname(dir));
    guard(dir, () => mkdirSync(dir));
    this.madeDirs.push(dir);
  }
}

/** Runs a file operation; a full disk (or quota) becomes CRAWL_DISK_FULL, naming the file. */
function guard<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') {
      throw new CrawlError(ErrorCodes.DISK_FULL, `the disk is full (writing ${path}): the partial export was removed; free some space and export again`, { cause: err });
    }
    throw err;
  }
}
