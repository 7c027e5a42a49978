/**
 * Preloaded into every node process of a parallel crawl (NODE_OPTIONS=--import this file, which
 * the coordinator passes on to the workers it starts): when a process exits it writes its own
 * resource usage to $BENCH_USAGE_DIR/PID.json, with its argv so that the bench tells a worker
 * (and its parts) from the coordinator. CPU seconds (all threads) and peak RSS cover the whole
 * life of the process, as bench/throughput's usage-probe does for one process.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.BENCH_USAGE_DIR;
if (dir) {
  const t0 = performance.now();
  process.once('exit', () => {
    const u = process.resourceUsage();
    writeFileSync(
      join(dir, `${process.pid}.json`),
      JSON.stringify({
        pid: process.pid,
        argv: process.argv.slice(2),
        cpuSeconds: (u.userCPUTime + u.systemCPUTime) / 1e6,
        peakRssBytes: u.maxRSS * 1024,
        wallSeconds: (performance.now() - t0) / 1000,
      }) + '\n',
    );
  });
}
