import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../core/policies/registry.js';
import { crawlabilityRank, pagesP, performanceRank, serverModel, timeT } from '../../core/policies/server-rank.js';
import { SiteState } from '../../core/scheduler/site-state.js';
import { handWeb } from '../../core/testweb/hand-web.js';
import { tmpDir } from '../helpers/tmp.js';
import { serve } from '../helpers/web.js';
import { crawlOrder } from './order.js';

const dir = tmpDir();

function site(opts: { connectMs?: number | null; responseMs?: number | null; rpc?: number | null; pending?: number[]; pipelines?: boolean } = {}): SiteState {
  const s = new SiteState(1, 's.test');
  s.pipelines = opts.pipelines ?? false;
  s.connectMs = opts.connectMs ?? null;
  s.responseMs = opts.responseMs ?? null;
  s.requestsPerConn = opts.rpc ?? null;
  (opts.pending ?? []).forEach((priority, i) => s.queue.set(i + 1, priority));
  return s;
}

describe('server-level formulas (crawl-ability paper) on SiteState estimates', () => {
  const m = serverModel({});

  it('defaults: p = 1.2, RequestsPerConnection 50 until measured, alpha 0.8', () => {
    expect(m).toEqual({ p: 1.2, requestsPerConnection: 50, alpha: 0.8 });
  });

  it('P = min(RequestsPerConnection, pending URLs)', () => {
    expect(pagesP(site({ pending: [0, 0, 0] }), m)).toBe(3); // 50 assumed, 3 pending
    expect(pagesP(site({ rpc: 2, pending: [0, 0, 0] }), m)).toBe(2);
    expect(pagesP(site({ rpc: 1.6, pending: [0, 0, 0] }), m)).toBe(2); // an EWMA, rounded
    expect(pagesP(site({ pending: new Array(80).fill(0) }), m)).toBe(50);
    expect(pagesP(site({ pending: new Array(80).fill(0) }), serverModel({ requestsPerConnection: 7 }))).toBe(7);
  });

  it('T = 2*ConnectionTime + P*ResponseTime/p; unknown until the response time is measured', () => {
    expect(timeT(site({ connectMs: 10, responseMs: 60, pipelines: true }), 3, m)).toBeCloseTo(20 + 150, 9);
    expect(timeT(site({ connectMs: 10, responseMs: 60, pipelines: true }), 3, serverModel({ p: 1 }))).toBeCloseTo(200, 9);
    expect(timeT(site({ connectMs: 10 }), 3, m)).toBeNull();
  });

  it('p applies only to a server measured to pipeline: the others are timed at p = 1', () => {
    expect(timeT(site({ connectMs: 10, responseMs: 60 }), 3, m)).toBeCloseTo(20 + 180, 9);
    const plain = site({ connectMs: 10, responseMs: 60, rpc: 3, pending: [1, 1, 1] });
    const piped = site({ connectMs: 10, responseMs: 60, rpc: 3, pending: [1, 1, 1] });
    piped.measureConnection(10, 3, true);
    expect(piped.pipelines).toBe(true);
    expect(performanceRank(plain, m)).toBeCloseTo(3 / 200, 12);
    expect(performanceRank(piped, m)).toBeCloseTo(3 / 170, 12);
    expect(crawlabilityRank(piped, m)).toBeGreaterThan(crawlabilityRank(plain, m));
    // A connection that did not pipeline does not take the measurement back.
    piped.measureConnection(10, 3, false);
    expect(piped.pipelines).toBe(true);
  });

  it('P is capped by c: the scheduler takes no more than c pages over a connection', () => {
    const s = site({ connectMs: 10, responseMs: 60, rpc: 100, pending: new Array(30).fill(1) });
    expect(pagesP(s, m)).toBe(30);
    expect(pagesP(s, m, 4)).toBe(4);
    // T and the ranks are for the c pages actually taken: R = 4 / (20 + 4*60)
    expect(performanceRank(s, m, 4)).toBeCloseTo(4 / 260, 12);
    expect(crawlabilityRank(s, m, 4)).toBeCloseTo(4 / 260, 12);
    for (const name of ['performance', 'quality', 'crawl-ability']) {
      const policy = createPolicy(name, {});
      policy.attach?.({ c: 4, clock: { now: () => 0 }, setPagePriority: () => {}, refreshSite: () => {}, sites: () => [] } as never);
      expect(policy.pagesPerConnection!(s, 4)).toBe(4);
    }
    const perf = createPolicy('performance', {});
    perf.attach?.({ c: 4 } as never);
    expect(perf.sitePriority!(s)).toBeCloseTo(4 / 260, 12);
  });

  it('RequestsPerConnection is what the server said, not what was asked: a connection where it said nothing leaves it', () => {
    const s = site();
    s.measureConnection(5, null);
    expect(s.requestsPerConn).toBeNull();
    s.measureConnection(5, 100);
    s.measureConnection(5, null);
    expect(s.requestsPerConn).toBe(100);
  });

  it('performance R = P/T, crawl-ability C = (quality of the next P URLs)/T; unmeasured servers first', () => {
    const s = site({ connectMs: 10, responseMs: 60, rpc: 2, pending: [1, 5, 3], pipelines: true });
    // P = 2, T = 20 + 2*60/1.2 = 120 (a server measured to pipeline)
    expect(performanceRank(s, m)).toBeCloseTo(2 / 120, 12);
    expect(crawlabilityRank(s, m)).toBeCloseTo((5 + 3) / 120, 12);
    expect(performanceRank(site({ pending: [1] }), m)).toBe(Infinity);
    expect(crawlabilityRank(site({ connectMs: 3, pending: [1] }), m)).toBe(Infinity);
    // A faster server outranks a slower one with the same pages.
    const fast = site({ connectMs: 1, responseMs: 2, rpc: 1, pending: [1, 1] });
    const slow = site({ connectMs: 1, responseMs: 150, rpc: 1, pending: [1, 1] });
    expect(performanceRank(fast, m)).toBeGreaterThan(performanceRank(slow, m));
    expect(crawlabilityRank(fast, m)).toBeGreaterThan(crawlabilityRank(slow, m));
  });

  it('the EWMAs use the policy alpha: new = old*alpha + measured*(1-alpha)', () => {
    const s = site();
    s.measureResponse(100);
    s.measureResponse(50);
    expect(s.responseMs).toBeCloseTo(90, 12);
    const policy = createPolicy('performance', { alpha: 0.5 });
    const t = site();
    policy.pagePriority({ id: 1, site: t, depth: 0, parentId: null, url: 'http://s.test/', anchor: null });
    t.measureResponse(100);
    t.measureResponse(50);
    t.measureConnection(4, 10);
    t.measureConnection(2, 20);
    expect([t.responseMs, t.connectMs, t.requestsPerConn]).toEqual([75, 3, 15]);
  });

  it('pages per connection is P for performance, quality and crawl-ability', () => {
    for (const name of ['performance', 'quality', 'crawl-ability']) {
      const policy = createPolicy(name, { requestsPerConnection: 4 });
      expect(policy.pagesPerConnection!(site({ pending: new Array(10).fill(0) }), 100)).toBe(4);
      expect(policy.pagesPerConnection!(site({ rpc: 2.2, pending: new Array(10).fill(0) }), 100)).toBe(2);
      expect(policy.pagesPerConnection!(site({ pending: [0, 0, 0] }), 100)).toBe(3);
    }
  });

  it('refuses alpha outside [0, 1] and p <= 0, naming the flag', () => {
    expect(() => createPolicy('performance', { alpha: 1.5 })).toThrow(/--alpha: 1\.5 is not a number between 0 and 1/);
    expect(() => createPolicy('crawl-ability', { alpha: -0.1 })).toThrow(/--alpha/);
    expect(() => createPolicy('performance', { p: 0 })).toThrow(/--pipelining/);
    expect(() => createPolicy('quality', { requestsPerConnection: 0 })).toThrow(/--requests-per-connection/);
  });
});

/**
 * One slow site (150 ms before every answer) and one fast one, crawled with r = 1, c = 1.
 * The slow site is seeded first, so breadth-first takes its pages first; the server-level
 * policies try each server once (an unmeasured server ranks first), then prefer the fast
 * one: all of its pages come before the slow site's remaining ones.
 */
describe('server-level policies, crawled on loopback', async () => {
  const web = handWeb([
    { host: 'slow.test', latencyMs: 150, pages: [{ path: '/', links: ['/1', '/2', '/3'] }, { path: '/1' }, { path: '/2' }, { path: '/3' }] },
    { host: 'fast.test', pages: [{ path: '/', links: ['/1', '/2', '/3'] }, { path: '/1' }, { path: '/2' }, { path: '/3' }] },
    // quality: qa.test's pages (OPIC cash 1 + 1/3) beat qb.test's home page (cash 1).
    { host: 'qa.test', pages: [{ path: '/', links: ['/1', '/2', '/3'] }, { path: '/1' }, { path: '/2' }, { path: '/3' }] },
    { host: 'qb.test', pages: [{ path: '/', links: ['/1'] }, { path: '/1' }] },
  ]);
  const { port } = await serve(web);
  const seeds = ['slow.test/', 'fast.test/'];
  const bfsOrder = ['slow.test/', 'fast.test/', 'slow.test/1', 'slow.test/2', 'slow.test/3', 'fast.test/1', 'fast.test/2', 'fast.test/3'];
  const fastFirst = ['slow.test/', 'fast.test/', 'fast.test/1', 'fast.test/2', 'fast.test/3', 'slow.test/1', 'slow.test/2', 'slow.test/3'];

  it('breadth-first takes the slow site first (the baseline)', async () => {
    expect((await crawlOrder(dir, port, seeds, 'breadth-first')).order).toEqual(bfsOrder);
  });

  it('performance: after one connection to each, the fast server (higher P/T) goes first', async () => {
    const { order } = await crawlOrder(dir, port, seeds, 'performance');
    expect(order).toEqual(fastFirst);
    expect(order).not.toEqual(bfsOrder);
  });

  it('crawl-ability: after one connection to each, the fast server (higher Q/T) goes first', async () => {
    const { order } = await crawlOrder(dir, port, seeds, 'crawl-ability');
    expect(order).toEqual(fastFirst);
    expect(order).not.toEqual(bfsOrder);
  });

  it('quality (OPIC cash without --history): servers by their best URL', async () => {
    const qSeeds = ['qa.test/', 'qb.test/'];
    const bfs = (await crawlOrder(dir, port, qSeeds, 'breadth-first')).order;
    expect(bfs).toEqual(['qa.test/', 'qb.test/', 'qa.test/1', 'qa.test/2', 'qa.test/3', 'qb.test/1']);
    const { order } = await crawlOrder(dir, port, qSeeds, 'quality');
    expect(order).toEqual(['qa.test/', 'qa.test/1', 'qa.test/2', 'qa.test/3', 'qb.test/', 'qb.test/1']);
    expect(order).not.toEqual(bfs);
  });
});
