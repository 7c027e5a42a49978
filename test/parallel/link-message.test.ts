/**
 * The exchange's messages as a worker reads them off the broker (core/parallel/link-message.ts):
 * input from another process, checked before any of it reaches the crawl.
 */
import { describe, expect, it } from 'vitest';
import { readLinkMessage } from '../../core/parallel/link-message.js';

describe('readLinkMessage', () => {
  it('refuses what is not an exchange message, saying why', () => {
    const problem = (text: string) => {
      const r = readLinkMessage(text, 4);
      return 'problem' in r ? r.problem : null;
    };
    expect(problem('garbage{')).toMatch(/^not JSON/);
    expect(problem('null')).toMatch(/^not an exchange message/);
    expect(problem('{"id":"a","from":{},"links":[]}')).toMatch(/^not an exchange message \(from: /);
    expect(problem('{"id":"a","from":1,"links":[["http://a.test/",-1,0,null,0]]}')).toMatch(/links\.0\.1/);
    expect(problem('{"id":"a","from":1,"links":[["http://a.test/",0,0,null,2]]}')).toMatch(/links\.0\.4/);
    expect(problem('{"id":"a","from":4,"links":[]}')).toBe('from part 4, outside 0..3');
    expect(problem('{"id":"a","from":1,"shorter":1,"links":[]}')).toBe('src: required with shorter');
    expect(problem('{"id":"","from":1,"links":[]}')).toMatch(/^not an exchange message \(id: /);
  });

  it('makes every URL canonical and leaves out those that are not http(s) URLs, counting them', () => {
    const r = readLinkMessage(
      JSON.stringify({ id: 'a', from: 1, src: 'http://b.test/', links: [['HTTP://A.TEST/x/../y#frag', 2, 0, 'y', 0], ['ftp://a.test/f', 1, 0, null, 0], ['not a url', 1, 0, null, 1], ['https://a.test/z', 3, 1, null, 1]] }),
      2,
    );
    expect('message' in r && r.message.links).toEqual([
      ['http://a.test/y', 2, 0, 'y', 0],
      ['https://a.test/z', 3, 1, null, 1],
    ]);
    expect('dropped' in r && r.dropped).toBe(2);
  });

  it('reads a batch and a shorter-path message as they are sent', () => {
    const batch = readLinkMessage(JSON.stringify({ id: '0.b1-4.1', from: 0, pages: 3, pageUrls: 9, pageUrlBytes: 200, links: [['http://a.test/', 1, 0, null, 0]] }), 2);
    expect('message' in batch && batch.message).toEqual({ id: '0.b1-4.1', from: 0, pages: 3, pageUrls: 9, pageUrlBytes: 200, links: [['http://a.test/', 1, 0, null, 0]] });
    const shorter = readLinkMessage(JSON.stringify({ id: '0.7.1.d1', from: 0, src: 'http://b.test/', shorter: 1, links: [['http://a.test/', 1, 0, null, 0]] }), 2);
    expect('message' in shorter && shorter.message).toEqual({ id: '0.7.1.d1', from: 0, src: 'http://b.test/', shorter: 1, links: [['http://a.test/', 1, 0, null, 0]] });
  });
});
