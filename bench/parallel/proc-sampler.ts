/**
 * A process's CPU seconds and peak RSS sampled from /proc every 250 ms, for a process the bench
 * did not start itself (the nats-server a parallel crawl's coordinator starts): its pid is read
 * from the coordinator's NAME.parts/coordinator.json (brokerPid). The last sample before the
 * process ends stands for its whole life (CPU to within 250 ms; VmHWM is the kernel's own peak).
 */
import { existsSync, readFileSync } from 'node:fs';

export class ProcSampler {
  private pid: number | null = null;
  private last: { cpuSeconds: number; peakRssBytes: number } | null = null;
  private readonly timer: NodeJS.Timeout;
  constructor(private readonly pidFile: string) {
    this.timer = setInterval(() => this.sample(), 250);
  }
  private sample(): void {
    try {
      if (this.pid === null && existsSync(this.pidFile)) this.pid = (JSON.parse(readFileSync(this.pidFile, 'utf8')) as { brokerPid: number | null }).brokerPid;
      if (this.pid === null) return;
      const stat = readFileSync(`/proc/${this.pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'));
      // utime and stime are fields 14 and 15 of stat (11 and 12 after the name), in ticks of 1/100 s on Linux.
      this.last = { cpuSeconds: (Number(f[11]) + Number(f[12])) / 100, peakRssBytes: Number(hwm?.[1] ?? 0) * 1024 };
    } catch {
      // not written yet, or the process ended: keep the last sample
    }
  }
  stop(): void {
    clearInterval(this.timer);
  }
  result(): { cpuSeconds: number; peakRssBytes: number } | null {
    return this.last;
  }
}

