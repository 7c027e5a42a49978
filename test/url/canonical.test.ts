import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize, DEFAULT_MAX_URL_LENGTH, isDynamic, linkResolver } from '../../core/url/canonical.js';

describe('canonicalize', () => {
  it.each([
    ['HTTP://Example.COM:80/a/./b/../c?#frag', 'http://example.com/a/c'],
    ['https://example.com:443/', 'https://example.com/'],
    ['https://example.com:8443/x', 'https://example.com:8443/x'],
    ['http://example.com', 'http://example.com/'],
    ['http://example.com/a#section', 'http://example.com/a'],
    ['http://example.com/a#', 'http://example.com/a'],
    ['http://example.com/a?', 'http://example.com/a'],
    ['http://example.com/a?b=1#x?y', 'http://example.com/a?b=1'],
    // IDN host -> punycode; non-ASCII path -> upper-case escapes.
    ['http://Bücher.DE/ä', 'http://xn--bcher-kva.de/%C3%A4'],
    ['http://español.cl/', 'http://xn--espaol-zwa.cl/'],
  ])('%s -> %s', (input, expected) => {
    expect(canonicalize(input)).toBe(expected);
  });

  it('normalises percent-encoding: unreserved decoded, others upper-cased, reserved kept', () => {
    expect(canonicalize('http://a.cl/%7euser/%41%62%2d%2E%5f')).toBe('http://a.cl/~user/Ab-._');
    expect(canonicalize('http://a.cl/a%2fb')).toBe('http://a.cl/a%2Fb');
    expect(canonicalize('http://a.cl/a%2Fb')).toBe('http://a.cl/a%2Fb');
    expect(canonicalize('http://a.cl/%c3%a9?q=%c3%a9%26%7E')).toBe('http://a.cl/%C3%A9?q=%C3%A9%26~');
    expect(canonicalize('http://a.cl/?a=%3d%3D')).toBe('http://a.cl/?a=%3D%3D');
    // A broken escape is what the server will receive: left alone.
    expect(canonicalize('http://a.cl/100%zz%4')).toBe('http://a.cl/100%zz%4');
  });

  it('resolves against a base and rejects non-http(s) or unparsable input', () => {
    expect(canonicalize('../x/y.html', 'http://a.cl/dir/sub/page.html')).toBe('http://a.cl/dir/x/y.html');
    expect(canonicalize('//b.cl/p', 'https://a.cl/')).toBe('https://b.cl/p');
    expect(canonicalize('?q=1', 'http://a.cl/p?old=2')).toBe('http://a.cl/p?q=1');
    for (const bad of ['mailto:x@a.cl', 'javascript:void(0)', 'data:text/html,hi', 'tel:+56', 'ftp://a.cl/', 'file:///etc/passwd']) {
      expect(canonicalize(bad, 'http://a.cl/')).toBeNull();
    }
    expect(canonicalize('http://')).toBeNull();
    expect(canonicalize('http://exa mple.com/')).toBeNull();
    expect(canonicalize('/relative')).toBeNull();
    expect(canonicalize('/relative', 'not a url')).toBeNull();
  });

  it('strips session-id query parameters, case-insensitively, keeping the rest in order', () => {
    expect(canonicalize('http://a.cl/p?b=2&PHPSESSID=abc&a=1')).toBe('http://a.cl/p?b=2&a=1');
    expect(canonicalize('http://a.cl/p?jsessionid=1&sid=2&SessionId=3&session_id=4&cfid=5&CFTOKEN=6')).toBe('http://a.cl/p');
    expect(canonicalize('http://a.cl/p?ASPSESSIONIDQQGGQGPG=XYZ&x=1')).toBe('http://a.cl/p?x=1');
    expect(canonicalize('http://a.cl/p?%73id=2&x=1')).toBe('http://a.cl/p?x=1');
    // Names that merely contain a session name are kept.
    expect(canonicalize('http://a.cl/p?sidebar=1&asid=2')).toBe('http://a.cl/p?sidebar=1&asid=2');
  });

  it('strips ;jsessionid path parameters', () => {
    expect(canonicalize('http://a.cl/cart;jsessionid=0AB12?item=3')).toBe('http://a.cl/cart?item=3');
    expect(canonicalize('http://a.cl/dir;JSESSIONID=x/page')).toBe('http://a.cl/dir/page');
    expect(canonicalize('http://a.cl/p;jsessionid=x;v=2')).toBe('http://a.cl/p;v=2');
    expect(canonicalize('http://a.cl/p;v=2')).toBe('http://a.cl/p;v=2');
  });

  it('returns the parser output untouched when there is nothing to normalise', () => {
    expect(canonicalize('http://user:pw@a.cl/x.html')).toBe('http://user:pw@a.cl/x.html');
    expect(canonicalize('http://[::1]:8080/x')).toBe('http://[::1]:8080/x');
  });

  it('is idempotent', () => {
    for (const u of ['HTTP://Example.COM:80/a/./b/../c?#frag', 'http://a.cl/%7e/%2f?x=%c3%a9&sid=1', 'http://Bücher.DE/ä;jsessionid=1']) {
      const once = canonicalize(u)!;
      expect(canonicalize(once)).toBe(once);
    }
  });

  it('exports the default URL length limit', () => {
    expect(DEFAULT_MAX_URL_LENGTH).toBe(2048);
  });
});

describe('isDynamic', () => {
  it('is true only with a non-empty query string', () => {
    expect(isDynamic('http://a.cl/p?x=1')).toBe(true);
    expect(isDynamic('http://a.cl/p')).toBe(false);
    expect(isDynamic('http://a.cl/p?')).toBe(false);
    expect(isDynamic('http://a.cl/p#frag?x')).toBe(false);
  });
});

describe('linkResolver', () => {
  it('resolves a page\'s links as canonicalize does, plain ones and the rest', () => {
    const resolve = linkResolver('http://www.a.cl/docs/page.html?x=1');
    const cases: Array<[string, string | null]> = [
      ['/about', 'http://www.a.cl/about'],
      ['next.html', 'http://www.a.cl/docs/next.html'],
      ['sub/dir/', 'http://www.a.cl/docs/sub/dir/'],
      ['http://www.b.cl/x/y', 'http://www.b.cl/x/y'],
      ['http://WWW.B.cl:80/x', 'http://www.b.cl/x'],
      ['https://www.b.cl:443/', 'https://www.b.cl/'],
      ['../up.html', 'http://www.a.cl/up.html'],
      ['./here', 'http://www.a.cl/docs/here'],
      ['/a/./b/../c', 'http://www.a.cl/a/c'],
      ['/p;jsessionid=ABC', 'http://www.a.cl/p'],
      ['/%7euser', 'http://www.a.cl/~user'],
      ['//www.c.cl/z', 'http://www.c.cl/z'],
      ['mailto:x@a.cl', null],
      ['javascript:void(0)', null],
      ['x:y', null],
      ['/a b', 'http://www.a.cl/a%20b'],
      ['/ä', 'http://www.a.cl/%C3%A4'],
      ['\\back', 'http://www.a.cl/back'],
      ['?q=1', 'http://www.a.cl/docs/page.html?q=1'],
      ['', 'http://www.a.cl/docs/page.html?x=1'],
    ];
    for (const [href, expected] of cases) expect([href, resolve(href)]).toEqual([href, expected]);
  });

  it('agrees with canonicalize on any link against any base (property)', () => {
    const bases = [
      'http://www.a.cl/', 'http://www.a.cl/docs/page.html', 'https://a.cl:8443/x/y/?q=1', 'http://a.cl/p?x=/y/z',
      'http://user@a.cl/d/', 'HTTP://A.CL/Up/', 'http://a.cl/%7e/', 'http://a.cl/a;b/c', 'http://a.cl/x#frag', 'http://a.cl',
    ];
    const pieces = [
      'a', 'Z', '0', '-', '.', '..', '_', '~', '/', '//', '!', '$', '&', "'", '(', ')', '*', '+', ',', '=', ':', '@',
      '%', '%2e', '%41', ';', ';jsessionid=1', '?', '?sid=2&a=1', '#', '#x', '\\', ' ', '\t', '\n', 'é', '|', '^', '[', ']',
      '{', '"', '<', 'http://', 'https://', 'HTTP://', 'http:', 'www.b.cl', 'B.CL', ':80', ':443', ':8080', 'user@', 'page.html',
    ];
    fc.assert(
      fc.property(fc.constantFrom(...bases), fc.array(fc.constantFrom(...pieces), { maxLength: 8 }), (base, parts) => {
        const href = parts.join('');
        expect(linkResolver(base)(href)).toBe(canonicalize(href, base));
      }),
      { numRuns: 20_000 },
    );
  });
});
