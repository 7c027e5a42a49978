import { describe, expect, it } from 'vitest';
import { parseSeeds, seedSettings } from '../../core/api/seeds.js';

/** Deterministic bytes (mulberry32), so that a failure can be replayed. */
function randomBytes(seed: number, n: number): Buffer {
  let a = seed >>> 0;
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = ((t ^ (t >>> 14)) >>> 0) & 0xff;
  }
  return out;
}

const seedCount = (p: ReturnType<typeof parseSeeds>) => p.urls.length + p.hosts.length + p.suffixes.length;

describe('parseSeeds: seeds are what they look like', () => {
  it('refuses plain words, one problem per line with its line number, and makes no seeds of them', () => {
    const p = parseSeeds('not a url at all\n\nhello world\n# a comment\nfoo');
    expect(seedCount(p)).toBe(0);
    expect(p.problems.map((x) => x.line)).toEqual([1, 3, 5]);
    expect(p.problems[0]).toMatchObject({ line: 1, text: 'not a url at all' });
    expect(p.problems[0]!.problem).toMatch(/not a URL, host name \(www\.example\.cl\) or domain suffix \(\.cl\)/);
  });

  it('takes a URL with a space as one problem for its line, not a seed plus a leftover', () => {
    const p = parseSeeds('http://exa mple.com/');
    expect(seedCount(p)).toBe(0);
    expect(p.problems).toHaveLength(1);
    expect(p.problems[0]).toMatchObject({ line: 1, text: 'http://exa mple.com/' });
    expect(p.problems[0]!.problem).toMatch(/a URL cannot contain spaces/);
  });

  it('does not let spaces separate entries: the whole line is one problem', () => {
    const p = parseSeeds('www.uchile.cl www.emol.cl');
    expect(seedCount(p)).toBe(0);
    expect(p.problems.map((x) => [x.line, x.text])).toEqual([[1, 'www.uchile.cl www.emol.cl']]);
  });

  it('makes no host of binary junk and reports it', () => {
    for (const seed of [1, 2, 3, 42, 2024]) {
      const p = parseSeeds(randomBytes(seed, 4096).toString('latin1'));
      expect(p.hosts, `seed ${seed}`).toEqual([]);
      expect(p.urls, `seed ${seed}`).toEqual([]);
      expect(p.suffixes, `seed ${seed}`).toEqual([]);
      expect(p.problems.length, `seed ${seed}`).toBeGreaterThan(0);
    }
  });

  it('makes no host of junk without NUL bytes either', () => {
    for (const seed of [7, 8, 9]) {
      const bytes = randomBytes(seed, 4096).map((b) => (b === 0 ? 1 : b));
      const p = parseSeeds(Buffer.from(bytes).toString('latin1'));
      expect(seedCount(p), `seed ${seed}`).toBe(0);
      expect(p.problems.length, `seed ${seed}`).toBeGreaterThan(0);
    }
  });

  it('refuses a line with a control character instead of reading a host out of it', () => {
    const p = parseSeeds('www.uchile.cl\u0007\nwww.emol.cl\u0000x.cl');
    expect(seedCount(p)).toBe(0);
    expect(p.problems.map((x) => x.line)).toEqual([1, 2]);
  });

  it('marks a line holding binary data alone: the good lines around it are read (issue 23)', () => {
    const p = parseSeeds(['www.uchile.cl', 'http://www.emol.cl/', `\u0000\u0001\u0002PK\u0003\u0004\u0005\u0006\u0007\u0008\u000E\u000F`, '.cl', 'www.ñandú.cl'].join('\n'));
    expect(p.problems.map((x) => x.line)).toEqual([3]);
    expect(p.problems[0]!.problem).toMatch(/binary data/);
    expect(p.problems[0]!.problem).not.toMatch(/the text contains/);
    expect(p.hosts).toEqual(['www.uchile.cl', new URL('http://www.ñandú.cl').hostname]);
    expect(p.urls).toEqual(['http://www.emol.cl/']);
    expect(p.suffixes).toEqual(['.cl']);
    // Bytes that were not UTF-8 (U+FFFD) spoil their own line only, as well.
    const q = parseSeeds('www.uchile.cl\n\uFFFD\uFFFDx.cl\nwww.emol.cl');
    expect(q.problems.map((x) => x.line)).toEqual([2]);
    expect(q.hosts).toEqual(['www.uchile.cl', 'www.emol.cl']);
  });

  it('still understands URLs, host names, localhost and IPs with ports, and domain suffixes', () => {
    const p = parseSeeds('http://www.uchile.cl/a\nwww.uchile.cl\nlocalhost:8080\n.cl\nuchile.cl\n127.0.0.1:3000\n');
    expect(p.problems).toEqual([]);
    expect(p.urls).toEqual(['http://www.uchile.cl/a']);
    expect(p.hosts).toEqual(['www.uchile.cl', 'localhost:8080', 'uchile.cl', '127.0.0.1:3000']);
    expect(p.suffixes).toEqual(['.cl']);
    expect(seedSettings(p).seeds).toContain('http://localhost:8080/');
  });

  it('keeps commas, comments, blank lines and the usual normalisation', () => {
    const p = parseSeeds('  www.emol.cl, .CL  # news\n\n# only a comment\nWWW.UChile.CL.\nhttps://[::1]:8443/x\n.uchile.cl.\nlocalhost\n');
    expect(p.problems).toEqual([]);
    expect(p.hosts).toEqual(['www.emol.cl', 'www.uchile.cl', 'localhost']);
    expect(p.suffixes).toEqual(['.cl', '.uchile.cl']);
    expect(p.urls).toEqual(['https://[::1]:8443/x']);
  });

  it('converts IDN host names to punycode as the URL parser does', () => {
    const p = parseSeeds('www.ñandú.cl\n.ñandú.cl\nhttp://www.ñandú.cl/ñ');
    expect(p.problems).toEqual([]);
    expect(p.hosts).toEqual([new URL('http://www.ñandú.cl').hostname]);
    expect(p.suffixes).toEqual(['.xn--and-6ma2c.cl']);
    expect(p.urls).toEqual(['http://www.xn--and-6ma2c.cl/%C3%B1']);
  });

  it('refuses a top-level domain alone, suggesting the suffix', () => {
    const p = parseSeeds('cl');
    expect(seedCount(p)).toBe(0);
    expect(p.problems).toHaveLength(1);
    expect(p.problems[0]!.problem).toMatch(/\.cl/);
  });

  it('answers a long top-level domain with a bad last character at once (it froze the server: 2^n backtracking)', () => {
    // 60 letters: the old nested pattern would take longer than the universe has existed.
    const long = 'a'.repeat(60);
    const lines = [`www.${long}_`, `www.${long}-`, `.${long}_`, `http://www.${long}-/`, `www.example.${long}\u0301-`];
    const p = parseSeeds(lines.join('\n'));
    expect(seedCount(p)).toBe(0);
    expect(p.problems.map((x) => x.line)).toEqual([1, 2, 3, 4, 5]);
    expect(p.problems[0]!.problem).toMatch(/top-level domain of letters/);
    // What it accepted it still accepts: letters, marks, digits and inner hyphens (punycode).
    const ok = parseSeeds(`www.${long}\nwww.example.xn--p1ai\nпример.рф\n.ñandú.cl`);
    expect(ok.problems).toEqual([]);
    expect(ok.hosts).toEqual([`www.${long}`, 'www.example.xn--p1ai', new URL('http://пример.рф').hostname]);
  });

  it('refuses hosts without a dot, bad ports, odd IPs and other schemes', () => {
    const lines = ['http://exa/', 'x.cl:0', 'x.cl:65536', '1.2', '010.1.1.1', 'ftp://x.cl/', 'javascript:alert(1)', 'a..cl', '..cl', '.', 'ex©.cl'];
    const p = parseSeeds(lines.join('\n'));
    expect(seedCount(p)).toBe(0);
    expect(p.problems.map((x) => x.line)).toEqual(lines.map((_, i) => i + 1));
    expect(p.problems[5]!.problem).toMatch(/only http and https URLs can be crawled/);
  });

  it('reports every problem (more than 10) with the total', () => {
    const lines = Array.from({ length: 25 }, (_, i) => `bad entry ${i}`);
    const p = parseSeeds(lines.join('\n'));
    expect(p.problems).toHaveLength(25);
    expect(p.problems.map((x) => x.line)).toEqual(lines.map((_, i) => i + 1));
    expect(p.problemCount).toBe(25);
  });

  it('reports only the bad lines of a mixed list, and a bad line adds none of its entries', () => {
    const p = parseSeeds(['www.uchile.cl', 'not a host', 'http://www.emol.cl/', 'www.a.cl, bad one', '.cl', 'cl'].join('\n'));
    expect(p.problems.map((x) => x.line)).toEqual([2, 4, 6]);
    expect(p.hosts).toEqual(['www.uchile.cl']);
    expect(p.urls).toEqual(['http://www.emol.cl/']);
    expect(p.suffixes).toEqual(['.cl']);
  });

  it('reads a URL whose path has a comma as that URL when its pieces are not all seeds', () => {
    const p = parseSeeds('http://www.uchile.cl/a,b\nhttp://www.uchile.cl/,www.emol.cl');
    expect(p.problems).toEqual([]);
    expect(p.urls).toEqual(['http://www.uchile.cl/a,b', 'http://www.uchile.cl/']);
    expect(p.hosts).toEqual(['www.emol.cl']);
  });
});
