import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateCrawl } from '../../core/ranking/evaluate.js';
import { generateWeb, seedUrls } from '../../core/testweb/generator.js';
import { TestWebServer } from '../../core/testweb/server.js';
import { tmpDir } from '../helpers/tmp.js';
import { crawl, testSettings } from '../helpers/web.js';

const dir = tmpDir();

/**
 * The thesis's historical experiment on the test web: crawl it, then crawl the same web
 * months later (--revision 2: ~55% of URLs survive, links change) guided by the first
 * crawl's PageRank. The guided fetch order must agree with the second crawl's final
 * PageRank clearly better than breadth-first's does.
 */
// SKIPPED, on purpose (issue 3, its one open "Done when" line): on the test web as it is,
// the guided crawl's tau is only ~0.29 against breadth-first's ~0.27 (r = 1), because
// revision 2 rebuilds each site's link tree at random and PageRank does not persist
// (tau 0.25 between old and new PageRank of the surviving pages). The test is kept so
// that the next change to core/testweb/revision.ts (keep the revision-1 tree, survival
// by PageRank) can be checked against it; un-skip it then.
describe('historical-pagerank-parent on the web months later', () => {
  it.skip('beats breadth-first in Kendall tau against the new PageRank by a clear margin', async () => {
    const spec = { seed: 5, sites: 20, pages: 1500, latency: false as const };
    // Both revisions on the same port, so that URLs match across the two crawls.
    const first = new TestWebServer(generateWeb({ ...spec, revision: 1 }));
    const port = await first.start();
    const old = join(dir, 'may.db');
    await crawl(old, testSettings(seedUrls(first.web, port), { r: 4 }));
    await first.stop();

    const second = new TestWebServer(generateWeb({ ...spec, revision: 2 }), { port });
    await second.start();
    try {
      const seeds = seedUrls(second.web, port);
      const guided = join(dir, 'september-historical.db');
      const plain = join(dir, 'september-bfs.db');
      await crawl(guided, testSettings(seeds, { r: 1, policy: 'historical-pagerank-parent', policyParams: { history: old } }));
      await crawl(plain, testSettings(seeds, { r: 1 }));
      const tauGuided = evaluateCrawl(guided).kendallTau;
      const tauPlain = evaluateCrawl(plain).kendallTau;
      expect(tauGuided - tauPlain).toBeGreaterThan(0.15);
    } finally {
      await second.stop();
    }
  });
});
