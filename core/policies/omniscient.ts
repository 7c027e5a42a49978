import type { DiscoveredPage, Policy } from '../scheduler/policy.js';

/**
 * Omniscient (docs/design.md section 3.3): every page goes by its true final PageRank, taken from
 * an oracle. Only the simulator has one (the PageRank of the complete graph it replays), so
 * this is an upper reference for the real policies, not a way to crawl.
 */
export class Omniscient implements Policy {
  readonly name = 'omniscient';
  constructor(private readonly oracle: ReadonlyMap<string, number>) {}
  pagePriority(page: DiscoveredPage): number {
    return this.oracle.get(page.url) ?? 0;
  }
}
