import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { DEMO_DEFAULTS, DemoWebs } from '../../core/api/demo-webs.js';
import { generateWeb } from '../../core/testweb/generator.js';
import { SITEMAP_STYLES } from '../../core/testweb/sitemaps.js';

describe('test web sitemaps (WebSpec.sitemaps)', () => {
  for (const revision of [1, 2] as const) {
    it(`revision ${revision}: the option changes no page, link or site but the sitemap styles`, () => {
      const spec = { seed: 5, sites: 60, pages: 2000, revision, faults: true };
      const off = generateWeb(spec);
      const on = generateWeb({ ...spec, sitemaps: true });
      expect(on.pageCount).toBe(off.pageCount);
      for (let id = 0; id < off.pageCount; id++) {
        expect(on.path(id)).toBe(off.path(id));
        expect([...on.outLinks(id)]).toEqual([...off.outLinks(id)]);
      }
      expect(on.sites.map(({ sitemap: _, ...s }) => s)).toEqual(off.sites);
      expect(off.sites.some((s) => s.sitemap !== undefined)).toBe(false);
      // Every style once, on a site whose robots.txt allows all; the portal has none.
      const styles = on.sites.filter((s) => s.sitemap && s.sitemap !== 'plain').map((s) => s.sitemap);
      expect(new Set(styles).size).toBe(styles.length);
      expect(new Set([...styles, 'plain'])).toEqual(new Set(SITEMAP_STYLES));
      expect(on.sites.filter((s) => s.sitemap).every((s) => s.robots === 'allow-all')).toBe(true);
      expect(on.sites[0]!.sitemap).toBeUndefined();
    });
  }

  it('a demo web asked for sitemaps serves them (and one not asked for, none)', async () => {
    const demos = new DemoWebs({ port: 0 });
    const get = async (port: number, host: string, path: string) => (await request(`http://127.0.0.1:${port}${path}`, { headers: { host: `${host}:${port}` } })).statusCode;
    const spec = { ...DEMO_DEFAULTS };
    const web = generateWeb({ seed: spec.seed, sites: spec.sites, pages: spec.pages, sitemaps: true });
    const plain = web.sites.find((s) => s.sitemap === 'plain')!.host;
    try {
      const on = await demos.ensure('on', { ...spec, sitemaps: true });
      const off = await demos.ensure('off', spec);
      expect(await get(on.port, plain, '/sitemap.xml')).toBe(200);
      expect(await get(on.port, plain, '/hidden/page-1.html')).toBe(200);
      expect(await get(off.port, plain, '/sitemap.xml')).toBe(404);
    } finally {
      await demos.stop('on');
      await demos.stop('off');
    }
  });
});
