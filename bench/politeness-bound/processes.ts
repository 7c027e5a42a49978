import { createReadStream, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ServedRequest } from '../../core/testweb/request-log.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const CLI = join(ROOT, 'bin', 'crawlbench.js');

/** The test web in its own process (`crawlbench testweb`), as reproduce starts it. */
export { startTestWeb, type TestWebInfo } from '../../core/reproduce/cao-crawls.js';

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
export function cpuSecondsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100/s)
  } catch {
    return NaN;
  }
}

/** Resident set size of a process, from /proc (Linux). */
export function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** The test web's NDJSON request log, streamed (it can hold millions of lines). */
export async function readRequestLog(path: string, each: (r: ServedRequest) => void): Promise<number> {
  let n = 0;
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.length === 0) continue;
    each(JSON.parse(line) as ServedRequest);
    n++;
  }
  return n;
}
