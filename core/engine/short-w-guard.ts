/**
 * A w below 1 s is fine for a web on this machine (the demo, the test webs) and rude, or
 * worse, for real servers: a careless crawl of the internet starts with a w left at 0. So a
 * crawl whose seeds or scope reach a host outside the loopback range (127.0.0.0/8, ::1; a
 * host's address as `resolve` maps it, else as the system resolves it; `localhost` counts
 * as loopback) needs the user's explicit confirmation (settings.allowShortW) for such a w.
 *
 * A domain-suffix scope (`.cl`) reaches hosts nobody can list: it is loopback only when a
 * `resolve` wildcard sends every host under it to a loopback address.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { SHORT_W_MS } from '../config/limits.js';
import type { CrawlSettings } from '../config/settings.js';
import { CrawlError, ErrorCodes } from '../errors.js';
import { ResolveRules } from '../fetch/resolve-rules.js';

/** All addresses of a host name, as the system resolves it (hosts file, then DNS). */
export type AddressLookup = (host: string) => Promise<string[]>;

const systemLookup: AddressLookup = async (host) => (await lookup(host, { all: true })).map((a) => a.address);

export function isLoopbackAddress(address: string): boolean {
  const a = address.toLowerCase();
  if (isIP(a) === 4) return a.startsWith('127.');
  if (isIP(a) === 6) return a === '::1' || a === '0:0:0:0:0:0:0:1' || (a.startsWith('::ffff:') && a.slice(7).startsWith('127.'));
  return false;
}

async function hostIsLoopback(rules: ResolveRules, rawHost: string, look: AddressLookup): Promise<boolean> {
  const host = rawHost.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) return isLoopbackAddress(host);
  const rule = rules.mapped(host);
  if (rule !== undefined) return isLoopbackAddress(rule);
  if (host === 'localhost') return true;
  try {
    const addresses = await look(host);
    return addresses.length > 0 && addresses.every(isLoopbackAddress);
  } catch {
    return false; // unknown: it may well be outside
  }
}

/** Every host under a scope suffix goes to loopback only through `resolve` rules. */
function suffixIsLoopback(rules: ResolveRules, rawSuffix: string): boolean {
  const s = rawSuffix.toLowerCase();
  const dotted = s.startsWith('.') ? s : `.${s}`;
  // Some host under it that no exact rule names: what the wildcards give it.
  const probe = rules.byWildcard(`crawlbench-probe${dotted}`);
  if (probe === undefined || !isLoopbackAddress(probe)) return false;
  // A more specific rule under the suffix may send some hosts elsewhere.
  const under = (name: string) => name === s.replace(/^\./, '') || name.endsWith(dotted);
  return rules.list.every((r) => isLoopbackAddress(r.address) || !(r.host !== null ? under(r.host) : r.suffix !== '' && under(r.suffix!.slice(1))));
}

/** A host (or `*.suffix`) this crawl may reach outside this machine, or null when all are loopback. */
export async function hostOutsideLoopback(settings: CrawlSettings, look: AddressLookup = systemLookup): Promise<string | null> {
  const rules = new ResolveRules(settings.resolve);
  const hosts = new Set([...settings.seeds.map((s) => new URL(s).hostname), ...settings.scope.hosts]);
  for (const host of hosts) if (!(await hostIsLoopback(rules, host, look))) return host;
  for (const suffix of settings.scope.suffixes) {
    // A suffix also names a host itself (scope.ts: `uchile.cl` or `.uchile.cl`); a bare TLD
    // (`cl`, `demo`) is no web server's name.
    const bare = suffix.toLowerCase().replace(/^\./, '');
    if (bare.includes('.') && !(await hostIsLoopback(rules, bare, look))) return bare;
    if (!suffixIsLoopback(rules, suffix)) return `*.${bare}`;
  }
  return null;
}

/**
 * Refuses (CRAWL_SHORT_W_UNCONFIRMED) a w below 1 s for a crawl that reaches hosts outside
 * this machine unless the user confirmed it. `confirm` says how, in the caller's words (a CLI
 * flag, a checkbox).
 */
export async function checkShortW(settings: CrawlSettings, confirm = 'confirm the short wait', look?: AddressLookup): Promise<void> {
  if (settings.w >= SHORT_W_MS || settings.allowShortW) return;
  const outside = await hostOutsideLoopback(settings, look);
  if (outside === null) return;
  throw new CrawlError(
    ErrorCodes.SHORT_W,
    `w: ${settings.w} ms between connections to a site is below 1 s, and this crawl reaches ${outside}, outside this machine: ${confirm} to crawl real servers that fast`,
    { field: 'w' },
  );
}
