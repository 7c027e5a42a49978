import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CrawlError } from '../../core/errors.js';
import { Scope } from '../../core/url/scope.js';
import { runsInLinearTime } from '../../core/url/user-regex.js';

describe('Scope', () => {
  it('a suffix with a leading dot matches the suffix itself and every host under it', () => {
    const s = new Scope({ suffixes: ['.cl'] });
    expect(s.check('http://x.cl/')).toBeNull();
    expect(s.check('http://a.b.cl:8080/p')).toBeNull();
    expect(s.check('http://cl/')).toBeNull();
    expect(s.check('http://x.cl.example.com/')).toBe('out-of-scope');
    expect(s.check('http://xcl/')).toBe('out-of-scope');
    expect(s.check('http://x.gr/')).toBe('out-of-scope');
  });

  it('a suffix without a dot matches that domain and its subdomains, not look-alikes', () => {
    const s = new Scope({ suffixes: ['uchile.cl'] });
    expect(s.inScope('http://uchile.cl/')).toBe(true);
    expect(s.inScope('http://www.dcc.uchile.cl/')).toBe(true);
    expect(s.inScope('http://notuchile.cl/')).toBe(false);
    expect(s.inScope('http://other.cl/')).toBe(false);
  });

  it('normalises suffixes and hosts (case, IDN, trailing dot of the URL host)', () => {
    const s = new Scope({ suffixes: ['.CL', '.españa.es'], hosts: ['WWW.Example.COM'] });
    expect(s.inScope('http://a.cl./')).toBe(true);
    expect(s.inScope('http://x.xn--espaa-rta.es/')).toBe(true);
    expect(s.inScope('http://www.example.com/')).toBe(true);
  });

  it('hosts are exact', () => {
    const s = new Scope({ hosts: ['www.a.cl'] });
    expect(s.check('http://www.a.cl/x')).toBeNull();
    expect(s.check('http://a.cl/x')).toBe('out-of-scope');
    expect(s.check('http://sub.www.a.cl/x')).toBe('out-of-scope');
  });

  it('suffixes and hosts combine', () => {
    const s = new Scope({ suffixes: ['.gr'], hosts: ['www.a.cl'] });
    expect(s.inScope('http://x.gr/')).toBe(true);
    expect(s.inScope('http://www.a.cl/')).toBe(true);
    expect(s.inScope('http://b.cl/')).toBe(false);
  });

  it('falls back to the seed hosts (exact, port ignored) only when no suffix or host is given', () => {
    const seeds = new Scope({ seedHosts: ['a.cl', '127.0.0.1:8001'] });
    expect(seeds.inScope('http://a.cl/x')).toBe(true);
    expect(seeds.inScope('http://127.0.0.1:9999/x')).toBe(true);
    expect(seeds.inScope('http://www.a.cl/x')).toBe(false);
    const withSuffix = new Scope({ suffixes: ['.gr'], seedHosts: ['a.cl'] });
    expect(withSuffix.inScope('http://a.cl/x')).toBe(false);
    expect(new Scope({}).inScope('http://a.cl/')).toBe(false);
  });

  it('excludes are regular expressions on the full URL, checked after the host', () => {
    const s = new Scope({ suffixes: ['.cl'], excludes: ['\\.(jpg|pdf)$', '/calendar/\\d{4}/', '^https:'] });
    expect(s.check('http://a.cl/doc.pdf')).toBe('excluded');
    expect(s.check('http://a.cl/calendar/2031/01')).toBe('excluded');
    expect(s.check('https://a.cl/')).toBe('excluded');
    expect(s.check('http://a.cl/doc.pdf.html')).toBeNull();
    expect(s.check('http://b.gr/doc.pdf')).toBe('out-of-scope');
  });

  it('URLs over maxUrlLength get CRAWL_URL_TOO_LONG (default 2048)', () => {
    const s = new Scope({ suffixes: ['.cl'] });
    const base = 'http://a.cl/';
    expect(s.check(base + 'x'.repeat(2048 - base.length))).toBeNull();
    expect(s.check(base + 'x'.repeat(2049 - base.length))).toBe('CRAWL_URL_TOO_LONG');
    const short = new Scope({ suffixes: ['.cl'], maxUrlLength: 20 });
    expect(short.check('http://a.cl/123456789')).toBe('CRAWL_URL_TOO_LONG');
    expect(short.check('http://b.gr/123456789')).toBe('out-of-scope');
  });

  it('a bad regular expression throws CRAWL_BAD_OPTION naming the option and the value', () => {
    let err: unknown;
    try {
      new Scope({ suffixes: ['.cl'], excludes: ['ok', '([unclosed'] });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CrawlError);
    expect((err as CrawlError).code).toBe('CRAWL_BAD_OPTION');
    expect((err as CrawlError).message).toContain('excludes');
    expect((err as CrawlError).message).toContain('([unclosed');
    expect((err as CrawlError).isUserError).toBe(true);
  });

  it('an exclude with a repetition inside a repetition runs in time linear in the URL, in a process of its own', () => {
    // (a+)+$ backtracks 2^n times on n letters and a b: 60 would run for centuries, unless V8
    // moves the pattern to its linear-time engine (core/url/user-regex.ts). Run in a child
    // process, killed after a minute, so that a hang fails this test instead of the whole run.
    const script = `
      const { Scope } = await import(${JSON.stringify(pathToFileURL(resolve('dist/core/url/scope.js')).href)});
      const s = new Scope({ suffixes: ['.cl'], excludes: ['^http://a\\.cl/(a+)+$', '/(x|x)*y$'] });
      console.log(JSON.stringify([s.check('http://a.cl/' + 'a'.repeat(60) + 'b'), s.check('http://a.cl/' + 'a'.repeat(60)), s.check('http://a.cl/' + 'x'.repeat(60) + 'z')]));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(r.signal, 'the check did not finish within a minute').toBeNull();
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual([null, 'excluded', null]);
  }, 70_000);

  it('refuses an exclude that may take exponential time and that V8 cannot run in linear time, naming it; accepts the others', () => {
    for (const bad of ['(?!www\\.)(a+)+$', '(?=(a|ab)+c)(\\w+)*\\1', '([^/]+/){20,}', '(?:\\w?){22}x(?=y)']) {
      expect(() => new Scope({ suffixes: ['.cl'], excludes: ['ok', bad] })).toThrow(
        expect.objectContaining({ code: 'CRAWL_BAD_OPTION', message: expect.stringMatching(/excludes.*exponential in a URL's length.*x\{16\}x\{4,\}/) }),
      );
    }
    // Nested repetition V8 runs in linear time when it must; lookaheads, back-references and
    // counted repetitions without nesting (an optional part, ?, is no repetition); a long count split.
    const split = '^http://c\\.cl(?:/[^/]+){16}(?:/[^/]+){4,}';
    // Node 20's linear-time engine cannot run a group repeated 16 times (Node 22 and 24 can): there it is refused, as it may backtrack.
    if (!runsInLinearTime('(?:/[^/]+){16}')) {
      expect(() => new Scope({ suffixes: ['.cl'], excludes: [split] })).toThrow(expect.objectContaining({ message: expect.stringMatching(/repeats a repetition/) }));
    }
    const s = new Scope({
      suffixes: ['.cl'],
      excludes: ['^http://a\\.cl/(a+)+$', '/[a-z]{1,100}\\.php$', '^https?://(?:[^/]+\\.)?b\\.cl/(?!en/)old/', '(\\w+)/\\1/', ...(runsInLinearTime('(?:/[^/]+){16}') ? [split] : [`^http://c\\.cl${Array.from({ length: 20 }, (_, i) => `/s${i}`).join('')}`])],
    });
    expect(s.check('http://a.cl/aaa')).toBe('excluded');
    expect(s.check('http://b.cl/index.php')).toBe('excluded');
    expect(s.check('http://www.b.cl/old/x')).toBe('excluded');
    expect(s.check('http://d.cl/x/x/')).toBe('excluded');
    const segments = (n: number) => Array.from({ length: n }, (_, i) => `/s${i}`).join('');
    expect(s.check('http://c.cl' + segments(20))).toBe('excluded');
    expect(s.check('http://c.cl' + segments(19))).toBeNull();
    expect(s.check('http://b.cl/en/old/x')).toBeNull();
  });

  it('reads a lookbehind after an escaped backslash, parentheses in a character class, and (where this Node has them) modifiers as they are meant: checked, not refused unread', () => {
    // Before: `\\(?<=x)` was read as an escaped parenthesis and `(?i:...)` not at all: both refused as "could not be checked".
    const ok = ['\\\\(?<=x)(?=y)[a-z]+', '[(?<]+(?=y)', '(?<!\\.pdf)(?=q)\\w+'];
    const bad = ['\\\\(?<=x)(a+)+(?=y)', '[(]((b+)*)(?=y)'];
    if (regexpModifiers()) ok.push('(?i:abc)+(?=y)'), bad.push('(?i:(a+)+)(?=y)', '(?-i:a*)*(?=y)');
    for (const pattern of ok) expect(() => new Scope({ suffixes: ['.cl'], excludes: [pattern] }), pattern).not.toThrow();
    for (const pattern of bad) {
      expect(() => new Scope({ suffixes: ['.cl'], excludes: [pattern] }), pattern).toThrow(expect.objectContaining({ message: expect.stringMatching(/repeats a repetition/) }));
    }
  });

  it("opens a crawl's stored excludes as they are: one refused now, taken by an earlier version, still resumes", () => {
    const s = new Scope({ suffixes: ['.cl'], excludes: ['/([a-z]+/){20,}x$', '^http://a\\.cl/(?=p)(p+)+$'], checkExcludes: false });
    expect(s.check('http://a.cl/ppp')).toBe('excluded');
    expect(s.check('http://b.cl/q')).toBeNull();
    expect(() => new Scope({ suffixes: ['.cl'], excludes: ['(['], checkExcludes: false })).toThrow(expect.objectContaining({ code: 'CRAWL_BAD_OPTION' }));
  });

  it.each([[''], ['.'], ['*.cl'], ['a..cl'], ['http://a.cl'], ['a b.cl'], ['a.cl/x']])('rejects the suffix %j', (bad) => {
    expect(() => new Scope({ suffixes: [bad] })).toThrow(expect.objectContaining({ code: 'CRAWL_BAD_OPTION', message: expect.stringContaining('suffixes') }));
  });

  it('rejects bad hosts and a bad maxUrlLength', () => {
    expect(() => new Scope({ hosts: ['http://a.cl/'] })).toThrow(expect.objectContaining({ code: 'CRAWL_BAD_OPTION' }));
    expect(() => new Scope({ hosts: ['a.cl/path'] })).toThrow(expect.objectContaining({ code: 'CRAWL_BAD_OPTION' }));
    expect(() => new Scope({ hosts: ['a.cl'], maxUrlLength: 0 })).toThrow(expect.objectContaining({ code: 'CRAWL_BAD_OPTION', message: expect.stringContaining('maxUrlLength') }));
  });
});

/** This Node's regular expressions take modifiers, `(?i:...)` (V8 12.5: Node 23 and up). */
function regexpModifiers(): boolean {
  try {
    new RegExp('(?i:a)');
    return true;
  } catch {
    return false;
  }
}
