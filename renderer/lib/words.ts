/** Engine codes and states in a researcher's words. */
import type { CrawlInfo } from '../../core/api/contract.js';

const PARKED: Record<string, string> = {
  CRAWL_ROBOTS_UNAVAILABLE: 'robots.txt could not be read (server error or no answer), so nothing may be fetched',
  CRAWL_SITE_PARKED: 'too many failed requests in a row (its error budget was spent)',
};

export function parkedReason(code: string): string {
  return PARKED[code] ?? code;
}

/** "paused by you at 14:03", "failed: disk I/O error", "stopped for good by you", ... */
export function endReasonText(c: CrawlInfo): string {
  const e = c.endReason;
  if (!e) return c.status === 'created' ? 'not started yet' : '';
  const at = e.at ? ` at ${new Date(e.at).toLocaleString()}` : '';
  switch (e.kind) {
    case 'finished':
      return `finished${at}: every page in scope was fetched or given up`;
    case 'max-pages':
      return `reached its page limit${at}; raise the limit and resume to go on`;
    case 'paused':
      return `paused${at}; resume to go on`;
    case 'stopped':
      return `stopped for good${at}; its data stays for analysis`;
    case 'disk-full':
      return `paused${at} because the disk (or the database size limit) was full; free space and resume`;
    case 'failed':
      return `failed${at}: ${e.message ?? 'unknown error'}; resume to try again`;
    case 'interrupted':
      return 'interrupted: the program ended while it ran; resume to go on from its file';
  }
}

/** The one word for running a crawl again: "Start" for one never started, "Resume" for one that ran. */
export function startWord(status: CrawlInfo['status']): 'Start' | 'Resume' {
  return status === 'created' ? 'Start' : 'Resume';
}
