import type { Policy, PolicyHost } from '../../core/scheduler/policy.js';
import { SiteState } from '../../core/scheduler/site-state.js';
import { ManualClock } from '../helpers/manual-clock.js';

/** A PolicyHost that records the priorities a policy sets. */
export class FakeHost implements PolicyHost {
  readonly clock = new ManualClock();
  readonly c = 1;
  readonly priority = new Map<number, number>();
  setPagePriority(pageId: number, _site: SiteState, priority: number): void {
    this.priority.set(pageId, priority);
  }
  refreshSite(): void {}
  sites(): Iterable<SiteState> {
    return [];
  }
}

const site = new SiteState(1, 'a.test');
export const urlOf = (id: number) => `http://a.test/${id}`;

/**
 * Drives a policy as the engine does: a fetched page's new targets are ranked
 * (pagePriority) first, then the policy hears of the fetch (onFetched).
 */
export function drive(policy: Policy, url: (id: number) => string = urlOf) {
  const host = new FakeHost();
  policy.attach?.(host);
  const known = new Set<number>();
  const see = (id: number, parent: number | null = null) => {
    if (known.has(id)) return;
    known.add(id);
    host.priority.set(id, policy.pagePriority({ id, site, depth: 0, parentId: parent, url: url(id), anchor: null }));
  };
  const fetch = (id: number, targets: number[]) => {
    for (const t of targets) see(t, id);
    policy.onFetched?.(id, site, targets);
  };
  return { host, see, fetch };
}
