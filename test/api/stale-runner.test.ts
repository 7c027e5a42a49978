/**
 * What a crawl's process leaves beside its file after a power loss or a kill -9 and a reboot:
 * NAME.db.runner names a process id that another program may have taken since (ids are
 * reused; pid 1 stands for it here, always alive). Before, the crawl could not start again
 * ("this crawl already runs in process 1") and deleting it left the file, so a new crawl of
 * the same name could not start either.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { EngineApi } from '../../core/api/engine-api.js';
import { runnerFile } from '../../core/api/crawl-channel.js';
import type { CrawlStateEvent } from '../../core/api/contract.js';
import { generateWeb } from '../../core/testweb/generator.js';
import { seedUrls } from '../../core/testweb/web.js';
import { tmpDir } from '../helpers/tmp.js';
import { serve } from '../helpers/web.js';

const dir = tmpDir('crawlbench-stale-runner-');
const api = new EngineApi(join(dir, 'ws'));
afterAll(() => api.close());

function ended(id: string): Promise<CrawlStateEvent> {
  return new Promise((resolve) => {
    const off = api.onCrawlState((e) => {
      if (e.crawlId === id && ['finished', 'paused', 'stopped'].includes(e.status)) {
        off();
        resolve(e);
      }
    });
  });
}

it("a runner file naming a live process whose channel answers nothing is taken for stale: the crawl starts; deleting the crawl removes it", async () => {
  const web = generateWeb({ seed: 9, sites: 3, pages: 30 });
  const { port } = await serve(web);
  const request = { name: 'stale', seedText: seedUrls(web, port).join('\n'), resolve: [{ pattern: '*', address: '127.0.0.1' }], w: 0, allowShortW: true };
  await api.createCrawl(request);
  const file = runnerFile(join(dir, 'ws', 'stale.db'));
  const stale = () => writeFileSync(file, JSON.stringify({ pid: 1, socket: join(dir, 'no-such.sock'), startedAt: new Date().toISOString(), status: 'running' }));
  stale();
  const end = ended('stale');
  await api.start('stale');
  const e = await end;
  expect(e.status, e.reason).toBe('finished');
  stale();
  await api.deleteCrawl('stale');
  expect(existsSync(file)).toBe(false);
  // A new crawl of the same name starts.
  await api.createCrawl(request);
  const again = ended('stale');
  await api.start('stale');
  expect((await again).status).toBe('finished');
}, 60_000);
