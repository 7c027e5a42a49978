import type Database from 'better-sqlite3';
import { sql as initial } from './001-initial.js';
import { sql as pagerank } from './002-pagerank.js';
import { sql as writeOptimised } from './003-write-optimised.js';
import { sql as timeline } from './004-timeline.js';
import { sql as rawCapture } from './005-raw-capture.js';
import { sql as pageSearch } from './006-page-search.js';
import { missing as tlsMissing, sql as tls } from './007-tls.js';
import { sql as validators } from './008-validators.js';
import { sql as sitemaps } from './009-sitemaps.js';
import { sql as siteProbes } from './010-site-probes.js';
import { sql as siteSorts } from './011-site-sorts.js';
import { indexAgain, sql as linksByFetch } from './012-links-by-fetch.js';
import { sql as contentClaims } from './013-content-claims.js';

/**
 * Numbered migrations; the database's user_version is the number of the last one applied.
 * `missing`: a migration numbered after a later one was released, run on a database past its
 * number that lacks what it adds.
 */
export const MIGRATIONS: ReadonlyArray<{
  version: number;
  name: string;
  sql: string;
  missing?: (db: Database.Database) => boolean;
  /** SQL to run after `sql`, decided from the database before it runs. */
  more?: (db: Database.Database) => string;
}> = [
  { version: 1, name: 'initial', sql: initial },
  { version: 2, name: 'pagerank', sql: pagerank },
  { version: 3, name: 'write-optimised', sql: writeOptimised },
  { version: 4, name: 'timeline', sql: timeline },
  { version: 5, name: 'raw-capture', sql: rawCapture },
  { version: 6, name: 'page-search', sql: pageSearch },
  { version: 7, name: 'tls', sql: tls, missing: tlsMissing },
  { version: 8, name: 'validators', sql: validators },
  { version: 9, name: 'sitemaps', sql: sitemaps },
  { version: 10, name: 'site-probes', sql: siteProbes },
  { version: 11, name: 'site-sorts', sql: siteSorts },
  { version: 12, name: 'links-by-fetch', sql: linksByFetch, more: indexAgain },
  { version: 13, name: 'content-claims', sql: contentClaims },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
