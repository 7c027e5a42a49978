/**
 * A w below 1 s needs the user's confirmation when a crawl reaches hosts outside this
 * machine: how the guard decides what is outside (issue: "Politeness cannot be switched off
 * by accident"). The lookups are answered by a table here: no name is ever resolved.
 */
import { describe, expect, it } from 'vitest';
import { validateSettings, type CrawlSettingsInput } from '../../core/config/settings.js';
import { checkShortW, hostOutsideLoopback, isLoopbackAddress, type AddressLookup } from '../../core/engine/short-w-guard.js';
import { CachingResolver } from '../../core/fetch/resolver.js';

const table: Record<string, string[]> = { 'lab.internal': ['127.0.1.1'], 'mixed.internal': ['127.0.0.1', '192.0.2.7'], 'www.uchile.cl': ['200.89.76.36'] };
const look: AddressLookup = async (host) => {
  const a = table[host];
  if (!a) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return a;
};
const settings = (extra: Partial<CrawlSettingsInput>) => validateSettings({ seeds: ['http://127.0.0.1:9/'], w: 0, ...extra });

describe('short-w guard', () => {
  it('knows loopback addresses', () => {
    for (const a of ['127.0.0.1', '127.255.0.9', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of ['10.0.0.1', '192.168.1.1', '128.0.0.1', '::2', 'localhost']) expect(isLoopbackAddress(a), a).toBe(false);
  });

  it('treats localhost, 127/8, ::1 and hosts resolved or mapped to them as this machine', async () => {
    for (const seed of ['http://localhost:8080/', 'http://127.0.0.5/', 'http://[::1]:81/', 'http://lab.internal/']) {
      expect(await hostOutsideLoopback(settings({ seeds: [seed] }), look), seed).toBeNull();
    }
    expect(await hostOutsideLoopback(settings({ seeds: ['http://a.demo:9/'], scope: { suffixes: ['.demo'] }, resolve: [{ pattern: '*.demo', address: '127.0.0.1' }] }), look)).toBeNull();
    expect(await hostOutsideLoopback(settings({ seeds: ['http://www.uchile.cl/'], resolve: [{ pattern: 'www.uchile.cl', address: '127.0.0.9' }] }), look)).toBeNull();
  });

  it('finds the host outside: resolved elsewhere, unknown, a partly outside name, a suffix without a loopback wildcard', async () => {
    expect(await hostOutsideLoopback(settings({ seeds: ['http://www.uchile.cl/'] }), look)).toBe('www.uchile.cl');
    expect(await hostOutsideLoopback(settings({ seeds: ['http://nowhere.example/'] }), look)).toBe('nowhere.example');
    expect(await hostOutsideLoopback(settings({ seeds: ['http://mixed.internal/'] }), look)).toBe('mixed.internal');
    expect(await hostOutsideLoopback(settings({ seeds: ['http://10.1.2.3/'] }), look)).toBe('10.1.2.3');
    // The seed is local, but the scope reaches every host under .cl.
    expect(await hostOutsideLoopback(settings({ seeds: ['http://127.0.0.1:9/'], scope: { suffixes: ['.cl'], hosts: ['127.0.0.1'] } }), look)).toBe('*.cl');
    // A wildcard sends .demo home, but one host under it is sent elsewhere.
    const resolve = [{ pattern: '*.demo', address: '127.0.0.1' }, { pattern: 'far.demo', address: '192.0.2.1' }];
    expect(await hostOutsideLoopback(settings({ seeds: ['http://a.demo/'], scope: { suffixes: ['.demo'] }, resolve }), look)).toBe('*.demo');
    // A resolve rule to an outside address for the seed itself.
    expect(await hostOutsideLoopback(settings({ seeds: ['http://a.demo/'], resolve: [{ pattern: '*', address: '192.0.2.1' }] }), look)).toBe('a.demo');
  });

  it('refuses a short w only for crawls that reach outside, unless confirmed; w >= 1 s is never refused', async () => {
    await expect(checkShortW(settings({ seeds: ['http://www.uchile.cl/'], w: 999 }), 'tick the box', look)).rejects.toMatchObject({
      code: 'CRAWL_SHORT_W_UNCONFIRMED',
      field: 'w',
      message: expect.stringMatching(/www\.uchile\.cl.*tick the box/),
    });
    await expect(checkShortW(settings({ seeds: ['http://www.uchile.cl/'], w: 999, allowShortW: true }), 'x', look)).resolves.toBeUndefined();
    await expect(checkShortW(settings({ seeds: ['http://www.uchile.cl/'], w: 1000 }), 'x', look)).resolves.toBeUndefined();
    await expect(checkShortW(settings({ seeds: ['http://localhost:1/'], w: 0 }), 'x', look)).resolves.toBeUndefined();
  });

  it('reads a host given twice in resolve as the crawl resolver does (the later rule), so a short w cannot slip through', async () => {
    // The crawl sends a.cl's traffic where the later rule says; the check looked at the first
    // and let a w of 0 reach 192.0.2.7 unconfirmed.
    const resolve = [{ pattern: 'a.cl', address: '127.0.0.1' }, { pattern: 'a.cl', address: '192.0.2.7' }];
    expect(new CachingResolver(resolve).mapped('a.cl')).toBe('192.0.2.7');
    expect(await hostOutsideLoopback(settings({ seeds: ['http://a.cl/'], resolve }), look)).toBe('a.cl');
    const home = [{ pattern: '*.cl', address: '192.0.2.7' }, { pattern: '*.cl', address: '127.0.0.1' }];
    expect(new CachingResolver(home).mapped('b.cl')).toBe('127.0.0.1');
    expect(await hostOutsideLoopback(settings({ seeds: ['http://b.cl/'], resolve: home }), look)).toBeNull();
  });

  it('checks 40,000 seeds against 40,000 resolve rules, each host by its own rule, the most specific wildcard winning', async () => {
    const n = 40_000;
    const seeds = Array.from({ length: n }, (_, i) => `http://s${i}.cl/`);
    const resolve = [
      ...seeds.map((_, i) => ({ pattern: `s${i}.cl`, address: `127.0.${i >> 8}.${i & 255}` })),
      { pattern: '*', address: '192.0.2.1' },
      { pattern: '*.deep.cl', address: '127.0.0.1' },
      { pattern: '*.far.deep.cl', address: '192.0.2.9' },
    ];
    expect(await hostOutsideLoopback(settings({ seeds, resolve }), look)).toBeNull();
    expect(await hostOutsideLoopback(settings({ seeds: [...seeds, 'http://x.deep.cl/'], resolve }), look)).toBeNull();
    expect(await hostOutsideLoopback(settings({ seeds: [...seeds, 'http://y.far.deep.cl/'], resolve }), look)).toBe('y.far.deep.cl');
    expect(await hostOutsideLoopback(settings({ seeds: [...seeds, 'http://other.org/'], resolve }), look)).toBe('other.org');
  });
});
