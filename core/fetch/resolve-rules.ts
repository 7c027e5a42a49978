import { isIP } from 'node:net';
import { CrawlError, ErrorCodes } from '../errors.js';

export interface ResolveRule {
  pattern: string;
  address: string;
}

/** One rule taken apart: an exact host, or a wildcard's suffix ('.demo' for `*.demo`, '' for `*`). */
export interface ParsedRule {
  host: string | null;
  suffix: string | null;
  address: string;
}

/**
 * The `--resolve` rules (`a.cl=127.0.0.5`, `*.demo=127.0.0.1`, `*=127.0.0.1`) as the crawl
 * applies them: an exact host first, then the longest matching wildcard; of two rules with the
 * same pattern the later one counts. One class for the resolver that sends the crawl's traffic
 * and for the short-w check that decides whether that traffic stays on this machine, so the
 * two cannot disagree. A host is looked up in time of its own length, not of the rules' count:
 * a crawl with 40,000 seeds and as many rules checked them all against each other (8.7 s on
 * the server's thread when a crawl was created).
 */
export class ResolveRules {
  private readonly exact = new Map<string, string>();
  private readonly wildcards = new Map<string, string>();
  readonly list: readonly ParsedRule[];

  constructor(rules: readonly ResolveRule[] = []) {
    const list: ParsedRule[] = [];
    for (const { pattern, address } of rules) {
      if (!isIP(address)) throw new CrawlError(ErrorCodes.BAD_OPTION, `--resolve: "${address}" is not an IP address`);
      const p = pattern.toLowerCase();
      if (p === '*' || p.startsWith('*.')) {
        const suffix = p.slice(1);
        if (suffix.includes('*')) throw badPattern(pattern);
        this.wildcards.set(suffix, address);
        list.push({ host: null, suffix, address });
      } else if (p.includes('*')) throw badPattern(pattern);
      else {
        this.exact.set(p, address);
        list.push({ host: p, suffix: null, address });
      }
    }
    this.list = list;
  }

  /** The address a rule maps this host to, if any. */
  mapped(host: string): string | undefined {
    const h = host.toLowerCase();
    return this.exact.get(h) ?? this.byWildcard(h);
  }

  /** The address the wildcards alone give this (lower-case) host: the longest matching suffix's. */
  byWildcard(host: string): string | undefined {
    if (this.wildcards.size === 0) return undefined;
    // The host's suffixes from a dot, longest first: 'a.b.cl' -> '.b.cl', '.cl'.
    for (let i = host.indexOf('.'); i !== -1; i = host.indexOf('.', i + 1)) {
      const hit = this.wildcards.get(host.slice(i));
      if (hit !== undefined) return hit;
    }
    return this.wildcards.get('');
  }
}

function badPattern(pattern: string): CrawlError {
  return new CrawlError(ErrorCodes.BAD_OPTION, `--resolve: bad pattern "${pattern}" (use host, *.suffix or *)`);
}
