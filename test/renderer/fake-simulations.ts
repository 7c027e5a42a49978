/**
 * The fake API's simulations (simulate, issue 18), in the engine's shape: requests checked by
 * the engine's own parser, sources named by id, a run that stays running until the test
 * finishes it (`finish`) or cancels it, progress events as the engine sends them, and a report
 * of the CLI's shape (curves that rise faster for each later policy).
 */
import type {
  CrawlbenchApi, CrawlInfo, SimulationDto, SimulationOutcomeDto, SimulationProgressEvent, SimulationReportDto, SimulationSourceDto,
} from '../../core/api/contract.js';
import { parseSimulationRequest, simulatorPolicies, type CheckedSimulationRequest } from '../../core/api/simulation-request.js';
import { metrics } from '../../core/ranking/evaluate.js';

type SimulationMethods = Pick<
  CrawlbenchApi,
  'listSimulationSources' | 'startSimulation' | 'cancelSimulation' | 'listSimulations' | 'getSimulation' | 'deleteSimulation' | 'onSimulationProgress'
>;

const reject = (code: string, message: string, field?: string) => Promise.reject(Object.assign(new Error(message), { name: 'CrawlError', code, ...(field ? { field } : {}) }));

/** A report of the engine's shape for a checked request over a graph of `pages` pages. */
export function fakeSimulationReport(req: CheckedSimulationRequest, pages = 1000): SimulationReportDto {
  const name = req.measure ?? 'pagerank';
  const policies = req.policies.map((policy, i): SimulationOutcomeDto => {
    const curve = Array.from({ length: 11 }, (_, k) => ({ fractionPages: k / 10, cumulativePageRank: 1 - (1 - k / 10) ** (2 + i), seconds: k * 60 }));
    // Cho's models by the engine's own metrics(), on values that come earlier for each later policy.
    const values = Float64Array.from({ length: 20 }, (_, k) => (k % (2 + i) === 0 ? 20 - k : 1));
    const m = metrics({ values, times: new Float64Array(20) }, { threshold: req.hotThreshold ?? 10, choPoints: 10 });
    return {
      policy, pagesFetched: pages, averageCumulativePageRank: 0.6 + i * 0.05, upperBoundAverage: 0.9, kendallTau: 0.1 * i, kendallTauSampled: m.kendallTauSampled,
      cho: { crawlAndStop: m.crawlAndStop, threshold: m.threshold, curve: m.choCurve },
      pagesAt: [0.5, 0.8, 0.95].map((share) => ({ share, pages: Math.round(pages * share * (1 - i * 0.1)), fraction: share * (1 - i * 0.1) })),
      pageRankCovered: 1, simulatedSeconds: 600 + i * 60, meanOpenConnections: 3.5, connections: 100, wallSeconds: 0.1, curve, openSeries: { t: [0, 1000], open: [0, 4] }, batches: null, middleBatch: null,
    };
  });
  const measure = { name, scale: `the fake's ${name}`, damping: null, text: null, query: req.query ?? null, location: null, hot: 'threshold' as const, g: req.hotThreshold ?? 10, hotPages: policies[0]?.cho?.threshold.hotPages ?? 0 };
  return {
    graph: `/fake/${req.source.id}`, pages, links: pages * 5, sites: 10, seeds: 10, reachable: pages, addresses: null,
    settings: { r: req.r, w: req.w, wSmall: null, smallSite: null, c: req.c, bandwidth: req.bandwidth ?? null, latency: req.latency, networkSeed: req.networkSeed, batch: req.batch ?? null, perIp: req.perIp },
    history: null, loadSeconds: 0.01, measure, policies,
  };
}

export function fakeSimulations(crawls: () => CrawlInfo[]) {
  const runs = new Map<string, SimulationDto>();
  const reports = new Map<string, SimulationReportDto>();
  const cbs = new Set<(e: SimulationProgressEvent) => void>();
  /** Dataset folders the fake lists (a test adds some). */
  const datasets: SimulationSourceDto[] = [];
  let n = 0;

  function progress(id: string, p: Omit<SimulationProgressEvent, 'simulationId'>): void {
    const run = runs.get(id)!;
    run.progress = { simulationId: id, ...p };
    run.state = p.state;
    cbs.forEach((cb) => cb({ ...run.progress! }));
  }

  /** Ends a running simulation with its report, as the engine does when its worker answers. */
  function finish(id: string): void {
    const run = runs.get(id);
    if (!run || run.state !== 'running') return;
    const report = fakeSimulationReport(run.request);
    reports.set(id, report);
    Object.assign(run, { finishedAt: new Date().toISOString(), pages: report.pages });
    progress(id, { state: 'finished', done: run.progress?.total ?? 1, total: run.progress?.total ?? 1, step: 'finished', fraction: 1 });
  }

  /** Ends a running simulation with an error, as the engine does when its worker fails. */
  function fail(id: string, error: { code: string; message: string; field?: string }): void {
    const run = runs.get(id);
    if (!run || run.state !== 'running') return;
    Object.assign(run, { finishedAt: new Date().toISOString(), error: { name: 'CrawlError', ...error } });
    progress(id, { ...run.progress!, state: 'failed', step: 'failed' });
  }

  const methods: SimulationMethods = {
    listSimulationSources: async () => ({
      crawls: crawls().filter((c) => c.status !== 'created' && c.status !== 'unreadable').map((c) => ({ kind: 'crawl' as const, id: c.id, pages: c.pagesKnown, sites: c.sites, bytes: c.sizeBytes })),
      datasets: [...datasets],
      datasetsDir: '/fake/workspace/datasets',
      policies: simulatorPolicies().map((name) => ({ name, summary: `the ${name} policy` })),
    }),
    startSimulation: async (raw) => {
      const request = parseSimulationRequest(raw);
      if (request.source.kind === 'crawl' && !crawls().some((c) => c.id === request.source.id)) return reject('CRAWL_DB_MISSING', `no crawl named "${request.source.id}"`, 'source');
      if (request.source.kind === 'dataset' && !datasets.some((d) => d.id === request.source.id)) return reject('CRAWL_BAD_OPTION', `no dataset folder "${request.source.id}"`, 'source');
      const simulationId = `sim-${++n}`;
      runs.set(simulationId, {
        simulationId, state: 'running', request, startedAt: new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(), finishedAt: null,
        progress: { simulationId, state: 'running', done: 0, total: 0, step: 'starting', fraction: 0 }, error: null, pages: null, report: null,
      });
      // The engine's first event comes from its worker, after this call has answered.
      setTimeout(() => runs.get(simulationId)?.state === 'running' && progress(simulationId, { state: 'running', done: 100, total: 1000 * request.policies.length, step: `${request.policies[0]} (policy 1 of ${request.policies.length}): 100 of 1000 pages`, fraction: 0.1 / request.policies.length }), 0);
      return { simulationId };
    },
    cancelSimulation: async (id) => {
      const run = runs.get(id);
      if (!run) return reject('CRAWL_BAD_OPTION', `no simulation "${id}" under way`, 'simulationId');
      if (run.state === 'running') {
        run.finishedAt = new Date().toISOString();
        progress(id, { ...run.progress!, state: 'cancelled', step: 'cancelled' });
      }
      return { ...run, report: null };
    },
    listSimulations: async () => [...runs.values()].map((r) => ({ ...r, report: null })).sort((a, b) => b.startedAt.localeCompare(a.startedAt)),
    getSimulation: async (id) => {
      const run = runs.get(id);
      if (!run) return reject('CRAWL_BAD_OPTION', `no simulation "${id}" in this workspace`, 'simulationId');
      return { ...run, report: reports.get(id) ?? null };
    },
    deleteSimulation: async (id) => {
      const run = runs.get(id);
      if (!run) return reject('CRAWL_BAD_OPTION', `no simulation "${id}" in this workspace`, 'simulationId');
      if (run.state === 'running') return reject('CRAWL_BAD_OPTION', 'this simulation is running; cancel it first', 'simulationId');
      runs.delete(id);
      reports.delete(id);
    },
    onSimulationProgress: (cb) => (cbs.add(cb), () => void cbs.delete(cb)),
  };
  return { methods, runs, datasets, finish, fail };
}
