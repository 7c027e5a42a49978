import { CrawlError, ErrorCodes } from '../errors.js';
import { BreadthFirst } from './breadth-first.js';
import type { Policy } from './policy.js';

/**
 * The one registry of ordering policies. The crawler and the simulator both build their
 * policy here, so that no policy is ever implemented twice.
 */
export interface PolicyInfo {
  name: string;
  summary: string;
  create(params: Record<string, unknown>): Policy;
}

const POLICIES: PolicyInfo[] = [
  { name: 'breadth-first', summary: 'FIFO at both levels: pages in discovery order, politeness permitting', create: () => new BreadthFirst() },
];

export function listPolicies(): readonly PolicyInfo[] {
  return POLICIES;
}

export function createPolicy(name: string, params: Record<string, unknown> = {}): Policy {
  const info = POLICIES.find((p) => p.name === name);
  if (!info) {
    throw new CrawlError(
      ErrorCodes.BAD_OPTION,
      `--policy: unknown policy "${name}" (available: ${POLICIES.map((p) => p.name).join(', ')})`,
    );
  }
  return info.create(params);
}
