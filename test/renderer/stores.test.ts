// @vitest-environment happy-dom
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { provideApi } from '../../renderer/api/instance.js';
import { BoundedSeries } from '../../renderer/lib/bounded-series.js';
import { useCrawlsStore } from '../../renderer/stores/crawls.js';
import { useInspectorStore } from '../../renderer/stores/inspector.js';
import { SERIES_MAX, useLiveStore } from '../../renderer/stores/live.js';
import { useNewCrawlStore } from '../../renderer/stores/new-crawl.js';
import { crawlInfo, fakeApi, stats } from './fake-api.js';

let fake: ReturnType<typeof fakeApi>;
/** Lets the stores' pending API calls (the fake answers at once) resolve. */
const settle = () => new Promise((r) => setTimeout(r, 0));
beforeEach(() => {
  fake = fakeApi();
  provideApi(fake.api);
  setActivePinia(createPinia());
});

describe('crawls store', () => {
  it('follows start, pause and resume of a crawl the new-crawl store created', async () => {
    const crawls = useCrawlsStore();
    const info = await useNewCrawlStore().create({ name: 'demo', demoWeb: true });
    expect(info?.id).toBe('demo');
    // The list is fresh as soon as create returns: Live can show the crawl at once.
    expect(crawls.byId('demo')?.status).toBe('created');
    expect(crawls.loaded).toBe(true);
    expect(await crawls.start('demo')).toBe(true);
    expect(crawls.byId('demo')?.status).toBe('running');
    await crawls.pause('demo');
    expect(crawls.byId('demo')?.status).toBe('paused');
    await crawls.resume('demo');
    expect(fake.calls.filter((c) => !c.startsWith('list'))).toEqual(['createCrawl', 'start demo', 'pause demo', 'resume demo']);
  });

  it('refuses to delete a running crawl, with the error kept at that crawl, but deletes a paused one', async () => {
    const crawls = useCrawlsStore();
    await useNewCrawlStore().create({ name: 'a', demoWeb: true });
    await useNewCrawlStore().create({ name: 'b', demoWeb: true });
    await crawls.start('a');
    expect(await crawls.remove('a')).toBe(false);
    expect(crawls.errorOf('delete:a')?.code).toBe('CRAWL_DB_LOCKED');
    expect(crawls.errorOf('delete:b')).toBeNull();
    expect(crawls.crawls.map((c) => c.id)).toEqual(['a', 'b']);
    await crawls.pause('a');
    expect(await crawls.remove('a')).toBe(true);
    expect(crawls.errorOf('delete:a')).toBeNull();
    expect(crawls.crawls.map((c) => c.id)).toEqual(['b']);
    expect(crawls.byId('a')).toBeNull();
  });

  it('applies crawl state events at once, from its own subscription', async () => {
    const crawls = useCrawlsStore();
    await useNewCrawlStore().create({ name: 'a', demoWeb: true });
    const off = crawls.subscribe();
    fake.emitState({ crawlId: 'a', status: 'finished' });
    expect(crawls.byId('a')?.status).toBe('finished');
    off();
    fake.emitState({ crawlId: 'a', status: 'running' });
    expect(crawls.byId('a')?.status).toBe('finished');
  });
});

describe('new-crawl store', () => {
  it('keeps a refused creation with its action, in words, until dismissed or tried again', async () => {
    const newCrawl = useNewCrawlStore();
    expect(await newCrawl.create({ name: 'x' })).toBeNull();
    expect(newCrawl.errorOf('create')).toEqual({ field: 'seedText', code: 'CRAWL_BAD_SEED', text: 'No seed' });
    expect(newCrawl.pending.create).toBeUndefined();
    // A field's error loses its field name (and any CLI flag) in front: the form shows it at the field.
    expect(await newCrawl.create({ name: 'x', demoWeb: true, w: 4e6 })).toBeNull();
    expect(newCrawl.errorOf('create')).toEqual({ field: 'w', code: 'CRAWL_BAD_OPTION', text: 'Must be a duration from 0 ms to 1 hour' });
    expect(useCrawlsStore().errorOf('pause:x')).toBeNull();
    newCrawl.dismiss('create');
    expect(newCrawl.errorOf('create')).toBeNull();
    expect(await newCrawl.create({ name: 'y', demoWeb: true })).not.toBeNull();
    expect(useCrawlsStore().byId('y')).not.toBeNull();
  });

  it('loads the policies once, and keeps only the reading of the latest seed text', async () => {
    const newCrawl = useNewCrawlStore();
    await newCrawl.loadPolicies();
    await newCrawl.loadPolicies();
    expect(newCrawl.policies.map((p) => p.name)).toEqual(['breadth-first']);

    const parse = fake.api.parseSeeds;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    fake.api.parseSeeds = async (text) => (text === 'slow' && (await gate), parse(text));
    const older = newCrawl.parseSeeds('slow');
    await newCrawl.parseSeeds('http://a.test/');
    release();
    await older;
    expect(newCrawl.seeds?.urls).toEqual(['http://a.test/']);
    await newCrawl.parseSeeds('  ');
    expect(newCrawl.seeds).toBeNull();
  });
});

describe('live store', () => {
  it('keeps only the selected crawl’s samples, in bounded series, however long the crawl', async () => {
    const live = useLiveStore();
    live.watch('a');
    await settle();
    for (let i = 1; i <= 20_000; i++) live.ingest(stats('a', i));
    live.ingest(stats('other', 1, { pagesPerSecond: 1e9 }));
    expect(live.latest?.pages).toBe(200_000);
    for (const s of Object.values(live.series)) if (s instanceof BoundedSeries) expect(s.length).toBeLessThanOrEqual(SERIES_MAX);
    const data = live.series.pagesPerSecond.data();
    expect(data.length).toBeGreaterThan(SERIES_MAX / 4);
    expect(Math.max(...data.map((p) => p[1]))).toBe(10);
    // Time runs forward across the whole history, first sample at 0.
    expect(data[0]![0]).toBeLessThan(data[data.length - 1]![0]);
  });

  it('starts from the stored timeline, then live events on the same clock, none drawn twice; empty for another crawl', async () => {
    const live = useLiveStore();
    // A stored sample: a stats event's figures at running time t, its errors as a count.
    const point = (t: number) => ({ ...stats('a', t), t, errors: 0 });
    fake.api.timeline = async () => ({ stored: true, points: [point(0.9), point(1.9), point(2.9)] });
    live.watch('a');
    // Events that come while the timeline loads: one already in it, one after it.
    live.ingest(stats('a', 2, { crawlSeconds: 2.9 }));
    live.ingest(stats('a', 3, { crawlSeconds: 3.9 }));
    expect(live.series.queued.length).toBe(0);
    await settle();
    expect(live.series.queued.data().map((p) => p[0])).toEqual([0.9, 1.9, 2.9, 3.9]);
    // A resumed run's events go on from the crawl's running time: x keeps increasing.
    live.ingest(stats('a', 0, { crawlSeconds: 4.9, at: 9_000_000 }));
    expect(live.series.queued.data().map((p) => p[0])).toEqual([0.9, 1.9, 2.9, 3.9, 4.9]);
    live.watch('b');
    expect(live.series.queued.length).toBe(0);
    expect(live.latest).toBeNull();
  });

  it('takes samples from its own subscription to stats events', async () => {
    const live = useLiveStore();
    live.watch('a');
    const off = live.subscribe();
    fake.emitStats(stats('a', 1));
    expect(live.latest?.pages).toBe(10);
    off();
    fake.emitStats(stats('a', 2));
    expect(live.latest?.pages).toBe(10);
  });

  it('fetches the top sites and recent errors of the crawl it shows', async () => {
    const live = useLiveStore();
    live.watch('a');
    await live.refreshTables();
    expect(live.topSites[0]?.host).toBe('a.test');
    expect(live.errors[0]?.code).toBe('CRAWL_HTTP_4XX');
    expect(live.parked[0]?.host).toBe('b.test');
  });

  it("asks for the parked sites after a run's end even when the periodic refresh overtakes the final one", async () => {
    // Before: the final refresh, made stale by the 3-second one that started while it waited,
    // gave up, and the periodic one asked for parked sites only when the error count moved:
    // Live kept the parked sites' skipped pages of the running crawl (CI: 3 shown, 5 stored).
    const live = useLiveStore();
    live.watch('a');
    live.ingest(stats('a', 1, { errorTotal: 4 }));
    await live.refreshTables();
    expect(live.parked[0]?.pagesSkipped).toBe(2);
    // The run ends: its parked site has skipped 5 pages, with no new error.
    fake.api.parkedSites = async () => [{ host: 'b.test', code: 'CRAWL_ROBOTS_UNAVAILABLE', pagesSkipped: 5, skipped: [] }];
    const listSites = fake.api.listSites;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    fake.api.listSites = async (id, q) => (await gate, listSites(id, q));
    const final = live.refreshTables(true);
    await settle();
    fake.api.listSites = listSites;
    await live.refreshTables();
    release();
    await final;
    expect(live.parked[0]?.pagesSkipped).toBe(5);
  });

  it('keeps a failed refresh of the tables as its own error, gone on the next good one', async () => {
    const live = useLiveStore();
    live.watch('a');
    const listSites = fake.api.listSites;
    fake.api.listSites = () => Promise.reject(Object.assign(new Error('crawl is being deleted'), { code: 'CRAWL_DB_LOCKED' }));
    await live.refreshTables();
    expect(live.errorOf('tables')?.text).toBe('Crawl is being deleted');
    fake.api.listSites = listSites;
    await live.refreshTables();
    expect(live.errorOf('tables')).toBeNull();
    expect(live.topSites).toHaveLength(1);
  });
});

describe('inspector store', () => {
  it('looks a page up and says when the crawl does not know it', async () => {
    fake.crawls.set('a', crawlInfo('a'));
    const inspector = useInspectorStore();
    await inspector.lookup('a', ' http://a.test/evil ');
    expect(inspector.page?.title).toBe('<img src=x onerror=alert(1)>');
    await inspector.lookup('a', 'http://a.test/missing');
    expect(inspector.page).toBeNull();
    expect(inspector.notFound).toBe(true);
  });

  it('shows the page of the latest lookup even when an earlier one answers later, and its error in words', async () => {
    fake.crawls.set('a', crawlInfo('a'));
    const inspector = useInspectorStore();
    const getPage = fake.api.getPage;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    fake.api.getPage = async (id, url) => (url.endsWith('/slow') && (await gate), getPage(id, url));
    const older = inspector.lookup('a', 'http://a.test/slow');
    expect(inspector.isPending('lookup')).toBe(true);
    await inspector.lookup('a', 'http://a.test/new');
    release();
    await older;
    expect(inspector.page?.url).toBe('http://a.test/new');
    expect(inspector.isPending('lookup')).toBe(false);

    fake.api.getPage = () => Promise.reject(Object.assign(new Error('no such crawl'), { code: 'CRAWL_NOT_FOUND' }));
    await inspector.lookup('b', 'http://a.test/new');
    expect(inspector.page).toBeNull();
    expect(inspector.errorOf('lookup')).toEqual({ field: null, code: 'CRAWL_NOT_FOUND', text: 'No such crawl' });
    // An empty URL clears the page without asking the engine.
    fake.api.getPage = getPage;
    await inspector.lookup('a', 'http://a.test/x');
    await inspector.lookup('a', '  ');
    expect(inspector.page).toBeNull();
    expect(inspector.notFound).toBe(false);
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
