import { describe, expect, it } from 'vitest';
import { generateWeb, relativeRef, renderPage } from '../../core/testweb/index.js';

describe('page rendering', () => {
  it('builds document-relative references that resolve to the target', () => {
    const cases: Array<[string, string, string | null]> = [
      ['/a/b/c.html', '/a/x.html', '../x.html'],
      ['/a/b/c.html', '/a/b/d.html', 'd.html'],
      ['/item?id=3', '/item?id=4', 'item?id=4'],
      ['/', '/a/b.html', 'a/b.html'],
      ['/x/y.html', '/p:q.html', '../p:q.html'],
      ['/p.html', '/p:q.html', './p:q.html'],
      ['/a/', '/', null],
      ['/a/b.html', '/cal/2024/03/', null],
    ];
    for (const [from, to, want] of cases) {
      const rel = relativeRef(from, to);
      expect(rel, `${from} -> ${to}`).toBe(want);
      if (rel) expect(new URL(rel, `http://h${from}`).pathname + new URL(rel, `http://h${from}`).search).toBe(to);
    }
  });

  it('is deterministic and reaches the target size', () => {
    const web = generateWeb({ seed: 4, sites: 20, pages: 500 });
    for (let id = 0; id < 100; id++) {
      const a = renderPage(web, id, 8080);
      expect(a.equals(renderPage(web, id, 8080))).toBe(true);
      expect(a.length).toBeGreaterThanOrEqual(web.size(id));
    }
  });

  it('draws heavy-tailed latency and bandwidth per site when asked, clipped to maxMs', () => {
    const web = generateWeb({ seed: 4, sites: 500, pages: 5_000, latency: { maxMs: 800 }, bandwidth: true });
    const lat = web.sites.map((s) => s.latencyMs).sort((a, b) => a - b);
    const median = lat[lat.length >> 1]!;
    expect(lat.at(-1)).toBeLessThanOrEqual(800);
    expect(median).toBeGreaterThan(30);
    expect(lat[Math.floor(lat.length * 0.95)]!).toBeGreaterThan(3 * median);
    const bw = web.sites.map((s) => s.bytesPerSec);
    expect(Math.min(...bw)).toBeGreaterThan(0);
    expect(Math.max(...bw) / Math.min(...bw)).toBeGreaterThan(50);
    const flat = generateWeb({ seed: 4, sites: 50, pages: 500 });
    expect(flat.sites.every((s) => s.latencyMs === 0 && s.bytesPerSec === 0)).toBe(true);
  });
});
