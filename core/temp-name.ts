/**
 * The temporary name a file is written under before it is renamed into place: unique per
 * writer, not only per process. The server runs its heavy jobs in worker threads of one
 * process, so two jobs writing the same file (two graph exports of one model and format, two
 * exports to one path) would share a name made of the pid alone: the second truncates the
 * first's file, one rename fails with ENOENT and the other renames a half-written file into
 * place. The pid and thread id say who wrote a leftover; the random bytes keep two writers of
 * one thread apart too.
 */
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { threadId } from 'node:worker_threads';

/** `PATH.TAG-PID-THREAD-RANDOM` beside `path` (`hidden`: `.NAME.TAG-...`, a name directory listings and downloads skip). */
export function tempName(path: string, tag: string, hidden = false): string {
  const suffix = `${tag}-${process.pid}-${threadId}-${randomBytes(4).toString('hex')}`;
  return hidden ? join(dirname(path), `.${basename(path)}.${suffix}`) : `${path}.${suffix}`;
}
