/**
 * Preloaded into `crawlbench serve` by bench/server-load (`node --import loop-monitor.js
 * bin/crawlbench.js serve ...`), so the same unchanged server code of any checkout is measured:
 * watches the server's main thread with perf_hooks.monitorEventLoopDelay({resolution: 10}) and,
 * on SIGUSR2 and at exit, appends one JSON line to $CB_LOOP_MONITOR_OUT with what it saw since
 * the previous line (p50, p99, max, mean in ms, as perf_hooks reports them: every value holds
 * the 10 ms sampling interval, so an idle loop reads about 10 ms) and starts again.
 *
 * Worker threads and child processes are left alone: the variable is read once and removed.
 */
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const out = process.env.CB_LOOP_MONITOR_OUT;
if (out && isMainThread) {
  delete process.env.CB_LOOP_MONITOR_OUT;
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  let mark = 0;
  let since = performance.now();
  const dump = (why: 'signal' | 'exit') => {
    const ms = (ns: number) => ns / 1e6;
    const line = {
      mark: mark++, why, seconds: (performance.now() - since) / 1000, samples: h.count,
      p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), mean: ms(h.mean),
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
    };
    appendFileSync(out, JSON.stringify(line) + '\n');
    h.reset();
    since = performance.now();
  };
  process.on('SIGUSR2', () => dump('signal'));
  process.on('exit', () => dump('exit'));
}
