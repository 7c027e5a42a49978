import { describe, expect, it } from 'vitest';
import { conflictingSettings, validateSettings } from '../../core/config/settings.js';
import { parseDuration, parseSize } from '../../core/config/units.js';
import { ErrorCodes } from '../../core/errors.js';
import { decodeContent } from '../../core/fetch/decode.js';
import { CachingResolver } from '../../core/fetch/resolver.js';
import { parseRetryAfter } from '../../core/engine/page-processor.js';
import { gzipSync } from 'node:zlib';

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
}

describe('durations and sizes', () => {
  it('need a unit, except zero', () => {
    expect(parseDuration('--w', '15s')).toBe(15_000);
    expect(parseDuration('--w', '50ms')).toBe(50);
    expect(parseDuration('--w', '1.5m')).toBe(90_000);
    expect(parseDuration('--w', '0')).toBe(0);
    expect(code(() => parseDuration('--w', '15'))).toBe(ErrorCodes.BAD_OPTION);
    expect(code(() => parseDuration('--w', '15 parsecs'))).toBe(ErrorCodes.BAD_OPTION);
    expect(parseSize('--max-body', '10MB')).toBe(10_000_000);
    expect(parseSize('--max-body', '1KiB')).toBe(1024);
    expect(code(() => parseSize('--max-body', 'big'))).toBe(ErrorCodes.BAD_OPTION);
  });
});

describe('settings', () => {
  it('have the thesis defaults: w = 15 s, c = 1, depth 15/5, 25,000 pages per site', () => {
    const s = validateSettings({ seeds: ['http://a.cl/'] });
    expect(s).toMatchObject({ w: 15_000, c: 1, r: 256, maxDepth: 15, maxDynamicDepth: 5, maxPagesPerSite: 25_000, policy: 'breadth-first' });
    expect(Object.isFrozen(s)).toBe(true);
  });
  it('name the bad option', () => {
    expect(() => validateSettings({ seeds: ['http://a.cl/'], c: 0 })).toThrow(/^c: /);
  });
  it('on resume, only flags that change a crawl setting conflict', () => {
    const stored = validateSettings({ seeds: ['http://a.cl/'], w: 1000, scope: { suffixes: ['.cl'] } });
    expect(conflictingSettings(stored, { w: 1000, maxPages: 5, scope: { suffixes: ['.cl'] } })).toEqual([]);
    expect(conflictingSettings(stored, { w: 2000, policy: 'opic' })).toEqual(['w', 'policy']);
    expect(conflictingSettings(stored, { scope: { suffixes: ['.gr'] } })).toEqual(['scope']);
  });
});

describe('resolver', () => {
  it('maps hosts by exact name, then the longest wildcard, without asking DNS', async () => {
    const r = new CachingResolver([
      { pattern: '*.demo', address: '127.0.0.1' },
      { pattern: '*.b.demo', address: '127.0.0.2' },
      { pattern: 'x.b.demo', address: '127.0.0.3' },
    ]);
    expect(await r.resolve('a.demo')).toBe('127.0.0.1');
    expect(await r.resolve('y.b.demo')).toBe('127.0.0.2');
    expect(await r.resolve('X.B.demo')).toBe('127.0.0.3');
    expect(await r.resolve('127.9.9.9')).toBe('127.9.9.9');
    expect(await r.resolve('localhost')).toBe('127.0.0.1');
    expect(r.lookups).toBe(0);
  });
  it('refuses a rule that is not an address or has a bad pattern', () => {
    expect(code(() => new CachingResolver([{ pattern: '*.demo', address: 'home' }]))).toBe(ErrorCodes.BAD_OPTION);
    expect(code(() => new CachingResolver([{ pattern: 'a*b', address: '127.0.0.1' }]))).toBe(ErrorCodes.BAD_OPTION);
  });
});

describe('content decoding', () => {
  it('decodes gzip and refuses what inflates past the cap', () => {
    const body = gzipSync(Buffer.from('hello '.repeat(100)));
    expect(decodeContent(body, 'gzip', 10_000).toString()).toBe('hello '.repeat(100));
    const bomb = gzipSync(Buffer.alloc(5_000_000));
    expect(code(() => decodeContent(bomb, 'gzip', 1_000_000))).toBe(ErrorCodes.DECODED_TOO_LARGE);
    expect(code(() => decodeContent(Buffer.from('not gzip'), 'gzip', 1000))).toBe(ErrorCodes.BAD_ENCODING);
    expect(code(() => decodeContent(body, 'compress', 1000))).toBe(ErrorCodes.BAD_ENCODING);
  });
  it('reads Retry-After in seconds or as a date, capped at an hour', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('99999')).toBe(3_600_000);
    expect(parseRetryAfter(new Date(Date.now() + 10_000).toUTCString())).toBeGreaterThan(8000);
    expect(parseRetryAfter(undefined)).toBeNull();
  });
});
