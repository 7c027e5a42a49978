/**
 * Schema 7: each site's schemes and certificate (issue 26).
 * - sites.schemes: the schemes the crawl reached the site over, as bits (1 http, 2 https).
 * - sites.tls: its certificate as last found over https: 'ok', or the problem's code
 *   (CRAWL_TLS_EXPIRED, _UNTRUSTED, _WRONG_NAME, _HANDSHAKE_FAILED, _HANDSHAKE_TIMEOUT);
 *   NULL when the site was never reached over https.
 * Schema 8 was numbered before this one was written: `missing` lets a crawl made at schema 8
 * or later without these columns get them all the same.
 */
import type Database from 'better-sqlite3';

export const sql = `
ALTER TABLE sites ADD COLUMN schemes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE sites ADD COLUMN tls TEXT;
`;

/** True when the sites table lacks this schema's columns. */
export function missing(db: Database.Database): boolean {
  return !(db.prepare('SELECT name FROM pragma_table_info(\'sites\')').pluck().all() as string[]).includes('tls');
}
