/**
 * The workbench's addresses. Hash history: `crawlbench serve` serves the page from one path
 * behind a token cookie, and Electron loads it from a file, so the place lives after the #
 * (#/crawls/demo1/live), which no server sees and a reload keeps.
 *
 * The crawl a view shows is the route's `:id`, handed to the view as a prop; Live and the
 * Page inspector also have an address without one, where they say how to pick a crawl.
 */
import { createRouter, createWebHashHistory, type RouteRecordRaw, type RouterHistory } from 'vue-router';
import CompareView from './views/CompareView.vue';
import CrawlsView from './views/CrawlsView.vue';
import InspectorView from './views/InspectorView.vue';
import LiveView from './views/LiveView.vue';
import NewCrawlView from './views/NewCrawlView.vue';
import PartitionView from './views/PartitionView.vue';
import ResultsView from './views/ResultsView.vue';
import SimulateView from './views/SimulateView.vue';
import SitesView from './views/SitesView.vue';

/** The tab a route belongs to (the tab bar marks it as the current page). */
export type Tab = 'new' | 'live' | 'crawls' | 'sites' | 'inspector' | 'results' | 'partition' | 'simulate';

declare module 'vue-router' {
  interface RouteMeta {
    tab?: Tab;
  }
}

const one = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export const routes: RouteRecordRaw[] = [
  { path: '/', redirect: '/new' },
  // ?again= is the crawl whose settings fill the form ("Crawl again").
  { path: '/new', name: 'new', component: NewCrawlView, props: (r) => ({ again: one(r.query.again) }), meta: { tab: 'new' } },
  { path: '/crawls', name: 'crawls', component: CrawlsView, meta: { tab: 'crawls' } },
  { path: '/crawls/:id/live', name: 'live', component: LiveView, props: true, meta: { tab: 'live' } },
  // ?url= is the page looked up, so that a reload or Back shows it again.
  { path: '/crawls/:id/pages', name: 'pages', component: InspectorView, props: (r) => ({ id: one(r.params.id), url: one(r.query.url) }), meta: { tab: 'inspector' } },
  // Two crawls side by side, reached from Crawls (A usually the earlier one).
  { path: '/compare/:a/:b', name: 'compare', component: CompareView, props: true, meta: { tab: 'crawls' } },
  { path: '/live', name: 'live-none', component: LiveView, meta: { tab: 'live' } },
  { path: '/pages', name: 'pages-none', component: InspectorView, meta: { tab: 'inspector' } },
  // A crawl's graph partitioned among K processors (gpmetis, Zoltan PHG, KaHyPar where installed, hashing).
  { path: '/crawls/:id/partition', name: 'partition', component: PartitionView, props: true, meta: { tab: 'partition' } },
  { path: '/partition', name: 'partition-none', component: PartitionView, meta: { tab: 'partition' } },
  // Every site of a crawl, paged, sorted and filtered in the engine (the query keeps the place).
  { path: '/crawls/:id/sites', name: 'sites', component: SitesView, props: true, meta: { tab: 'sites' } },
  { path: '/sites', name: 'sites-none', component: SitesView, meta: { tab: 'sites' } },
  // PageRank and the evaluation of a crawl's fetch order, as charts and tables.
  { path: '/crawls/:id/results', name: 'results', component: ResultsView, props: true, meta: { tab: 'results' } },
  { path: '/results', name: 'results-none', component: ResultsView, meta: { tab: 'results' } },
  // The simulator: a run set up and started, or one kept in the workspace's simulations folder.
  { path: '/simulate', name: 'simulate', component: SimulateView, meta: { tab: 'simulate' } },
  { path: '/simulate/:run', name: 'simulation', component: SimulateView, props: true, meta: { tab: 'simulate' } },
  { path: '/:unknown(.*)*', redirect: '/new' },
];

export function createWorkbenchRouter(history: RouterHistory = createWebHashHistory()) {
  return createRouter({
    history,
    routes,
    // Back and Forward return to where the page was; another view starts at its top (Live after
    // Create used to open scrolled down to where the form's button was). A new query on the same
    // view (a filter, a page of a table) keeps the place.
    scrollBehavior: (to, from, saved) => saved ?? (to.path !== from.path ? { top: 0 } : false),
  });
}
