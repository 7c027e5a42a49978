/**
 * The stored timeline: a crawl writes a stats sample about once a second, a reopened crawl
 * reads its whole history from 0, a resumed crawl continues the same clock, and a week-long
 * crawl keeps the table bounded.
 */
import { join } from 'node:path';
import Sqlite from '../../core/store/sqlite.js';
import { describe, expect, it } from 'vitest';
import { Crawler } from '../../core/engine/crawler.js';
import { openDatabase } from '../../core/store/database.js';
import { sql as timelineSql } from '../../core/store/migrations/004-timeline.js';
import { readTimeline, TimelineWriter, type TimelineSample } from '../../core/store/timeline.js';
import { handWeb } from '../../core/testweb/hand-web.js';
import { tmpDir } from '../helpers/tmp.js';
import { serve, testSettings } from '../helpers/web.js';

const dir = tmpDir();

describe('timeline', async () => {
  // 30 pages, about 0.15 s apart: a crawl of about 4-5 s.
  const pages = Array.from({ length: 30 }, (_, i) => ({ path: `/p${i}`, title: `p${i}`, links: ['/'] }));
  const { port } = await serve(handWeb([{ host: 'a.test', latencyMs: 50, pages: [{ path: '/', title: 'home', links: pages.map((p) => p.path) }, ...pages] }]));
  const settings = () => testSettings([`http://a.test:${port}/`], { w: 100, r: 1 });
  const read = (db: string) => {
    const { db: d, release } = openDatabase(db, { readonly: true });
    try {
      return readTimeline(d, 10_000)!;
    } finally {
      release();
    }
  };

  it('stores a sample a second, from the start, and a resumed crawl continues its clock', async () => {
    const db = join(dir, 'tl.db');
    let crawler = Crawler.create(db, settings());
    const run = crawler.run();
    await new Promise((r) => setTimeout(r, 2600));
    crawler.pause();
    const first = await run;
    crawler.close();
    const before = read(db);
    expect(before.length).toBeGreaterThanOrEqual(2);
    expect(before[0]!.t).toBeGreaterThan(0);
    expect(before[0]!.t).toBeLessThan(1.5);
    for (let i = 1; i < before.length; i++) expect(before[i]!.t).toBeGreaterThan(before[i - 1]!.t);
    expect(before[before.length - 1]!.pages).toBeLessThanOrEqual(first.pagesFetched);
    expect(before[before.length - 1]!.pages).toBeGreaterThan(0);

    // Paused for a while: the pause is not on the crawl's clock.
    await new Promise((r) => setTimeout(r, 3000));
    crawler = Crawler.open(db);
    const done = await crawler.run();
    crawler.close();
    expect(done.state).toBe('finished');
    const after = read(db);
    const resumed = after.filter((p) => p.t > before[before.length - 1]!.t);
    expect(resumed.length).toBeGreaterThan(0);
    // The resumed run's first sample comes at most 1 s (the first run's tail after its last
    // sample) + 1 s (the sample interval) after the first run's last: the 3 s pause is not counted.
    expect(resumed[0]!.t - before[before.length - 1]!.t).toBeLessThan(2.5);
    expect(resumed[resumed.length - 1]!.pages).toBeGreaterThan(before[before.length - 1]!.pages);
  }, 30_000);

  it('thins the older half when the table passes its bound, keeping the newest samples and the first', () => {
    const db = new Sqlite(':memory:');
    db.exec(timelineSql);
    const w = new TimelineWriter(db as never);
    const s = (t: number): TimelineSample => ({ t, at: t * 1000, pages: t, bytes: t, pagesPerSecond: 1, bytesPerSecond: 1, openConnections: 1, r: 1, sitesWithPending: 1, queued: 1, errors: 0, pagerankEstimate: null });
    for (let t = 1; t <= 1000; t++) w.append(s(t));
    w.thin(600);
    const ts = readTimeline(db as never, 10_000)!.map((p) => p.t);
    expect(ts.length).toBe(750);
    expect(ts[0]).toBe(1);
    expect(ts.slice(-500)).toEqual(Array.from({ length: 500 }, (_, i) => 501 + i));
    // Read back thinned evenly to what a chart shows, first and last always there.
    const few = readTimeline(db as never, 100)!.map((p) => p.t);
    expect(few.length).toBeLessThanOrEqual(101);
    expect(few[0]).toBe(1);
    expect(few[few.length - 1]).toBe(1000);
  });

  it('answers null for a crawl made before the timeline existed', () => {
    const db = new Sqlite(':memory:');
    expect(readTimeline(db as never)).toBeNull();
  });
});
