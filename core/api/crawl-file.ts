/**
 * A new crawl's file written off the server's thread (a heavy job, heavy-jobs.ts): its seed text
 * read, its settings and seeds checked (Crawler.plan), the short-w guard asked, and the file
 * written. A seed file of a million lines takes a minute of this; on the server's thread it held
 * every other call (a running crawl's progress among them) for that minute.
 *
 * The file is written under a name the workspace does not list (`.NAME.PID-RANDOM.creating.db`) and given
 * its name only once whole and closed, never over a crawl of that name made meanwhile: a crawl
 * half written is never listed, started or deleted, and a server killed while writing one
 * leaves no crawl behind (its leftover is cleared by the next creation of that name).
 */
import { existsSync, linkSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { CrawlSettingsInput } from '../config/settings.js';
import { Crawler } from '../engine/crawler.js';
import { checkShortW } from '../engine/short-w-guard.js';
import { CrawlError, ErrorCodes, noHardLinks } from '../errors.js';
import { sameProcessAlive } from '../process-alive.js';
import { INLINE_SEED_CHARS, parseSeeds, seedSettings } from './seeds.js';

/** A crawl file to write, as a worker thread takes it: plain data. */
export interface CrawlFileJob {
  what: 'create-crawl';
  /** WORKSPACE/NAME.db. */
  path: string;
  input: CrawlSettingsInput;
  /** The seed box's text or an upload's, read here; null: the input's seeds (a demo web's). */
  seedText: string | null;
  /** How the short-w guard's refusal tells the user to confirm (live-crawls.ts CONFIRM_IN_FORM). */
  confirm: string;
}

/**
 * Seeds few enough to read and write on the server's thread (about 50 ms): a worker thread
 * takes a second or more to start under load, which a user creating a small crawl waits for.
 */
export function fewSeeds(job: CrawlFileJob): boolean {
  return (job.seedText ?? '').length <= INLINE_SEED_CHARS && (job.input.seeds?.length ?? 0) <= 10_000;
}

/** Where the file is written until it is whole: a name of this attempt's own (two servers of a workspace, or Foo and foo on a disk that ignores case, never share one). */
export function creatingPath(path: string): string {
  return join(dirname(path), `.${basename(path, '.db')}.${process.pid}-${randomBytes(4).toString('hex')}.creating.db`);
}

export async function writeCrawlFile(job: CrawlFileJob, step: (s: string, fraction: number) => void): Promise<null> {
  const input: CrawlSettingsInput = { ...job.input };
  if (job.seedText !== null) {
    step('reading the seeds', 0);
    Object.assign(input, readSeeds(job.seedText));
  }
  step('checking the settings and seeds', 0.2);
  const settings = Crawler.plan(input);
  await checkShortW(settings, job.confirm);
  const tmp = creatingPath(job.path);
  try {
    step('writing the crawl file', 0.4);
    Crawler.createPlanned(tmp, settings).close();
    giveName(tmp, job.path);
  } finally {
    clear(tmp);
  }
  return null;
}

/** The seeds of a text; the first bad line refuses the crawl, at the seed field. */
function readSeeds(text: string): Partial<CrawlSettingsInput> {
  const parsed = parseSeeds(text);
  const bad = parsed.problems[0];
  if (bad) {
    const more = (parsed.problemCount ?? parsed.problems.length) - 1;
    throw new CrawlError(ErrorCodes.BAD_SEED, `seeds: line ${bad.line}: “${bad.text}”: ${bad.problem}${more > 0 ? ` (and ${more} more)` : ''}`, { field: 'seedText' });
  }
  return seedSettings(parsed);
}

/** Gives the whole file its name, unless a crawl took that name meanwhile (a hard link is made only where no file is). */
function giveName(tmp: string, path: string): void {
  const taken = () => new CrawlError(ErrorCodes.SETTINGS_CONFLICT, `a crawl named "${basename(path, '.db')}" already exists`, { field: 'name' });
  try {
    linkSync(tmp, path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw taken();
    // A file system without hard links (FAT, some network shares): checked, then renamed.
    if (!noHardLinks(err)) throw err;
    if (existsSync(path)) throw taken();
    renameSync(tmp, path);
  }
}

function clear(tmp: string): void {
  for (const p of [tmp, `${tmp}-wal`, `${tmp}-shm`, `${tmp}.lock`, `${tmp}.content`]) rmSync(p, { recursive: true, force: true });
}

/**
 * Removes what a server killed while writing a crawl's file left in `dir` (`.NAME.PID-RANDOM.creating.db`
 * and its companions), unless a live process holds it (another server of this workspace writing
 * one now): a name never asked again kept its leftover for good.
 */
export function clearCreationLeftovers(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!/^\..+\.creating\.db$/.test(name)) continue;
    const tmp = join(dir, name);
    if (!existsSync(`${tmp}.lock`) || !heldByLiveProcess(`${tmp}.lock`)) clear(tmp);
  }
}

function heldByLiveProcess(lock: string): boolean {
  try {
    const [pid, host, stamp] = readFileSync(lock, 'utf8').split('@');
    // Another machine's (a workspace on a shared disk): held, as database.ts takes it.
    return host !== hostname() || sameProcessAlive(Number(pid), stamp);
  } catch {
    return false;
  }
}
