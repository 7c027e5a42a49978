/** What one session (one connection's worth of work) ends with: session-runner.ts and the pipelined loop fill it. */
import type { QueuedPage } from '../scheduler/scheduler.js';

export interface SessionResult {
  endedAt: number;
  returned: QueuedPage[];
  extraDelayMs: number;
  /** The site failed too often (or its robots.txt stayed unreachable): park it. */
  park: string | null;
}
