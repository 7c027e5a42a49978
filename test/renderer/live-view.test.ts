// @vitest-environment happy-dom
/**
 * Live and Crawls as a new user found them (issue 23), in the real App over the in-memory API:
 * one word for starting a crawl never started, in both views; the scope of a crawl seeded by
 * URLs shown as what it is, its seeds' hosts; pages found in history counted as the crawl goes;
 * the Errors counter said in words and linked to the errors it counts; the cumulative PageRank
 * chart drawn only with what it has, from 0.
 */
import { flushPromises } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { provideApi } from '../../renderer/api/instance.js';
import type { TimelinePoint } from '../../core/api/contract.js';
import LineChart, { type ChartLine } from '../../renderer/components/LineChart.vue';
import { crawlInfo, fakeApi, stats } from './fake-api.js';
import { openAt, unmountWorkbench } from './mount-workbench.js';

let fake: ReturnType<typeof fakeApi>;

beforeEach(() => {
  fake = fakeApi();
  provideApi(fake.api);
});
afterEach(unmountWorkbench);

describe('Live and Crawls', () => {
  it('call starting a never-started crawl "Start" in both views, and going on with a paused one "Resume"', async () => {
    fake.crawls.set('fresh', crawlInfo('fresh', { status: 'created' }));
    fake.crawls.set('held', crawlInfo('held', { status: 'paused', pagesFetched: 10, endReason: { kind: 'paused', at: null } }));
    const { w } = await openAt('/crawls');
    expect(w.find('tr[data-crawl="fresh"] [data-action="resume"]').text()).toBe('Start');
    expect(w.find('tr[data-crawl="held"] [data-action="resume"]').text()).toBe('Resume');
    const fresh = await openAt('/crawls/fresh/live');
    expect(fresh.w.find('[data-testid="resume"]').text()).toBe('Start');
    const held = await openAt('/crawls/held/live');
    expect(held.w.find('[data-testid="resume"]').text()).toBe('Resume');
  });

  it('shows a crawl whose process is still opening it as starting, with Pause and Stop, not as ended or resumable', async () => {
    fake.crawls.set('opening', crawlInfo('opening', { status: 'starting', pagesFetched: 3_000_000, endReason: null }));
    const { w } = await openAt('/crawls/opening/live');
    expect(w.find('[data-testid="status"]').text()).toBe('starting');
    expect(w.find('[data-testid="opening"]').text()).toMatch(/^Opening the crawl: loading its frontier/);
    expect(w.find('[data-testid="end-reason"]').exists()).toBe(false);
    expect(w.find('[data-testid="pause"]').exists()).toBe(true);
    expect(w.find('[data-testid="stop"]').exists()).toBe(true);
    expect(w.find('[data-testid="resume"]').exists()).toBe(false);
    // In Crawls: neither Resume nor Delete while its process holds the crawl.
    const crawls = await openAt('/crawls');
    expect(crawls.w.find('tr[data-crawl="opening"] [data-action="resume"]').exists()).toBe(false);
    expect(crawls.w.find('tr[data-crawl="opening"] [data-action="delete"]').exists()).toBe(false);
    // Open: it runs.
    fake.emitState({ crawlId: 'opening', status: 'running' });
    const live = await openAt('/crawls/opening/live');
    expect(live.w.find('[data-testid="status"]').text()).toBe('running');
    expect(live.w.find('[data-testid="opening"]').exists()).toBe(false);
  });

  it("shows the scope of a crawl seeded by URLs as its seeds' hosts, not as none", async () => {
    await fake.api.createCrawl({ name: 'seeded', seedText: 'https://www.uchile.cl/\nhttps://www.emol.cl/noticias\nhttps://www.uchile.cl/b' });
    const { w } = await openAt('/crawls/seeded/live');
    const scope = w.find('[data-fact="scope"] dd').text();
    expect(scope).toBe("the seeds' hosts: www.uchile.cl, www.emol.cl");
    // A crawl with suffixes names them (and the seeds' hosts the engine put beside them).
    await fake.api.createCrawl({ name: 'suffixed', seedText: 'https://www.uchile.cl/\n.cl' });
    const suffixed = await openAt('/crawls/suffixed/live');
    expect(suffixed.w.find('[data-fact="scope"] dd').text()).toBe('.cl, www.uchile.cl');
  });

  it('shows the refusal in words while a crawl of an earlier version is brought up to date, and reads it once that is done', async () => {
    const upgrading = { code: 'CRAWL_DB_UPGRADING', message: 'old.db: made by an earlier crawlbench (schema 11); it is being brought up to this version\'s (schema 13) and opens once that is done' };
    fake.crawls.set('old', crawlInfo('old', { status: 'upgrading', problem: upgrading.message }));
    const refuse = () => Promise.reject(Object.assign(new Error(upgrading.message), { name: 'CrawlError', code: upgrading.code }));
    const { crawlSettings, timeline } = fake.api;
    fake.api.crawlSettings = (id) => (fake.crawls.get(id)?.status === 'upgrading' ? refuse() : crawlSettings(id));
    fake.api.timeline = (id, n) => (fake.crawls.get(id)?.status === 'upgrading' ? refuse() : timeline(id, n));
    const { w } = await openAt('/crawls/old/live');
    expect(w.text()).toMatch(/Its settings could not be read: .*being brought up to this version's/);
    expect(w.find('[data-fact="scope"]').exists()).toBe(false);
    // Done: the engine lists it again; the view, left open, asks again.
    fake.crawls.set('old', crawlInfo('old', { status: 'finished', endReason: { kind: 'finished', at: null } }));
    fake.emitState({ crawlId: 'old', status: 'finished' });
    await flushPromises();
    await flushPromises();
    expect(w.text()).not.toMatch(/Its settings could not be read/);
    expect(w.find('[data-fact="scope"]').exists()).toBe(true);
  });

  it('keeps the last count of a run that has just ended until the stored one comes, never the count before the run', async () => {
    // Resumed at 855 pages: the list says 855 until it is asked again.
    fake.crawls.set('resumed', crawlInfo('resumed', { status: 'running', pagesFetched: 855 }));
    const { w } = await openAt('/crawls/resumed/live');
    fake.emitStats(stats('resumed', 40, { pages: 1_200 }));
    await flushPromises();
    expect(w.find('[data-testid="pages"]').text()).toBe('1,200');
    // It finishes: the state comes at once, the list asked after it is slow to answer.
    let answer: () => void = () => {};
    const slow = new Promise<void>((resolve) => (answer = resolve));
    const list = fake.api.listCrawls;
    fake.api.listCrawls = async () => (await slow, list());
    fake.crawls.set('resumed', crawlInfo('resumed', { status: 'finished', pagesFetched: 1_234, endReason: { kind: 'finished', at: null } }));
    fake.emitState({ crawlId: 'resumed', status: 'finished' });
    await flushPromises();
    expect(w.find('[data-testid="status"]').text()).toBe('finished');
    expect(w.find('[data-testid="pages"]').text()).toBe('1,200');
    answer();
    await flushPromises();
    expect(w.find('[data-testid="pages"]').text()).toBe('1,234');
  });

  it('counts the pages found in history as the crawl goes, from its live samples', async () => {
    // The list's count is the one stored at the crawl's last commit (60: its seeds).
    fake.crawls.set('again', crawlInfo('again', { status: 'running', policy: 'historical-pagerank-parent', pagesFetched: 900, historyMatched: 60 }));
    const { w } = await openAt('/crawls/again/live');
    expect(w.find('[data-testid="history-matched"]').text()).toBe('60');
    fake.emitStats(stats('again', 95, { pages: 946, historyMatched: 946 }));
    await flushPromises();
    expect(w.find('[data-testid="history-matched"]').text()).toBe('946');
    fake.emitStats(stats('again', 250, { pages: 2679, historyMatched: 1576 }));
    await flushPromises();
    expect(w.find('[data-testid="history-matched"]').text()).toBe('1,576');
  });

  it('explains the Errors counter by kind, says where each kind is listed, and links to the sites with errors', async () => {
    // The demo web's two sites whose robots.txt answers 500, asked twice each: 4 errors, no page failed.
    fake.crawls.set('demo', crawlInfo('demo', { status: 'finished', pagesFetched: 2873, errorTotal: 4, errors: { CRAWL_ROBOTS_UNAVAILABLE: 4 }, endReason: { kind: 'finished', at: null } }));
    fake.api.recentErrors = async () => [];
    const { w } = await openAt('/crawls/demo/live');
    const counter = w.find('[data-testid="errors"] a');
    expect(counter.text()).toBe('4');
    expect(counter.attributes('href')).toBe('/crawls/demo/sites?errors=1');
    const said = w.find('[data-testid="errors-explained"]').text();
    expect(said).toMatch(/4 robots\.txt requests that failed/);
    expect(said).toMatch(/Parked sites/);
    expect(said).toMatch(/not in Recent errors/);
    expect(said).not.toMatch(/CRAWL_/);
    expect(w.find('[data-testid="recent-errors-none"]').text()).toMatch(/no page has failed/);

    // Page failures, while the crawl runs: from its live sample, each kind with where it is listed.
    fake.crawls.set('run', crawlInfo('run', { status: 'running', pagesFetched: 100 }));
    const run = await openAt('/crawls/run/live');
    fake.emitStats(stats('run', 10, { errors: { CRAWL_HTTP_5XX: 3, CRAWL_HTTP_4XX: 2, CRAWL_ROBOTS_UNAVAILABLE: 1 }, errorTotal: 6 }));
    await flushPromises();
    expect(run.w.find('[data-testid="errors"] a').text()).toBe('6');
    const running = run.w.find('[data-testid="errors-explained"]').text();
    expect(running).toMatch(/3 failed requests \(server error \(5xx\) 3\)/);
    expect(running).toMatch(/Failed requests in Sites/);
    expect(running).toMatch(/2 pages answered with an error \(client error \(4xx\) 2\)/);
    expect(running).toMatch(/1 robots\.txt request that failed/);

    // Broken sitemaps (--sitemaps) are said apart, not as failed requests.
    fake.emitStats(stats('run', 11, { errors: { CRAWL_SITEMAP_MALFORMED: 1, CRAWL_SITEMAP_TOO_LARGE: 2, CRAWL_HTTP_5XX: 3 }, errorTotal: 6 }));
    await flushPromises();
    const sitemaps = run.w.find('[data-kind="sitemaps"]').text();
    expect(sitemaps).toMatch(/^3 sitemaps broken or unreachable \(sitemap over the limits 2 · sitemap not well-formed 1\)/);
    expect(run.w.find('[data-kind="requests"]').text()).toMatch(/^3 failed requests \(server error \(5xx\) 3\)/);
    expect(run.w.find('[data-testid="errors-explained"]').text()).not.toMatch(/CRAWL_/);
  });

  it('draws the cumulative PageRank chart only with an estimate to draw, from 0 pages; says so where the policy keeps none', async () => {
    const point = (t: number, pages: number, estimate: number | null): TimelinePoint => ({ t, at: t * 1000, pages, bytes: pages * 1000, pagesPerSecond: 500, bytesPerSecond: 5e5, openConnections: 4, r: 64, sitesWithPending: 10, queued: 3000 - pages, errors: 0, pagerankEstimate: estimate });
    fake.crawls.set('bfs', crawlInfo('bfs', { status: 'finished', pagesFetched: 2873, endReason: { kind: 'finished', at: null } }));
    fake.crawls.set('hist', crawlInfo('hist', { status: 'finished', policy: 'historical-pagerank-parent', pagesFetched: 3170, historyMatched: 1576, endReason: { kind: 'finished', at: null } }));
    fake.api.timeline = async (id) => ({ stored: true, points: [1, 2, 3, 4, 5].map((t) => point(t, 540 * t, id === 'hist' ? 0.15 * t : null)) });
    const charts = (w: Awaited<ReturnType<typeof openAt>>['w']) => w.findAllComponents(LineChart).filter((c) => c.props('name') === 'pagerank');

    // A policy that keeps no estimate (breadth-first): no empty frame with a legend for lines it does not draw.
    const bfs = await openAt('/crawls/bfs/live');
    expect(charts(bfs.w)).toHaveLength(0);
    expect(bfs.w.find('[data-testid="pagerank-none"]').text()).toMatch(/breadth-first keeps no PageRank estimate/);
    expect(bfs.w.find('[data-testid="pagerank-none"] a').attributes('href')).toBe('/crawls/bfs/results');

    // A historical crawl: its estimate from its first sample (540 pages), on an axis from 0.
    const hist = await openAt('/crawls/hist/live');
    const [chart] = charts(hist.w);
    expect(chart).toBeDefined();
    expect(chart!.props('fromZero')).toBe(true);
    const lines = (chart!.props('lines') as () => ChartLine[])();
    expect(lines.map((l) => l.name)).toEqual(['PageRank fetched (%)', 'random order: pages fetched ÷ known (%)']);
    expect(lines.every((l) => l.data.length === 5 && l.data[0]![0] === 540)).toBe(true);
    expect(hist.w.find('[data-testid="pagerank-none"]').exists()).toBe(false);
  });
});
