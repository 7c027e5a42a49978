import type { Policy } from '../scheduler/policy.js';

/**
 * Breadth-first: FIFO at both levels. Every page has the same priority, so pages leave in
 * discovery order (page id), and among ready sites the one holding the oldest pending page
 * goes first: the crawl follows discovery order as closely as politeness allows.
 */
export class BreadthFirst implements Policy {
  readonly name = 'breadth-first';
  pagePriority(): number {
    return 0;
  }
}
