/**
 * Whether a process named in a file (a crawl's runner file, a parallel crawl's run file) still
 * runs: the test before such a file is taken over, or its process's channel left alone.
 */

/** True while a process with this pid runs (one of another user's counts: kill answers EPERM). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
