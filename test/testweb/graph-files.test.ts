import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpDir } from '../helpers/tmp.js';
import { exportGraphDir, generateWeb, loadGraphDir, TestWebServer } from '../../core/testweb/index.js';
import { describeWith, refPath } from '../references.js';
import { get } from './http-helper.js';

describe('graph dirs', () => {
  it('round-trips a generated web through exportGraphDir / loadGraphDir', async () => {
    const web = generateWeb({ seed: 5, sites: 80, pages: 4_000, faults: true, revision: 2 });
    const dir = tmpDir('testweb-graph-');
    await exportGraphDir(web, dir);
    const back = loadGraphDir(dir);
    expect(back.pageCount).toBe(web.pageCount);
    expect(back.sites.map((s) => [s.host, s.first, s.count])).toEqual(web.sites.map((s) => [s.host, s.first, s.count]));
    const differ: number[] = [];
    for (let id = 0; id < web.pageCount; id++) {
      if (back.path(id) !== web.path(id) || back.outLinks(id).join() !== web.outLinks(id).join()) differ.push(id);
      if (back.id(web.sites[web.siteOf(id)]!.host, web.path(id)) !== id) differ.push(id);
    }
    expect(differ).toEqual([]);
  });

  // The real dataset: not shipped (test/reference-probes.ts says where it comes from); only
  // the tests that serve it wait for it.
  describeWith(['uci'], 'the uci-ics-2019 dataset', () => {
    let web: ReturnType<typeof loadGraphDir>;
    let server: TestWebServer;
    let ms = 0;
    let port = 0;
    beforeAll(async () => {
      const t0 = performance.now();
      web = loadGraphDir(refPath('uci'));
      ms = performance.now() - t0;
      server = new TestWebServer(web, { memoryLog: false });
      port = await server.start();
    });
    afterAll(() => server?.stop());

    it('loads 53,769 pages, 579,967 links and 88 hosts', () => {
      console.log(`[testweb] uci-ics-2019 loaded in ${ms.toFixed(0)} ms`);
      expect(web.pageCount).toBe(53_769);
      let links = 0;
      for (let id = 0; id < web.pageCount; id++) links += web.outLinks(id).length;
      expect(links).toBe(579_967);
      expect(web.sites).toHaveLength(88);
    });

    it('keeps the file ids and reaches 42,959 pages from www.ics.uci.edu/ as the README says', () => {
      const home = web.id('www.ics.uci.edu', '/');
      expect(home).toBe(20919);
      const seen = new Uint8Array(web.pageCount);
      const stack = [home!];
      seen[home!] = 1;
      let n = 1;
      while (stack.length) {
        for (const t of web.outLinks(stack.pop()!)) {
          if (!seen[t]) {
            seen[t] = 1;
            n++;
            stack.push(t);
          }
        }
      }
      expect(n).toBe(42_959);
    });

    it('serves its pages over http with the graph links', async () => {
      const r = await get(port, 'www.ics.uci.edu', '/');
      expect(r.status).toBe(200);
      const html = r.body.toString();
      const found = new Set(
        [...html.matchAll(/<a\s[^>]*?href="([^"]*)"/g)].map((m) => new URL(m[1]!.replace(/&amp;/g, '&'), `http://www.ics.uci.edu:${port}/`).href),
      );
      const expected = [...web.outLinks(20919)].map((t) => server.url(t));
      expect(expected.length).toBeGreaterThan(10);
      for (const u of expected) expect(found.has(u)).toBe(true);
      // A page with a query string and percent escapes resolves too.
      const q = Array.from({ length: web.pageCount }, (_, i) => i).find((i) => web.path(i).includes('%') && web.path(i).includes('?'))!;
      const host = web.sites[web.siteOf(q)]!.host;
      expect((await get(port, host, web.path(q))).status).toBe(200);
    });
  });
});
