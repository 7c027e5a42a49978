/**
 * Which sites of a test web answer over TLS: a deterministic share of them (the same seed,
 * the same sites), and of those a share on both schemes, whose http answers redirect to https.
 */
import { hash, unit } from '../random.js';
import type { SiteInfo, SiteScheme } from './web.js';

const S_TLS = 0x7151;

/** The scheme of ordinary site `s` of a web whose `share` of sites is on TLS, `both` of those on http too. */
export function schemeOf(seed: number, s: number, share: number, both: number): SiteScheme {
  if (share <= 0) return 'http';
  const h = hash(seed, s, S_TLS);
  if (unit(h) >= share) return 'http';
  return unit(hash(h, 1)) < both ? 'both' : 'https';
}

/** Puts a share of a loaded web's sites on TLS (`testweb --graph DIR --tls SHARE`). */
export function applySchemes(sites: SiteInfo[], seed: number, share: number, both: number): void {
  if (share <= 0) return;
  sites.forEach((site, s) => {
    if (!site.fault) site.scheme = schemeOf(seed, s, share, both);
  });
}
