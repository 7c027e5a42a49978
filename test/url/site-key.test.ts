import { describe, expect, it } from 'vitest';
import { hostOf, siteKey } from '../../core/url/site-key.js';

describe('siteKey', () => {
  it("'host' is the host name without port", () => {
    expect(siteKey('http://www.dcc.uchile.cl:8080/x', 'host')).toBe('www.dcc.uchile.cl');
    expect(siteKey('https://user:pw@A.CL/', 'host')).toBe('a.cl');
    expect(siteKey(new URL('http://www.a.cl:81/'), 'host')).toBe('www.a.cl');
    expect(siteKey('http://[::1]:8080/', 'host')).toBe('[::1]');
  });

  it("'domain' is the registrable domain (ICANN section of the PSL)", () => {
    expect(siteKey('http://www.dcc.uchile.cl/', 'domain')).toBe('uchile.cl');
    expect(siteKey('http://news.bbc.co.uk/', 'domain')).toBe('bbc.co.uk');
    // Private suffixes are not used: one operator's hosts form one site.
    expect(siteKey('https://foo.github.io/', 'domain')).toBe('github.io');
  });

  it("'domain' on an unknown TLD takes the last two labels (tldts applies the implicit '*' rule)", () => {
    expect(siteKey('http://a.s1.demo:8001/', 'domain')).toBe('s1.demo');
    expect(siteKey('http://s1.demo/', 'domain')).toBe('s1.demo');
  });

  it("'domain' falls back to the host name when there is no registrable domain", () => {
    expect(siteKey('http://127.0.0.1:8080/', 'domain')).toBe('127.0.0.1');
    expect(siteKey('http://[::1]/', 'domain')).toBe('[::1]');
    expect(siteKey('http://localhost:3000/', 'domain')).toBe('localhost');
    expect(siteKey('http://co.uk/', 'domain')).toBe('co.uk');
    expect(siteKey('http://demo/', 'domain')).toBe('demo');
  });

  it('throws CRAWL_INTERNAL on a non-URL', () => {
    expect(() => siteKey('not a url', 'host')).toThrow(expect.objectContaining({ code: 'CRAWL_INTERNAL' }));
  });
});

describe('hostOf', () => {
  it('reads canonical URLs directly and parses anything else', () => {
    expect(hostOf('http://a.cl/x?y#z')).toBe('a.cl');
    expect(hostOf('https://a.cl?x')).toBe('a.cl');
    expect(hostOf('http://u@b.cl:99/')).toBe('b.cl');
    expect(hostOf('HTTP://Bücher.de/')).toBe('xn--bcher-kva.de');
    expect(hostOf('mailto:x@a.cl')).toBeNull();
    expect(hostOf('garbage')).toBeNull();
  });
});
