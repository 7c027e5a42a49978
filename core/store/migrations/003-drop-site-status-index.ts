/**
 * Schema 3: drops pages(site_id, status). No query reads it (the frontier table holds what
 * is queued, per site), yet every discovered page inserted an entry and every fetch moved
 * one, at random places in a B-tree as large as the pages table: ~10 us per fetched page on
 * bench/throughput and a share of every commit on bench/frontier.
 */
export const sql = `
DROP INDEX IF EXISTS pages_site_status;
`;
