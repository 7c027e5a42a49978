import { describe, expect, it } from 'vitest';
import { KnownUrls } from '../../core/engine/page-processor.js';
import { UrlIndex } from '../../core/store/url-index.js';

const url = (i: number) => `http://www.site${i % 97}.test/d${i % 10}/page-${i}.html`;

describe('recently-seen-URL cache (KnownUrls)', () => {
  it('answers the id of every URL told, and nothing for a URL never told', () => {
    const known = new KnownUrls(10_000);
    for (let i = 1; i <= 4_000; i++) known.set(url(i), i, 3);
    for (let i = 1; i <= 4_000; i++) expect(known.get(url(i))).toBe(i);
    for (let i = 4_001; i <= 8_000; i++) expect(known.get(url(i))).toBeUndefined();
  });

  it('answers only a link no shorter than the depth the page is known at', () => {
    const known = new KnownUrls();
    known.set('http://a.test/x', 7, 4);
    expect(known.get('http://a.test/x', 5)).toBe(7);
    expect(known.get('http://a.test/x', 4)).toBe(7);
    // A shorter link must reach discover(), which lowers the page's depth.
    expect(known.get('http://a.test/x', 3)).toBeUndefined();
    known.set('http://a.test/x', 7, 2);
    expect(known.get('http://a.test/x', 3)).toBe(7);
    expect(known.get('http://a.test/x')).toBe(7);
  });

  it('keeps the most recent URLs within its bound and drops the oldest generation whole', () => {
    const known = new KnownUrls(1_000); // two generations of 500
    for (let i = 1; i <= 1_600; i++) known.set(url(i), i, 1);
    // The last 500 told, and the full generation before them, are kept; the first are gone.
    for (let i = 1_001; i <= 1_600; i++) expect(known.get(url(i))).toBe(i);
    for (let i = 1; i <= 1_000; i++) expect(known.get(url(i))).toBeUndefined();
  });

  it('answers from the newer generation when a URL is in both', () => {
    const known = new KnownUrls(8); // generations of 4
    known.set('http://a.test/x', 9, 5);
    for (let i = 1; i <= 4; i++) known.set(url(i), i, 1); // the generation holding x becomes the older
    known.set('http://a.test/x', 9, 2); // told again, at a shorter depth, into the newer one
    expect(known.get('http://a.test/x', 3)).toBe(9);
  });

  it('refuses a bound it cannot keep', () => {
    expect(() => new KnownUrls(Number.NaN)).toThrow(RangeError);
    expect(() => new KnownUrls(1)).toThrow(RangeError);
    expect(() => new KnownUrls(Infinity)).toThrow(RangeError);
  });

  it('a URL told again keeps one entry, with its latest id and depth', () => {
    const known = new KnownUrls(8);
    for (let n = 0; n < 100; n++) known.set('http://a.test/same', 5, 1);
    known.set('http://a.test/other', 6, 1);
    expect(known.get('http://a.test/same')).toBe(5);
    expect(known.get('http://a.test/other')).toBe(6);
  });

  it('forgets everything on clear (a rolled-back batch)', () => {
    const known = new KnownUrls();
    known.set('http://a.test/x', 1, 0);
    known.clear();
    expect(known.get('http://a.test/x')).toBeUndefined();
  });

  it('hashing a URL for the cache leaves the URL index answering every other URL correctly', () => {
    // The cache and the URL index share one fingerprint function that remembers the last string
    // it hashed: interleaved lookups of different URLs must never take one URL's hash for another.
    const known = new KnownUrls();
    const index = new UrlIndex();
    for (let i = 1; i <= 2_000; i++) {
      known.set(url(i), i, 1);
      index.add(url(i + 10_000), i + 10_000);
    }
    for (let i = 1; i <= 2_000; i++) {
      expect(known.get(url(i + 10_000))).toBeUndefined();
      expect(index.find(url(i), (id) => id)).toBeUndefined();
      expect(index.find(url(i + 10_000), (id) => id)).toBe(i + 10_000);
      expect(known.get(url(i))).toBe(i);
    }
  });
});
