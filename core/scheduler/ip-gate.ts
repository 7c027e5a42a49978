/**
 * Politeness per IP address (`perIp`), on top of the scheduler's politeness per site: sites
 * that share an address (virtual hosting: many small sites on one server) are that server's
 * load together, so a connection to one of them holds the address, and the next connection
 * to any of them waits the gap after it ends, as two connections to one site do.
 *
 * Beside the scheduler rather than in it: the scheduler knows sites, not addresses, and an
 * address is known only once its host is resolved, just before connecting (the crawler asks
 * its fetcher, the simulator its graph). The caller asks the gate between taking a session
 * and opening its connection, and hands the session back to the scheduler when told to wait.
 * Reads no clock: times are passed in, so the crawler (real time) and the simulator (virtual
 * time) share it.
 */
export class IpGate {
  /** Address -> when it may be contacted again; Infinity while a connection to it is open. */
  private readonly busyUntil = new Map<string, number>();
  private readonly retryWhileOpenMs: number;

  /**
   * @param w the wait between connections to one site, in ms: how long a session turned away
   * by an open connection waits before asking again (when that connection ends is unknown);
   * at least 20 ms, so that w = 0 does not ask in a busy loop.
   */
  constructor(w: number) {
    this.retryWhileOpenMs = Math.max(w, 20);
  }

  /**
   * Takes the address for one connection: null when it is free (it is now held until
   * release()), else how many ms to wait before asking again.
   */
  acquire(ip: string, now: number): number | null {
    const until = this.busyUntil.get(ip) ?? 0;
    if (until > now) return until === Infinity ? this.retryWhileOpenMs : until - now;
    this.busyUntil.set(ip, Infinity);
    return null;
  }

  /**
   * The connection holding the address ended at `endedAt` (the end of its last response);
   * the next may start `gap` ms later (the site's connection gap: w, or its Crawl-delay).
   */
  release(ip: string, endedAt: number, gap: number): void {
    this.busyUntil.set(ip, endedAt + gap);
  }
}
