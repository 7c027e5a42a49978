// @vitest-environment happy-dom
/**
 * Live and Crawls as a new user found them (issue 23), in the real App over the in-memory API:
 * one word for starting a crawl never started, in both views.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { provideApi } from '../../renderer/api/instance.js';
import { crawlInfo, fakeApi } from './fake-api.js';
import { openAt, unmountWorkbench } from './mount-workbench.js';

let fake: ReturnType<typeof fakeApi>;

beforeEach(() => {
  fake = fakeApi();
  provideApi(fake.api);
});
afterEach(unmountWorkbench);

describe('Live and Crawls', () => {
  it('call starting a never-started crawl "Start" in both views, and going on with a paused one "Resume"', async () => {
    fake.crawls.set('fresh', crawlInfo('fresh', { status: 'created' }));
    fake.crawls.set('held', crawlInfo('held', { status: 'paused', pagesFetched: 10, endReason: { kind: 'paused', at: null } }));
    const { w } = await openAt('/crawls');
    expect(w.find('tr[data-crawl="fresh"] [data-action="resume"]').text()).toBe('Start');
    expect(w.find('tr[data-crawl="held"] [data-action="resume"]').text()).toBe('Resume');
    const fresh = await openAt('/crawls/fresh/live');
    expect(fresh.w.find('[data-testid="resume"]').text()).toBe('Start');
    const held = await openAt('/crawls/held/live');
    expect(held.w.find('[data-testid="resume"]').text()).toBe('Resume');
  });
});
