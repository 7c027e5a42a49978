// @vitest-environment happy-dom
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { provideApi } from '../../renderer/api/instance.js';
import { BoundedSeries } from '../../renderer/lib/bounded-series.js';
import { useCrawlsStore } from '../../renderer/stores/crawls.js';
import { useInspectorStore } from '../../renderer/stores/inspector.js';
import { SERIES_MAX, useLiveStore } from '../../renderer/stores/live.js';
import { fakeApi, stats } from './fake-api.js';

let fake: ReturnType<typeof fakeApi>;
beforeEach(() => {
  fake = fakeApi();
  provideApi(fake.api);
  setActivePinia(createPinia());
});

describe('crawls store', () => {
  it('creates a crawl, selects it, and follows start, pause and resume', async () => {
    const crawls = useCrawlsStore();
    const info = await crawls.create({ name: 'demo', demoWeb: true });
    expect(info?.id).toBe('demo');
    expect(crawls.selected?.id).toBe('demo');
    await crawls.start('demo');
    expect(crawls.selected?.status).toBe('running');
    await crawls.pause('demo');
    expect(crawls.selected?.status).toBe('paused');
    await crawls.resume('demo');
    expect(fake.calls.filter((c) => !c.startsWith('list'))).toEqual(['createCrawl', 'start demo', 'pause demo', 'resume demo']);
  });

  it('keeps an error that crossed the transport with its action, in words, until dismissed or tried again', async () => {
    const crawls = useCrawlsStore();
    expect(await crawls.create({ name: 'x' })).toBeNull();
    expect(crawls.errorOf('create')).toEqual({ field: null, code: 'CRAWL_BAD_SEED', text: 'No seed' });
    expect(crawls.pending.create).toBeUndefined();
    // A field's error loses its field name (and any CLI flag) in front: the form shows it at the field.
    expect(await crawls.create({ name: 'x', demoWeb: true, w: 4e6 })).toBeNull();
    expect(crawls.errorOf('create')).toEqual({ field: 'w', code: 'CRAWL_BAD_OPTION', text: 'Must be a duration from 0 ms to 1 hour' });
    expect(crawls.errorOf('pause:x')).toBeNull();
    crawls.dismiss('create');
    expect(crawls.errorOf('create')).toBeNull();
    expect(await crawls.create({ name: 'y', demoWeb: true })).not.toBeNull();
  });

  it('refuses to delete a running crawl but deletes a paused one', async () => {
    const crawls = useCrawlsStore();
    await crawls.create({ name: 'a', demoWeb: true });
    await crawls.start('a');
    await crawls.remove('a');
    expect(crawls.errorOf('delete:a')?.code).toBe('CRAWL_DB_LOCKED');
    expect(crawls.crawls.map((c) => c.id)).toEqual(['a']);
    await crawls.pause('a');
    await crawls.remove('a');
    expect(crawls.crawls).toEqual([]);
    expect(crawls.selectedId).toBeNull();
  });

  it('applies crawl state events at once', async () => {
    const crawls = useCrawlsStore();
    await crawls.create({ name: 'a', demoWeb: true });
    crawls.applyState({ crawlId: 'a', status: 'finished' });
    expect(crawls.selected?.status).toBe('finished');
  });
});

describe('live store', () => {
  it('keeps only the selected crawl’s samples, in bounded series, however long the crawl', () => {
    const live = useLiveStore();
    live.watch('a');
    for (let i = 1; i <= 20_000; i++) live.ingest(stats('a', i));
    live.ingest(stats('other', 1, { pagesPerSecond: 1e9 }));
    expect(live.latest?.pages).toBe(200_000);
    for (const s of Object.values(live.series)) expect(s.length).toBeLessThanOrEqual(SERIES_MAX);
    const data = live.series.pagesPerSecond.data();
    expect(data.length).toBeGreaterThan(SERIES_MAX / 4);
    expect(Math.max(...data.map((p) => p[1]))).toBe(10);
    // Time runs forward across the whole history, first sample at 0.
    expect(data[0]![0]).toBeLessThan(data[data.length - 1]![0]);
  });

  it('starts empty for another crawl and keeps x increasing across a pause and resume', () => {
    const live = useLiveStore();
    live.watch('a');
    live.ingest(stats('a', 1));
    live.ingest(stats('a', 2));
    // A resumed run counts elapsedSeconds from 0 again, but wall-clock time moves on.
    live.ingest(stats('a', 0, { at: 1_000_000 + 10_000 }));
    const xs = live.series.queued.data().map((p) => p[0]);
    expect(xs).toEqual([...xs].sort((p, q) => p - q));
    live.watch('b');
    expect(live.series.queued.length).toBe(0);
    expect(live.latest).toBeNull();
  });

  it('fetches the top sites and recent errors of the crawl it shows', async () => {
    const live = useLiveStore();
    live.watch('a');
    await live.refreshTables();
    expect(live.topSites[0]?.host).toBe('a.test');
    expect(live.errors[0]?.code).toBe('CRAWL_HTTP_4XX');
  });
});

describe('inspector store', () => {
  it('looks a page up and says when the crawl does not know it', async () => {
    const inspector = useInspectorStore();
    await inspector.lookup('a', ' http://a.test/evil ');
    expect(inspector.page?.title).toBe('<img src=x onerror=alert(1)>');
    await inspector.lookup('a', 'http://a.test/missing');
    expect(inspector.page).toBeNull();
    expect(inspector.notFound).toBe(true);
  });
});

describe('BoundedSeries', () => {
  it('never holds more than max points and keeps averages', () => {
    const s = new BoundedSeries(8);
    for (let i = 0; i < 1000; i++) s.push(i, 5);
    expect(s.length).toBeLessThanOrEqual(8);
    expect(s.data().every((p) => p[1] === 5)).toBe(true);
  });
});
