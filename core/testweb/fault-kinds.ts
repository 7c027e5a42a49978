/**
 * Names of the fault sites, kept apart from faults.ts (which holds their server behaviour)
 * so that the generator can lay them out without loading the server code.
 */
import type { FaultKind, RobotsKind, TlsFaultKind } from './web.js';

export const FAULT_KINDS: readonly FaultKind[] = [
  'stall-headers',
  'stall-body',
  'reset',
  'redirect-loop',
  'redirect-chain',
  'calendar',
  'session',
  'huge',
  'gzip-bomb',
  'binary',
  'broken-html',
  'latin1',
  'slow',
  'robots500',
  'robots404',
  'error5xx',
  'ratelimit',
];

/** The TLS fault sites, added after FAULT_KINDS to a web with faults and sites on TLS. */
export const TLS_FAULT_KINDS: readonly TlsFaultKind[] = [
  'tls-expired',
  'tls-self-signed',
  'tls-wrong-name',
  'tls-handshake-fail',
  'tls-handshake-stall',
  'tls-long-chain',
  'tls-huge-chain',
  'tls-record-flood',
];

export function isTlsFault(kind: FaultKind | undefined): kind is TlsFaultKind {
  return kind !== undefined && kind.startsWith('tls-');
}

export function faultHost(kind: FaultKind, suffix = '.demo'): string {
  return `${kind}${suffix}`;
}

/** Fault host names with the default '.demo' suffix, by kind: FAULT_HOSTS.calendar === 'calendar.demo'. */
export const FAULT_HOSTS: Readonly<Record<Exclude<FaultKind, TlsFaultKind>, string>> = Object.freeze(
  Object.fromEntries(FAULT_KINDS.map((k) => [k, faultHost(k)])) as Record<Exclude<FaultKind, TlsFaultKind>, string>,
);

/** The TLS fault sites' hosts with the default suffix, by kind. */
export const TLS_FAULT_HOSTS: Readonly<Record<TlsFaultKind, string>> = Object.freeze(
  Object.fromEntries(TLS_FAULT_KINDS.map((k) => [k, faultHost(k)])) as Record<TlsFaultKind, string>,
);

/** robots.txt of each fault site: only the two robots faults differ from allow-all. */
export function faultRobots(kind: FaultKind): RobotsKind {
  return kind === 'robots500' ? 'server-error' : kind === 'robots404' ? 'not-found' : 'allow-all';
}
