import { describe, expect, it } from 'vitest';
import { generateWeb, homePages, type Web } from '../../core/testweb/index.js';
import { CrawlError } from '../../core/errors.js';

const SPEC = { seed: 42, sites: 300, pages: 15_000 };

function fingerprint(web: Web): string {
  let h = 0;
  const mix = (v: number) => (h = (Math.imul(h ^ v, 0x01000193) + 1) | 0);
  for (let id = 0; id < web.pageCount; id++) {
    for (const t of web.outLinks(id)) mix(t);
    for (const c of web.path(id)) mix(c.charCodeAt(0));
    mix(web.size(id));
  }
  return `${web.pageCount}:${h}`;
}

/** Pages reachable from `starts` over outLinks. */
function reachable(web: Web, starts: number[]): Uint8Array {
  const seen = new Uint8Array(web.pageCount);
  const stack = [...starts];
  for (const s of starts) seen[s] = 1;
  while (stack.length) {
    for (const t of web.outLinks(stack.pop()!)) {
      if (!seen[t]) {
        seen[t] = 1;
        stack.push(t);
      }
    }
  }
  return seen;
}

describe('generateWeb', () => {
  const web = generateWeb({ ...SPEC, faults: true });

  it('is deterministic: same seed, same web; other seed, other web', () => {
    expect(fingerprint(generateWeb({ ...SPEC, faults: true }))).toBe(fingerprint(web));
    expect(fingerprint(generateWeb({ ...SPEC, seed: 43, faults: true }))).not.toBe(fingerprint(web));
  });

  it('has the shape of a national web', () => {
    let links = 0;
    let intra = 0;
    let selfLinks = 0;
    for (let id = 0; id < web.pageCount; id++) {
      const s = web.siteOf(id);
      for (const t of web.outLinks(id)) {
        links++;
        if (web.siteOf(t) === s) intra++;
        if (t === id) selfLinks++;
      }
    }
    expect(selfLinks).toBe(0);
    const mean = links / web.pageCount;
    expect(mean).toBeGreaterThan(4);
    expect(mean).toBeLessThan(6);
    expect(intra / links).toBeGreaterThan(0.8);
    expect(intra / links).toBeLessThan(0.95);
    const sizes = web.sites.filter((s) => !s.fault).map((s) => s.count).sort((a, b) => a - b);
    const median = sizes[sizes.length >> 1]!;
    expect(sizes.at(-1)!).toBeGreaterThan(50 * median);
    expect(web.sites[0]!.count).toBe(sizes.at(-1));
    expect(sizes.filter((n) => n <= 2).length / sizes.length).toBeGreaterThan(0.1);
    expect(Math.abs(sizes.reduce((a, b) => a + b, 0) - SPEC.pages)).toBeLessThan(SPEC.pages * 0.02);
    let bytes = 0;
    let nonHtml = 0;
    let maxSize = 0;
    for (let id = 0; id < web.pageCount; id++) {
      bytes += web.size(id);
      maxSize = Math.max(maxSize, web.size(id));
      if (!web.contentType(id).startsWith('text/html')) nonHtml++;
    }
    expect(maxSize).toBeLessThanOrEqual(200_000);
    expect(bytes / web.pageCount).toBeGreaterThan(7_000);
    expect(bytes / web.pageCount).toBeLessThan(14_000);
    expect(nonHtml / web.pageCount).toBeGreaterThan(0.005);
    expect(nonHtml / web.pageCount).toBeLessThan(0.05);
    const ka = web.sites.filter((s) => !s.fault).map((s) => s.keepAliveMax);
    expect(ka.filter((k) => k === 100).length / ka.length).toBeGreaterThan(0.55);
    expect(ka.filter((k) => k === 1).length / ka.length).toBeGreaterThan(0.18);
  });

  it('reaches every page from its home page and everything from site 0', () => {
    const fromHomes = reachable(web, homePages(web));
    expect(fromHomes.every((v) => v === 1)).toBe(true);
    const fromPortal = reachable(web, [0]);
    expect(fromPortal.every((v) => v === 1)).toBe(true);
    // Within a site alone, the home page reaches all of the site's pages.
    const site = web.sites[5]!;
    const seen = new Set([site.first]);
    const stack = [site.first];
    while (stack.length) {
      for (const t of web.outLinks(stack.pop()!)) {
        if (t >= site.first && t < site.first + site.count && !seen.has(t)) {
          seen.add(t);
          stack.push(t);
        }
      }
    }
    expect(seen.size).toBe(site.count);
  });

  it('maps ids to paths and back', () => {
    const wrong: number[] = [];
    for (let id = 0; id < web.pageCount; id++) {
      if (web.id(web.sites[web.siteOf(id)]!.host, web.path(id)) !== id) wrong.push(id);
    }
    expect(wrong).toEqual([]);
    expect(web.path(0)).toBe('/');
    expect(web.id(web.sites[0]!.host, '/no-such-page-999999999.html')).toBeUndefined();
    expect(web.id('nowhere.demo', '/')).toBeUndefined();
    const paths = Array.from({ length: web.pageCount }, (_, id) => web.path(id));
    expect(paths.some((p) => p.includes('?id='))).toBe(true);
    expect(paths.some((p) => /^\/\w+\/\w+-\d+\.html$/.test(p))).toBe(true);
  });

  it('puts robots-disallowed pages under /private/ and links them from the home page', () => {
    const site = web.sites.find((s) => s.robots === 'disallow-private' && s.count > 4)!;
    expect(site).toBeDefined();
    const privates = [1, 2, 3].map((k) => site.first + k);
    for (const p of privates) expect(web.path(p)).toMatch(/^\/private\//);
    expect([...web.outLinks(site.first)]).toEqual(expect.arrayContaining(privates));
  });

  it('puts /no-crawlbench/ pages on agent-groups sites and /private/ ones on robots-redirect sites', () => {
    const big = generateWeb({ seed: 42, sites: 400, pages: 20_000 });
    for (const [kind, dir] of [['agent-groups', '/no-crawlbench/'], ['redirect', '/private/']] as const) {
      const site = big.sites.find((s) => s.robots === kind && s.count > 4)!;
      expect(big.path(site.first + 1).startsWith(dir)).toBe(true);
      expect([...big.outLinks(site.first)]).toContain(site.first + 1);
    }
  });

  it('links every fault site from the portal', () => {
    const faults = web.sites.filter((s) => s.fault);
    expect(faults).toHaveLength(17);
    expect([...web.outLinks(0)]).toEqual(expect.arrayContaining(faults.map((s) => s.first)));
  });

  it('rejects bad options with CRAWL_BAD_OPTION', () => {
    expect(() => generateWeb({ seed: 1, sites: 0, pages: 10 })).toThrow(CrawlError);
    expect(() => generateWeb({ seed: 1, sites: 2, pages: 1.5 })).toThrow(/pages/);
  });

  it('handles tiny webs', () => {
    const tiny = generateWeb({ seed: 3, sites: 5, pages: 3 });
    expect(tiny.pageCount).toBe(5);
    expect(reachable(tiny, [0]).every((v) => v === 1)).toBe(true);
  });
});

describe('revision 2', () => {
  const r1 = generateWeb({ ...SPEC, faults: true });
  const r2 = generateWeb({ ...SPEC, faults: true, revision: 2 });
  const urls = (w: Web) => {
    const m = new Map<string, number>();
    for (let id = 0; id < w.pageCount; id++) m.set(w.sites[w.siteOf(id)]!.host + w.path(id), id);
    return m;
  };
  const u1 = urls(r1);
  const u2 = urls(r2);

  it('keeps about 55% of the URLs, every home page, and adds pages and ~10% sites', () => {
    let survived = 0;
    for (const u of u1.keys()) if (u2.has(u)) survived++;
    const share = survived / u1.size;
    expect(share).toBeGreaterThan(0.5);
    expect(share).toBeLessThan(0.6);
    for (const s of r1.sites) expect(u2.has(s.host + '/')).toBe(true);
    const newSites = r2.sites.length - r1.sites.length;
    expect(newSites).toBe(30);
    expect(u2.size - survived).toBeGreaterThan(0.3 * u1.size);
  });

  it('keeps survivors identical in path, title and size, and every page reachable', () => {
    const differ: string[] = [];
    for (const [u, id2] of u2) {
      const id1 = u1.get(u);
      if (id1 === undefined) continue;
      if (r2.path(id2) !== r1.path(id1) || r2.title(id2) !== r1.title(id1) || r2.size(id2) !== r1.size(id1)) differ.push(u);
    }
    expect(differ).toEqual([]);
    expect(reachable(r2, [0]).every((v) => v === 1)).toBe(true);
  });

  it('changes links partly and is deterministic', () => {
    let kept = 0;
    let total = 0;
    for (const [u, id2] of u2) {
      const id1 = u1.get(u);
      if (id1 === undefined) continue;
      const old = new Set([...r1.outLinks(id1)].map((t) => r1.sites[r1.siteOf(t)]!.host + r1.path(t)));
      for (const t of r2.outLinks(id2)) {
        total++;
        if (old.has(r2.sites[r2.siteOf(t)]!.host + r2.path(t))) kept++;
      }
    }
    expect(kept / total).toBeGreaterThan(0.2);
    expect(kept / total).toBeLessThan(0.8);
    expect(fingerprint(generateWeb({ ...SPEC, faults: true, revision: 2 }))).toBe(fingerprint(r2));
  });
});

describe('generation cost', () => {
  it('prints time and memory for 200k pages', () => {
    globalThis.gc?.();
    const m0 = process.memoryUsage();
    const t0 = performance.now();
    const web = generateWeb({ seed: 1, sites: 4_000, pages: 200_000, faults: true });
    const ms = performance.now() - t0;
    const m1 = process.memoryUsage();
    const mb = (m1.heapUsed + m1.arrayBuffers - m0.heapUsed - m0.arrayBuffers) / 1e6;
    const t1 = performance.now();
    generateWeb({ seed: 1, sites: 4_000, pages: 200_000, revision: 2 });
    console.log(
      `[testweb] 200k pages: ${web.pageCount} pages, ${web.linkCount} links, rev1 ${ms.toFixed(0)} ms, ` +
        `rev2 ${(performance.now() - t1).toFixed(0)} ms, ~${mb.toFixed(0)} MB retained+garbage, rss ${(m1.rss / 1e6).toFixed(0)} MB`,
    );
    expect(web.pageCount).toBeGreaterThan(190_000);
  });
});
