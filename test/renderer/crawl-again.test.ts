/**
 * "Crawl again" fills New crawl from an earlier crawl's settings: the same politeness and
 * limits, the earlier crawl as history with the historical policy, and for a demo crawl its
 * web months later (revision 2) of the same size, so that URLs match.
 */
import { describe, expect, it } from 'vitest';
import { describePolicies } from '../../core/api/policies.js';
import { AGAIN_POLICY, againForm, againName } from '../../renderer/lib/crawl-again.js';
import { settingsOf } from './fake-api.js';

const policies = describePolicies();

describe('Crawl again', () => {
  it('fills a demo crawl\'s settings with its web months later, guided by it', () => {
    const s = settingsOf('first', { demoWeb: { latencyMs: 0, sites: 12, pages: 300 }, w: 0, maxPages: 500, policy: 'breadth-first' });
    const f = againForm(s, policies, new Set(['first']));
    expect(f).toMatchObject({ name: 'first-again', demo: true, revision: '2', demoSpec: { sites: 12, pages: 300, latencyMs: 0 }, policy: AGAIN_POLICY, historyCrawl: 'first', w: '0', c: '10', r: '64', maxPages: '500', batch: '', seedText: '' });
    expect(f.params).toEqual({});
  });

  it('keeps the seeds, w in seconds, and the parameters the chosen policy takes', () => {
    const s = settingsOf('cl', { seedText: 'https://www.uchile.cl/\n.cl', w: 15000, c: 1, policy: 'quality', policyParams: { alpha: 0.3 } });
    const f = againForm(s, policies, new Set(['cl', 'cl-again']));
    expect(f).toMatchObject({ name: 'cl-again-2', demo: false, demoSpec: null, seedText: 'https://www.uchile.cl/\n.cl', w: '15', c: '1', policy: AGAIN_POLICY, historyCrawl: 'cl' });
    // alpha is quality's: historical-pagerank-parent takes none of it.
    expect(f.params).toEqual({});
    // Without the historical policy offered, the crawl's own policy and parameters.
    const own = againForm(s, policies.filter((p) => p.name !== AGAIN_POLICY), new Set());
    expect(own).toMatchObject({ policy: 'quality', params: { alpha: '0.3' }, historyCrawl: '' });
  });

  it('keeps how certificates were treated and the CA the earlier crawl trusted', () => {
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';
    const plain = againForm(settingsOf('p', { seedText: 'https://a.cl/' }), policies, new Set());
    expect(plain).toMatchObject({ tls: 'record', caFile: null });
    const strict = againForm({ ...settingsOf('s', { seedText: 'https://a.cl/', tls: 'verify' }), caPem: pem }, policies, new Set());
    expect(strict).toMatchObject({ tls: 'verify', caFile: { name: 'the CA certificates of s', text: pem } });
  });

  it('names the new crawl after the old one, never taking a name in use', () => {
    expect(againName('x', new Set())).toBe('x-again');
    expect(againName('x', new Set(['x-again', 'x-again-2']))).toBe('x-again-3');
    expect(againName('y'.repeat(100), new Set()).length).toBeLessThanOrEqual(100);
  });
});
