/**
 * Names of the fault sites, kept apart from faults.ts (which holds their server behaviour)
 * so that the generator can lay them out without loading the server code.
 */
import type { FaultKind, RobotsKind } from './web.js';

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

export function faultHost(kind: FaultKind, suffix = '.demo'): string {
  return `${kind}${suffix}`;
}

/** Fault host names with the default '.demo' suffix, by kind: FAULT_HOSTS.calendar === 'calendar.demo'. */
export const FAULT_HOSTS: Readonly<Record<FaultKind, string>> = Object.freeze(
  Object.fromEntries(FAULT_KINDS.map((k) => [k, faultHost(k)])) as Record<FaultKind, string>,
);

/** robots.txt of each fault site: only the two robots faults differ from allow-all. */
export function faultRobots(kind: FaultKind): RobotsKind {
  return kind === 'robots500' ? 'server-error' : kind === 'robots404' ? 'not-found' : 'allow-all';
}
