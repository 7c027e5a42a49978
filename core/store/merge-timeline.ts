/**
 * The timelines of a parallel crawl's workers added into one: at every second at which some
 * worker took a sample, each worker's latest sample up to then (none before its first), summed.
 * Times are each worker's own running time; the workers start within a second or two of one
 * another, so the sum reads as the crawl's.
 */

/** The timeline table's columns that add up across workers. */
const SUMMED = ['pages', 'bytes', 'pages_per_s', 'bytes_per_s', 'open_conns', 'r', 'sites_pending', 'queued', 'errors'] as const;

/** A row of the timeline table (schema 4), as SELECT * reads it. */
export type TimelineRow = { t: number; at: number; pagerank: number | null } & Record<(typeof SUMMED)[number], number>;

export function mergeTimelines(parts: TimelineRow[][]): TimelineRow[] {
  const times = [...new Set(parts.flatMap((rows) => rows.map((r) => Math.round(r.t))))].sort((a, b) => a - b);
  const at = parts.map(() => -1);
  const out: TimelineRow[] = [];
  for (const t of times) {
    const row: TimelineRow = { t, at: 0, pages: 0, bytes: 0, pages_per_s: 0, bytes_per_s: 0, open_conns: 0, r: 0, sites_pending: 0, queued: 0, errors: 0, pagerank: null };
    parts.forEach((rows, p) => {
      while (at[p]! + 1 < rows.length && Math.round(rows[at[p]! + 1]!.t) <= t) at[p]!++;
      const s = rows[at[p]!];
      if (!s) return;
      for (const k of SUMMED) row[k] += s[k];
      row.at = Math.max(row.at, s.at);
    });
    out.push(row);
  }
  return out;
}
