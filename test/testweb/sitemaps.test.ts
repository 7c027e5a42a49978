import { describe, expect, it } from 'vitest';
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
});
