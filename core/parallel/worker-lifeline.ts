/**
 * How a worker process comes to a pause: asked by SIGTERM or SIGINT (Ctrl-C reaches the whole
 * process group, workers included), or, for a worker its coordinator started
 * (`crawlbench worker --end-with-stdin`), by the end of its standard input. That input is a
 * pipe from the coordinator, and the kernel closes it when the coordinator exits however it
 * ended, kill -9 included, so no worker of a dead coordinator goes on crawling into a part
 * database that the next run's workers open.
 *
 * A pause commits every part and ends the process (at once when no part is open yet). If the process has not ended PAUSE_GRACE_MS
 * after the pause was asked (a session or a status write waiting on a broker that is away, or a
 * broker never reached), it exits anyway: every write is transactional, so only the batch not
 * yet committed is lost; its pages are fetched again and its messages, never acknowledged, are
 * delivered again. A second signal ends the process at once.
 */

/** How long a pausing worker may take to commit and end before it exits anyway. */
export const PAUSE_GRACE_MS = 15_000;

export class WorkerLifeline {
  private readonly pausers = new Set<() => void>();
  /**
   * The broker left a part's last status unanswered (its store's disk full, or the broker away):
   * the rest of the way out (the outbox's last publishing, the connection's flush) waits on it no
   * longer. Before, each of those waited out its bound: 5 s more for every such worker.
   */
  brokerSilent = false;
  private why: string | null = null;
  private readonly onSignal = (signal: NodeJS.Signals) => {
    if (this.why !== null) {
      this.note(`${signal} again: ending now; the parts resume from their last committed batch`);
      process.exit(1);
    }
    this.pause(signal);
  };
  private readonly onStdinEnd = () => this.pause('the coordinator is gone (its pipe closed)');

  constructor(
    private readonly note: (line: string) => void,
    private readonly endWithStdin: boolean,
  ) {
    process.on('SIGTERM', this.onSignal);
    process.on('SIGINT', this.onSignal);
    if (endWithStdin) {
      process.stdin.on('end', this.onStdinEnd);
      process.stdin.on('error', this.onStdinEnd);
      process.stdin.on('close', this.onStdinEnd);
      process.stdin.resume();
    }
  }

  /** Why the worker is pausing, or null while it runs. */
  get pausing(): string | null {
    return this.why;
  }

  /** A part's pause; called at once when the worker is already pausing. Returns its removal. */
  add(pause: () => void): () => void {
    this.pausers.add(pause);
    if (this.why !== null) pause();
    return () => this.pausers.delete(pause);
  }

  /** Pauses every part, and bounds how long that may take. */
  pause(why: string): void {
    if (this.why !== null) return;
    this.why = why;
    if (this.pausers.size === 0) {
      // No part is open yet (the worker still reads the crawl from the broker): nothing to commit.
      this.note(`ending: ${why}, before any part began`);
      process.exit(0);
    }
    this.note(`pausing: ${why}`);
    for (const p of this.pausers) p();
    const deadline = setTimeout(() => {
      this.note(`not ended ${PAUSE_GRACE_MS / 1000} s after pausing (the broker is away?): ending now; the parts resume from their last committed batch`);
      process.exit(1);
    }, PAUSE_GRACE_MS);
    // It bounds the pause; it must not itself keep a worker that has ended alive.
    deadline.unref();
  }

  /** The worker has ended: nothing more to watch, so nothing keeps the process alive. */
  close(): void {
    process.off('SIGTERM', this.onSignal);
    process.off('SIGINT', this.onSignal);
    if (this.endWithStdin) {
      process.stdin.off('end', this.onStdinEnd);
      process.stdin.off('error', this.onStdinEnd);
      process.stdin.off('close', this.onStdinEnd);
      process.stdin.destroy();
    }
  }
}
