/**
 * Whether a process named in a file (a crawl's runner file, a parallel crawl's run file, a crawl
 * file's lock) still runs: the test before such a file is taken over, or its process's channel
 * left alone.
 */
import { readFileSync } from 'node:fs';

/** True while a process with this pid runs (one of another user's counts: kill answers EPERM). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The boot this machine is in and the moment process `pid` started in it (Linux's /proc): with
 * a pid, it names one process for good, where a pid alone is given again to another program
 * after a reboot or once the counter wraps. Null where the system does not say (macOS, Windows).
 */
export function processStamp(pid: number): string | null {
  try {
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 2, the command's name, is in parentheses and may hold spaces: fields 3 on follow its last ')'. Field 22 is the start time.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return boot && start && /^\d+$/.test(start) ? `${boot}:${start}` : null;
  } catch {
    return null;
  }
}

/**
 * True while the process that wrote `stamp` (its processStamp then) runs: its pid is alive and,
 * where the system says, that pid started at the same moment of the same boot. Without a stamp
 * (a file written by an older crawlbench, or on a system without one) a live pid counts.
 */
export function sameProcessAlive(pid: number, stamp: string | undefined): boolean {
  if (!processAlive(pid)) return false;
  if (!stamp) return true;
  const now = processStamp(pid);
  return now === null || now === stamp;
}
