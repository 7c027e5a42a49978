/**
 * Where each site's pages sit in the id space, and the SiteInfo records the server reads.
 */
import { FAULT_KINDS, faultHost, faultRobots, isTlsFault, TLS_FAULT_KINDS } from './fault-kinds.js';
import { schemeOf } from './schemes.js';
import type { Layout } from './link-builder.js';
import { siteTraits, type SiteTraits } from './site-model.js';
import type { ResolvedSpec } from './spec.js';
import type { FaultKind, SiteInfo } from './web.js';

/** Separate the random streams of the two revisions. */
export const REV1_SALT = 0x1e51;
export const REV2_SALT = 0x2e52;

/** The web's fault sites, in order: none without faults; the TLS ones too when sites are on TLS. */
export function faultKinds(o: ResolvedSpec): readonly FaultKind[] {
  if (!o.faults) return [];
  return o.tls > 0 ? [...FAULT_KINDS, ...TLS_FAULT_KINDS] : FAULT_KINDS;
}

export function faultCount(o: ResolvedSpec): number {
  return faultKinds(o).length;
}

/** Site start ids for the given ordinary site sizes, with the fault sites appended. */
export function makeLayout(o: ResolvedSpec, salt: number, sizes: Int32Array, urlNums: Int32Array | null): Layout {
  const faults = faultCount(o);
  const n = sizes.length + faults;
  const firsts = new Int32Array(n);
  const counts = new Int32Array(n);
  let next = 0;
  for (let s = 0; s < n; s++) {
    firsts[s] = next;
    counts[s] = s < sizes.length ? sizes[s]! : 1;
    next += counts[s]!;
  }
  const traits: SiteTraits[] = [];
  for (let s = 0; s < sizes.length; s++) traits.push(siteTraits(o.seed, s, o));
  return { seed: o.seed, salt, ordinary: sizes.length, firsts, counts, urlNums, traits, pageCount: next };
}

export function siteInfos(o: ResolvedSpec, L: Layout): SiteInfo[] {
  const out: SiteInfo[] = [];
  for (let s = 0; s < L.firsts.length; s++) {
    if (s < L.ordinary) {
      const t = L.traits[s]!;
      out.push({
        host: `s${String(s).padStart(o.hostWidth, '0')}${o.suffix}`,
        first: L.firsts[s]!,
        count: L.counts[s]!,
        latencyMs: t.latencyMs,
        bytesPerSec: t.bytesPerSec,
        keepAliveMax: t.keepAliveMax,
        ...(o.keepAliveHeader ? { keepAliveHeader: true } : {}),
        robots: t.robots,
        ...(o.tls > 0 ? { scheme: schemeOf(o.seed, s, o.tls, o.tlsBoth) } : {}),
      });
    } else {
      const kind = faultKinds(o)[s - L.ordinary]!;
      out.push({
        host: faultHost(kind, o.suffix),
        first: L.firsts[s]!,
        count: 1,
        latencyMs: 0,
        bytesPerSec: 0,
        keepAliveMax: 100,
        robots: faultRobots(kind),
        fault: kind,
        ...(isTlsFault(kind) ? { scheme: 'https' as const } : {}),
      });
    }
  }
  return out;
}
