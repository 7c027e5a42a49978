import type Database from 'better-sqlite3';
import Sqlite from './sqlite.js';
import { closeSync, existsSync, linkSync, openSync, readFileSync, readSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { CrawlError, ErrorCodes, isDiskFull, noHardLinks } from '../errors.js';
import { processStamp, sameProcessAlive } from '../process-alive.js';
import { migrationNotice } from './migration-notice.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations/index.js';

export type Db = Database.Database;

const APP_ID = 0x43424e43; // 'CBNC': marks a SQLite file as a crawlbench crawl

export interface OpenOptions {
  /** Create the file if it does not exist (never overwrites an existing one). */
  create?: boolean;
  /** Open for reading only (UI, eval, export): no lock, no migrations. */
  readonly?: boolean;
}

/**
 * Opens a crawl database, refusing rather than damaging anything unexpected: a file that
 * is not SQLite, a SQLite file that is not a crawl, a crawl from a newer crawlbench, or a
 * crawl another process is writing. Writers hold `FILE.lock` (pid@host@stamp, process-alive.ts); a lock left by
 * a killed process is taken over, which is what lets a SIGKILLed crawl resume.
 */
export function openDatabase(path: string, opts: OpenOptions = {}): { db: Db; release: () => void } {
  const exists = existsSync(path);
  if (!exists && !opts.create) throw new CrawlError(ErrorCodes.DB_MISSING, `${path}: no such crawl database`);
  if (exists) checkHeader(path);
  const release = opts.readonly ? () => {} : acquireLock(path);
  let db: Db | undefined;
  try {
    db = new Sqlite(path, { readonly: !!opts.readonly, fileMustExist: !opts.create });
    db.pragma('busy_timeout = 5000');
    // Checked before anything is written: another program's file was switched to WAL before
    // it was refused, and an empty file given as a crawl got a crawl's schema.
    const version = db.pragma('user_version', { simple: true }) as number;
    const appId = db.pragma('application_id', { simple: true }) as number;
    if (exists && version === 0 && appId === 0 && hasTables(db)) {
      throw new CrawlError(ErrorCodes.DB_NOT_A_CRAWL, `${path}: a SQLite database, but not a crawlbench crawl`);
    }
    if (appId !== 0 && appId !== APP_ID) {
      throw new CrawlError(ErrorCodes.DB_NOT_A_CRAWL, `${path}: a SQLite database of another application`);
    }
    if (exists && version === 0 && !opts.create) {
      const what = statSync(path).size === 0 ? 'an empty file' : 'a SQLite file with no crawl in it';
      throw new CrawlError(ErrorCodes.DB_NOT_A_CRAWL, `${path}: ${what}, not a crawl database; left untouched`);
    }
    if (!opts.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
    if (version > SCHEMA_VERSION) {
      throw new CrawlError(
        ErrorCodes.DB_TOO_NEW,
        `${path}: made by a newer crawlbench (schema ${version}, this one knows up to ${SCHEMA_VERSION}); upgrade crawlbench`,
      );
    }
    if (!opts.readonly) migrate(db, version);
    else if (version < SCHEMA_VERSION) {
      throw new CrawlError(ErrorCodes.DB_NOT_A_CRAWL, `${path}: schema ${version} needs migrating; open it for writing once`);
    }
  } catch (err) {
    // Closed as well as unlocked: a worker removes a part refused as no crawl and makes it again, which Windows refuses while it is open.
    if (db?.open) db.close();
    release();
    throw mapSqliteError(path, err);
  }
  const opened = db;
  return {
    db: opened,
    release: () => {
      if (opened.open) opened.close();
      release();
    },
  };
}

/**
 * The schema of a crawl file made by an earlier crawlbench, which opening it for writing would
 * bring up to this one's (migrate below; minutes for a crawl of millions of pages: its links are
 * rewritten); null when the file is of this schema, or is no crawl file at all (opening it says
 * why). Reads the header only, without the writer's lock.
 */
export function schemaBehind(path: string): number | null {
  if (!existsSync(path)) return null;
  let db: Db;
  try {
    db = new Sqlite(path, { readonly: true, fileMustExist: true });
  } catch {
    return null;
  }
  try {
    const appId = db.pragma('application_id', { simple: true }) as number;
    const version = db.pragma('user_version', { simple: true }) as number;
    return (appId === APP_ID || appId === 0) && version >= 1 && version < SCHEMA_VERSION ? version : null;
  } catch {
    return null;
  } finally {
    db.close();
  }
}

/** Refuses a read of a crawl file being brought up to this schema elsewhere (the engine's upgrade process). */
export function upgradingError(path: string, from: number): CrawlError {
  return new CrawlError(
    ErrorCodes.DB_UPGRADING,
    `${path}: made by an earlier crawlbench (schema ${from}); it is being brought up to this version's (schema ${SCHEMA_VERSION}) and opens once that is done`,
  );
}

function hasTables(db: Db): boolean {
  return (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }).n > 0;
}

/**
 * Runs the numbered migrations after `from`, each in its own transaction, and one numbered
 * before `from` whose additions the database lacks (MIGRATIONS' `missing`).
 */
function migrate(db: Db, from: number): void {
  if (from >= 1 && from < SCHEMA_VERSION) migrationNotice(db.name, from, SCHEMA_VERSION);
  for (const m of MIGRATIONS) {
    if (m.version <= from && !m.missing?.(db)) continue;
    db.transaction(() => {
      const more = m.more?.(db) ?? '';
      db.exec(m.sql + more);
      db.pragma(`user_version = ${Math.max(m.version, from)}`);
      db.pragma(`application_id = ${APP_ID}`);
    })();
  }
}

/** What every SQLite database's first 16 bytes say. */
export const SQLITE_MAGIC = 'SQLite format 3\u0000';

/** The first 16 bytes of the file at `path` (fewer for a shorter file); throws when it cannot be read. */
export function fileHead(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(16);
    return buf.subarray(0, readSync(fd, buf, 0, 16, 0));
  } finally {
    closeSync(fd);
  }
}

function checkHeader(path: string): void {
  let head: Buffer;
  try {
    head = fileHead(path);
  } catch (err) {
    throw new CrawlError(ErrorCodes.DB_CORRUPT, `${path}: cannot be read (${(err as Error).message})`);
  }
  if (head.length === 0) return; // an empty file: SQLite treats it as a new database
  if (head.toString('latin1') !== SQLITE_MAGIC) {
    throw new CrawlError(ErrorCodes.DB_CORRUPT, `${path}: not a SQLite database (corrupt or another kind of file); left untouched`);
  }
}

function mapSqliteError(path: string, err: unknown): unknown {
  if (err instanceof CrawlError) return err;
  const code = (err as { code?: string }).code ?? '';
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return new CrawlError(ErrorCodes.DB_CORRUPT, `${path}: the database is corrupt (${(err as Error).message}); left untouched`);
  }
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
    return new CrawlError(ErrorCodes.DB_LOCKED, `${path}: locked by another process`);
  }
  // A migration that fills the disk (its links rewritten) is rolled back: the file stays as it was.
  if (isDiskFull(err)) {
    return new CrawlError(ErrorCodes.DISK_FULL, `${path}: the disk is full (${(err as Error).message}); the file was left as it was`);
  }
  return err;
}

function acquireLock(path: string): () => void {
  const lockPath = `${path}.lock`;
  // pid@host@stamp: the stamp (process-alive.ts) tells this process from another program given
  // its pid after a reboot, whose lock was refused as held until that program ended.
  const stamp = processStamp(process.pid);
  const me = `${process.pid}@${hostname()}${stamp ? `@${stamp}` : ''}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      createWhole(lockPath, me);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        try {
          if (readFileSync(lockPath, 'utf8') === me) unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
      process.once('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readFileSync(lockPath, 'utf8');
      const [pidText, host, holderStamp] = holder.split('@');
      const pid = Number(pidText);
      if (host === hostname() && Number.isInteger(pid) && (pid === process.pid ? !holderStamp || stamp === null || holderStamp === stamp : sameProcessAlive(pid, holderStamp))) {
        throw new CrawlError(ErrorCodes.DB_LOCKED, `${path}: locked by another crawl (process ${pid}); stop it first`);
      }
      if (host !== hostname()) {
        throw new CrawlError(ErrorCodes.DB_LOCKED, `${path}: locked by a crawl on ${host} (remove ${lockPath} if it is dead)`);
      }
      unlinkSync(lockPath); // stale: its process is gone (e.g. killed); take over
    }
  }
  throw new CrawlError(ErrorCodes.DB_LOCKED, `${path}: could not take the lock`);
}

/**
 * Creates `path` holding `text`, or fails with EEXIST: whole from its first moment (written
 * beside it, then linked to its name), so that a process reading a lock never finds it empty
 * between its creation and its writing (read so, it named a crawl on host "undefined").
 */
function createWhole(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, text);
  try {
    linkSync(tmp, path);
  } catch (err) {
    // EEXIST (held) and any other failure are thrown; a file system without hard links: created, then written.
    if (!noHardLinks(err)) throw err;
    const fd = openSync(path, 'wx');
    writeSync(fd, text);
    closeSync(fd);
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // gone already
    }
  }
}
