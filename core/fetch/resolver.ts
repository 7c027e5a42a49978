import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { CrawlError, ErrorCodes } from '../errors.js';
import { ResolveRules, type ResolveRule } from './resolve-rules.js';

export type { ResolveRule } from './resolve-rules.js';

/**
 * Host name -> address, with `--resolve` rules first (`*.demo=127.0.0.1`, `a.cl=127.0.0.5`,
 * `*=127.0.0.1`), then a cache in front of c-ares. c-ares queries run on the event loop, so
 * 50,000 sites do not queue behind libuv's 4 threads as `dns.lookup` would.
 */
export class CachingResolver {
  private readonly rules: ResolveRules;
  private readonly cache = new Map<string, { address: string; expires: number }>();
  private readonly inflight = new Map<string, Promise<string>>();
  private readonly dns = new dns.Resolver({ timeout: 5000, tries: 2 });
  lookups = 0;

  constructor(rules: readonly ResolveRule[] = []) {
    this.rules = new ResolveRules(rules);
  }

  /** The address a rule maps this host to, if any. */
  mapped(host: string): string | undefined {
    return this.rules.mapped(host);
  }

  async resolve(host: string): Promise<string> {
    const bare = host.startsWith('[') ? host.slice(1, -1) : host;
    if (isIP(bare)) return bare;
    const mapped = this.mapped(bare);
    if (mapped) return mapped;
    if (bare === 'localhost') return '127.0.0.1';
    const cached = this.cache.get(bare);
    if (cached && cached.expires > Date.now()) return cached.address;
    let pending = this.inflight.get(bare);
    if (!pending) {
      pending = this.query(bare).finally(() => this.inflight.delete(bare));
      this.inflight.set(bare, pending);
    }
    return pending;
  }

  private async query(host: string): Promise<string> {
    this.lookups++;
    for (const family of [4, 6] as const) {
      try {
        const records = family === 4 ? await this.dns.resolve4(host, { ttl: true }) : await this.dns.resolve6(host, { ttl: true });
        if (records.length > 0) {
          const ttl = Math.min(Math.max(records[0]!.ttl, 300), 86_400);
          this.cache.set(host, { address: records[0]!.address, expires: Date.now() + ttl * 1000 });
          return records[0]!.address;
        }
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ENODATA' && code !== 'ENOTFOUND' && family === 6) {
          throw new CrawlError(ErrorCodes.DNS_FAILURE, `${host}: DNS lookup failed (${code})`);
        }
      }
    }
    throw new CrawlError(ErrorCodes.DNS_FAILURE, `${host}: no address found`);
  }
}
