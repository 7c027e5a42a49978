import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { smallSiteFlags } from '../../core/cli/small-site-flags.js';
import { validateSettings } from '../../core/config/settings.js';
import { crawlSiteWait } from '../../core/engine/small-sites.js';
import { ErrorCodes } from '../../core/errors.js';
import { SiteState } from '../../core/scheduler/site-state.js';
import { tmpDir } from '../helpers/tmp.js';
import { makeCrawl } from '../ranking/fixtures.js';

const dir = tmpDir('crawlbench-small-sites-');

function site(host: string, known: number): SiteState {
  const s = new SiteState(1, host);
  s.pagesKnown = known;
  return s;
}

describe('crawl --w-small DURATION --small-site PAGES', () => {
  it('the flags go together, in the units of --w', () => {
    expect(smallSiteFlags({})).toBeNull();
    expect(smallSiteFlags({ 'w-small': '15s', 'small-site': '100' })).toEqual({ wSmall: 15_000, smallSite: 100 });
    expect(() => smallSiteFlags({ 'w-small': '15s' })).toThrow(expect.objectContaining({ code: ErrorCodes.BAD_OPTION, message: expect.stringContaining('--small-site') }));
    expect(() => smallSiteFlags({ 'small-site': '100' })).toThrow(expect.objectContaining({ code: ErrorCodes.BAD_OPTION, message: expect.stringContaining('--w-small') }));
    expect(() => smallSiteFlags({ 'w-small': '15s', 'small-site': '0' })).toThrow(/--small-site/);
  });

  it('without them every site waits w', () => {
    expect(crawlSiteWait(validateSettings({ seeds: ['http://a.test/'], w: 5000 }))).toBeUndefined();
  });

  it("a site's size is its pages in the history crawl, else the pages known so far", () => {
    const history = join(dir, 'history.db');
    // big.test has 4 pages in the history crawl, tiny.test 1.
    makeCrawl(history, { urls: ['http://big.test/', 'http://big.test/1', 'http://big.test/2', 'http://big.test/3', 'http://tiny.test/'], links: [], fetchOrder: [0, 1, 2, 3, 4] });
    const settings = validateSettings({ seeds: ['http://big.test/'], w: 5000, wSmall: 15_000, smallSite: 3, policyParams: { history } });
    const wait = crawlSiteWait(settings)!;
    expect(wait(site('big.test', 1))).toBe(5000); // 4 pages in the history: not small, though 1 known
    expect(wait(site('tiny.test', 50))).toBe(15_000); // 1 page in the history: small, though 50 known
    expect(wait(site('new.test', 2))).toBe(15_000); // not in the history: 2 known pages
    expect(wait(site('new.test', 3))).toBe(5000);
  });
});
