import { domainToASCII } from 'node:url';
import { badOption, ErrorCodes } from '../errors.js';
import { DEFAULT_MAX_URL_LENGTH } from './canonical.js';
import { hostOf } from './site-key.js';
import { userRegExp } from './user-regex.js';

/**
 * Which URLs belong to the crawl. A national-domain crawl is scoped by suffix (`.cl`),
 * a small study by host names; with neither, the crawl stays on its seeds' hosts.
 * Every discovered link is checked, so host matching is a Set lookup per label suffix
 * of the host (`a.b.cl`, `b.cl`, `cl`), never a loop over regular expressions; the
 * user's exclude patterns run last, only on URLs already in scope.
 */
export interface ScopeOptions {
  /** `.cl` and `cl` mean the same: the host `cl` and every host ending in `.cl`. */
  suffixes?: string[];
  /** Exact host names. */
  hosts?: string[];
  /** Exact host names of the seeds; used only when neither suffixes nor hosts are given. */
  seedHosts?: string[];
  /** JavaScript regular expression sources, tested against the full canonical URL. */
  excludes?: string[];
  maxUrlLength?: number;
  /**
   * Refuse an exclude that may take exponential time (user-regex.ts; default true): as a crawl
   * is created. A crawl's stored settings are opened with false, so one made by an earlier
   * version, which took any pattern, resumes as it was.
   */
  checkExcludes?: boolean;
}

export type ScopeProblem = 'out-of-scope' | 'excluded' | typeof ErrorCodes.URL_TOO_LONG;

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?$/;

export class Scope {
  private readonly suffixes = new Set<string>();
  private readonly hosts = new Set<string>();
  private readonly excludes: RegExp[] = [];
  private readonly maxUrlLength: number;

  /** Validates everything up front: a bad value throws CRAWL_BAD_OPTION naming it. */
  constructor(opts: ScopeOptions) {
    for (const s of opts.suffixes ?? []) this.suffixes.add(normalizeSuffix(s));
    for (const h of opts.hosts ?? []) this.hosts.add(normalizeHost(h, 'scope.hosts'));
    if (this.suffixes.size === 0 && this.hosts.size === 0) {
      // With no scope at all (no seeds either) nothing is in scope: safer than everything.
      for (const h of opts.seedHosts ?? []) this.hosts.add(normalizeHost(h, 'seedHosts'));
    }
    for (const source of opts.excludes ?? []) {
      // Checked as user-regex.ts says: none may take exponential time on some URL.
      const re = userRegExp(source, opts.checkExcludes !== false);
      if (!(re instanceof RegExp)) throw badOption('scope.excludes', re.problem);
      this.excludes.push(re);
    }
    const max = opts.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH;
    if (!Number.isInteger(max) || max < 1) {
      throw badOption('scope.maxUrlLength', `must be a positive integer, got ${JSON.stringify(max)}`);
    }
    this.maxUrlLength = max;
  }

  /**
   * null when the (canonical) URL is in scope, else why not. Out-of-scope wins over the
   * other reasons: a foreign URL is not a page of this crawl, whatever its length.
   */
  check(url: string): null | ScopeProblem {
    const host = hostOf(url);
    if (host === null || !this.hostInScope(host)) return 'out-of-scope';
    if (url.length > this.maxUrlLength) return ErrorCodes.URL_TOO_LONG;
    for (const re of this.excludes) if (re.test(url)) return 'excluded';
    return null;
  }

  inScope(url: string): boolean {
    return this.check(url) === null;
  }

  private hostInScope(host: string): boolean {
    // `example.cl.` is the same host as `example.cl`.
    if (host.endsWith('.')) host = host.slice(0, -1);
    if (this.hosts.has(host)) return true;
    if (this.suffixes.size === 0) return false;
    let from = 0;
    for (;;) {
      if (this.suffixes.has(from === 0 ? host : host.slice(from))) return true;
      const dot = host.indexOf('.', from);
      if (dot < 0) return false;
      from = dot + 1;
    }
  }
}

/** `.CL`, `cl`, `.uchile.cl`, `.españa.es` -> `cl`, `cl`, `uchile.cl`, `xn--espaa-rta.es`. */
function normalizeSuffix(value: string): string {
  const bad = (why: string) => badOption('scope.suffixes', `${JSON.stringify(value)} ${why}`);
  if (typeof value !== 'string') throw bad('is not a string');
  let s = value.trim().toLowerCase();
  if (s.startsWith('.')) s = s.slice(1);
  if (s === '') throw bad('is empty');
  // domainToASCII would quietly cut `a.cl/x` to `a.cl`: refuse URL syntax first.
  const ascii = /[/?#@:\\%\s]/.test(s) ? '' : domainToASCII(s);
  if (ascii === '' || !ascii.split('.').every((label) => LABEL.test(label))) {
    throw bad('is not a domain suffix (expected e.g. ".cl" or "uchile.cl")');
  }
  return ascii;
}

/** A host name as the WHATWG parser spells it (lower case, punycode, IPs normalised). */
function normalizeHost(value: string, option: string): string {
  const bad = () => badOption(option, `${JSON.stringify(value)} is not a host name`);
  if (typeof value !== 'string' || value.trim() === '' || /[/?#@\s]/.test(value.trim())) throw bad();
  let u: URL;
  try {
    u = new URL(`http://${value.trim()}/`);
  } catch {
    throw bad();
  }
  // A port is accepted and ignored (callers may pass URL.host): scope, like a site, is per host.
  if (u.hostname === '' || u.pathname !== '/') throw bad();
  return u.hostname.endsWith('.') ? u.hostname.slice(0, -1) : u.hostname;
}
