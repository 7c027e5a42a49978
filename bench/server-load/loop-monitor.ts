/**
 * Preloaded into `crawlbench serve` by bench/server-load (`node --import loop-monitor.js
 * bin/crawlbench.js serve ...`), so the same unchanged server code of any checkout is measured:
 * watches the server's main thread with perf_hooks.monitorEventLoopDelay({resolution: 10}) and,
 * on SIGUSR2 and at exit, appends one JSON line to $CB_LOOP_MONITOR_OUT with what it saw since
 * the previous line (p50, p99, max, mean in ms, as perf_hooks reports them: every value holds
 * the 10 ms sampling interval, so an idle loop reads about 10 ms) and starts again.
 *
 * Each line also lists the stalls: every gap of more than 50 ms between two 10 ms ticks of a
 * timer of its own, with how much of it the main thread itself spent on a CPU (Linux: utime +
 * stime of /proc/self/task/PID/stat, in 10 ms clock ticks). A stall the thread spent on a CPU
 * is its own work (a query, a JSON parse, garbage collection); one it did not is a wait for a
 * core (the machine's load), which no change to the server's code removes. The bench runs the
 * same monitor in an idle Node process beside the server, for the machine's own stalls.
 *
 * Worker threads and child processes are left alone: the variable is read once and removed.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const STALL_MS = 50;
const TICK_MS = 10;

interface Stall {
  /** Seconds after the line's window began. */
  at: number;
  ms: number;
  /** The main thread's own CPU time over the stall, in ms (10 ms steps); null where /proc is not there. */
  cpuMs: number | null;
}

/** The main thread's CPU time in ms (utime + stime, clock ticks of 10 ms), or null off Linux. */
function threadCpuMs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'latin1');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10; // fields 14 and 15 of proc(5), after pid and (comm)
  } catch {
    return null;
  }
}

const out = process.env.CB_LOOP_MONITOR_OUT;
if (out && isMainThread) {
  delete process.env.CB_LOOP_MONITOR_OUT;
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  let mark = 0;
  let since = performance.now();
  let stalls: Stall[] = [];
  let lastTick = performance.now();
  let lastCpu = threadCpuMs();
  setInterval(() => {
    const now = performance.now();
    const cpu = threadCpuMs();
    const gap = now - lastTick;
    if (gap > STALL_MS + TICK_MS) {
      stalls.push({ at: (lastTick - since) / 1000, ms: gap - TICK_MS, cpuMs: cpu === null || lastCpu === null ? null : cpu - lastCpu });
    }
    lastTick = now;
    lastCpu = cpu;
  }, TICK_MS).unref();
  const dump = (why: 'signal' | 'exit') => {
    const ms = (ns: number) => ns / 1e6;
    const line = {
      mark: mark++, why, seconds: (performance.now() - since) / 1000, samples: h.count,
      p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max), mean: ms(h.mean),
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      stalls,
    };
    appendFileSync(out, JSON.stringify(line) + '\n');
    h.reset();
    stalls = [];
    since = performance.now();
  };
  process.on('SIGUSR2', () => dump('signal'));
  process.on('exit', () => dump('exit'));
}
