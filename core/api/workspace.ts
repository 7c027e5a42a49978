/**
 * A workspace folder of crawl databases: the name rule of a crawl and where its file is. Shared
 * by the engine API (engine-api.ts) and its parts (live-crawls.ts, crawl-create.ts).
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CrawlError, ErrorCodes, badOption } from '../errors.js';
import { makeFolders } from '../folders.js';

/** A crawl's name (its file NAME.db): letters, digits, . _ -, starting with a letter or digit. */
export const CRAWL_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** Where a workspace's crawls are, by name. */
export class Workspace {
  /** Makes the folder when it is missing. */
  constructor(readonly dir: string) {
    makeFolders(dir);
  }

  /** A crawl's file (it may not exist yet); refuses a name that is not one. */
  path(id: string): string {
    if (typeof id !== 'string' || !CRAWL_ID.test(id) || id.includes('..')) throw badOption('crawl', `"${String(id)}" is not a crawl name (letters, digits, . _ -)`);
    return join(this.dir, `${id}.db`);
  }

  /** The file of a crawl that exists (CRAWL_DB_MISSING otherwise). */
  existing(id: string): string {
    const p = this.path(id);
    if (!existsSync(p)) throw new CrawlError(ErrorCodes.DB_MISSING, `no crawl named "${id}" in ${this.dir}`);
    return p;
  }

  /** The workspace crawl a database file is, or null for a file elsewhere. */
  idOf(file: string): string | null {
    const p = resolve(file);
    const id = basename(p, '.db');
    return dirname(p) === this.dir && p.endsWith('.db') && CRAWL_ID.test(id) ? id : null;
  }
}

/** The object without its undefined fields (a request's absent options are not overrides). */
export function withoutUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
