/**
 * Preloaded into each benchmark child (`node --import ./usage-probe.js ...`): when the process
 * exits it writes its own resource usage to $BENCH_USAGE_OUT, so CPU seconds (all threads, and
 * the main thread's alone) and peak RSS are exact and cover the whole life of the process, not a
 * sample of it.
 */
import { writeFileSync } from 'node:fs';

const out = process.env.BENCH_USAGE_OUT;
if (out) {
  const t0 = performance.now();
  process.once('exit', () => {
    const u = process.resourceUsage();
    // The main thread's own CPU (process.threadCpuUsage: Node 22 and 24, not 20): for crawlbench its crawl thread, without the writer's and parse pool's.
    const threadCpu = (process as { threadCpuUsage?: () => { user: number; system: number } }).threadCpuUsage;
    const own = typeof threadCpu === 'function' ? threadCpu.call(process) : null;
    writeFileSync(
      out,
      JSON.stringify({
        pid: process.pid,
        userSeconds: u.userCPUTime / 1e6,
        systemSeconds: u.systemCPUTime / 1e6,
        cpuSeconds: (u.userCPUTime + u.systemCPUTime) / 1e6,
        peakRssBytes: u.maxRSS * 1024,
        mainThreadCpuSeconds: own ? (own.user + own.system) / 1e6 : null,
        wallSeconds: (performance.now() - t0) / 1000,
      }) + '\n',
    );
  });
}
