/**
 * A token bucket shared by every transfer: with a total bandwidth cap, a reader that got
 * ahead of the budget waits before it reads on. One second of burst is allowed.
 */
export class BandwidthLimiter {
  private tokens: number;
  private last = performance.now();

  constructor(private readonly bytesPerSecond: number) {
    this.tokens = bytesPerSecond;
  }

  async take(bytes: number): Promise<void> {
    const now = performance.now();
    this.tokens = Math.min(this.bytesPerSecond, this.tokens + ((now - this.last) / 1000) * this.bytesPerSecond);
    this.last = now;
    this.tokens -= bytes;
    if (this.tokens < 0) {
      const waitMs = (-this.tokens / this.bytesPerSecond) * 1000;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}
