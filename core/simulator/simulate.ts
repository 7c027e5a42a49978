import { checkWith } from '../config/request-words.js';
import { badField, badOption } from '../errors.js';
import { pageRankByUrl } from '../ranking/crawl-graph.js';
import { metrics } from '../ranking/evaluate.js';
import type { MeasureOptions } from '../ranking/measure.js';
import { listPolicies } from '../policies/registry.js';
import type { SiteKeyMode } from '../url/site-key.js';
import { defaultSeeds, loadSimGraph, type SimGraph } from './sim-graph.js';
import { Simulation, siteAddress, type SimulationResult } from './simulation.js';
import type { PolicyOutcome, SimulateReport } from './report.js';
import { simulationOptionsSchema } from './request-schema.js';
import { loadAnchors } from './sim-anchors.js';
import { choOutcome, simMeasure, type SimMeasure } from './sim-measure.js';
import { smallSiteWait } from './small-sites.js';
import { byUrl, deriveHistory, inducedPageRank, reachable } from './truth.js';

export interface SimulateOptions {
  graph: string;
  /** Policy names; 'all' = every policy of docs/design.md section 3 (topic only with a topic). */
  policies: string[];
  r: number;
  /** ms */
  w: number;
  /** ms: w for sites under smallSite pages (Castillo §4.5's second crawl: 15 s under 100 pages). */
  wSmall?: number | null;
  /** Pages: a site with fewer is small (its size from the history crawl, else its known pages). */
  smallSite?: number | null;
  c: number;
  /** bytes/s; Infinity = unlimited */
  bandwidth: number;
  batch?: number | null;
  /** An earlier crawl database, else a previous crawl derived from the graph. */
  history?: string;
  /** Share of pages the derived previous crawl keeps (default 0.55, as in the thesis). */
  historyShare?: number;
  topic?: string;
  /** The topic policy's order of both queues and its radius (policies/topic.ts). */
  topicOrder?: string;
  topicRadius?: number;
  /** Seed URLs (must be pages of the graph); default: every site's home page. */
  seeds?: string[];
  siteKey?: SiteKeyMode;
  latency?: boolean;
  networkSeed?: number;
  maxPages?: number | null;
  maxPagesPerSite?: number | null;
  /**
   * Politeness per IP address as well as per site: sites the graph gives one address are
   * contacted one at a time. Only a crawl database records addresses (made with --per-ip);
   * in a dataset folder every host is its own address, and this is politeness per site.
   */
  perIp?: boolean;
  /** Points kept per curve. */
  points?: number;
  /** The measure Cho et al.'s models score the orders by (default PageRank; docs/design.md section 4.11). */
  measure?: MeasureOptions & { threshold?: number; tauSample?: number };
  onProgress?: (msg: string) => void;
  /**
   * Structured progress for a UI: at each policy's start (fetched 0) and every
   * `progressEvery` pages within it; `pages` is what the policy can fetch at most (the
   * reachable pages, or maxPages).
   */
  onPolicyProgress?: (e: { policy: string; index: number; count: number; fetched: number; pages: number }) => void;
  /** Pages between two onPolicyProgress calls within a policy (default 1,000). */
  progressEvery?: number;
  /** For a caller that simulates one graph many times (`reproduce`): what it may reuse. */
  reuse?: SimulationReuse;
}

/**
 * The graph prepared once, and each policy's run kept under its settings: asked again, it is
 * reused (a run does not depend on the measure it is scored by). Cleared when the graph changes.
 */
export interface SimulationReuse {
  key: string | null;
  prepared: Prepared | null;
  runs: Map<string, SimulationResult>;
}

/** The prepared graph, from the reuse when it is the same graph and seeds. */
export function preparedFor(opts: Pick<SimulateOptions, 'graph' | 'seeds' | 'siteKey' | 'reuse'>): Prepared {
  const r = opts.reuse;
  if (!r) return prepare(opts);
  const key = JSON.stringify([opts.graph, opts.siteKey ?? 'host', opts.seeds ?? null]);
  if (r.key !== key || !r.prepared) {
    r.key = null;
    r.prepared = null;
    r.runs.clear();
    r.prepared = prepare(opts);
    r.key = key;
  }
  return r.prepared;
}

function runKey(name: string, o: Omit<SimulateOptions, 'graph' | 'policies'>): string {
  const { measure: _m, onProgress: _p, onPolicyProgress: _pp, progressEvery: _e, reuse: _r, points: _pts, ...settings } = o;
  return JSON.stringify([name, Object.entries(settings).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b))]);
}

export type { PolicyOutcome, SimulateReport } from './report.js';

/** The simulator's graph and everything derived from it that all runs share. */
export interface Prepared {
  g: SimGraph;
  seeds: number[];
  truth: Float64Array;
  oracle: Map<string, number>;
  reachableCount: number;
  loadSeconds: number;
}

export function prepare(opts: Pick<SimulateOptions, 'graph' | 'seeds' | 'siteKey'>): Prepared {
  const t0 = performance.now();
  const g = loadSimGraph(opts.graph, opts.siteKey ?? 'host');
  const seeds = opts.seeds && opts.seeds.length > 0 ? seedNodes(g, opts.seeds) : defaultSeeds(g);
  const keep = reachable(g.graph, seeds);
  const truth = inducedPageRank(g.graph, keep);
  let reachableCount = 0;
  for (let v = 0; v < g.n; v++) reachableCount += keep[v]!;
  return { g, seeds, truth, oracle: byUrl(g, truth, keep), reachableCount, loadSeconds: (performance.now() - t0) / 1000 };
}

function seedNodes(g: SimGraph, urls: string[]): number[] {
  const index = new Map<string, number>();
  g.urls.forEach((u, v) => index.set(u, v));
  return urls.map((u) => {
    const v = index.get(u) ?? index.get(u.replace(/\/$/, '')) ?? index.get(u + '/');
    if (v === undefined) throw badOption('--seeds', `${u} is not a page of the graph`);
    return v;
  });
}

/** Expands 'all' and checks names against the one registry, with the simulation schema (request-schema.ts). */
export function policyNames(requested: string[], topic: string | undefined): string[] {
  const known = listPolicies({ simulator: true }).map((p) => p.name);
  const checked = checkWith(simulationOptionsSchema(known), { policies: requested, ...(topic !== undefined ? { topic } : {}) }, 'a simulation');
  if (checked.ok) return checked.value.policies;
  const first = checked.refusals[0]!;
  throw badField(first.field, first.problem);
}

export function simulate(opts: SimulateOptions): SimulateReport {
  const log = opts.onProgress ?? (() => {});
  const names = policyNames(opts.policies, opts.topic);
  const p = preparedFor(opts);
  log(`graph ${opts.graph}: ${p.g.n} pages, ${p.g.graph.targets.length} links, ${p.g.sites.length} sites; ${p.reachableCount} reachable from ${p.seeds.length} seeds (${p.loadSeconds.toFixed(1)} s)`);
  const { history, historySource } = historyFor(names, opts, p);
  const measured = simMeasure(p, opts.measure ?? {});
  const policies: PolicyOutcome[] = [];
  const most = Math.min(p.reachableCount, opts.maxPages ?? Infinity);
  for (const [index, name] of names.entries()) {
    log(`simulating ${name} ...`);
    const tick = opts.onPolicyProgress;
    const at = (fetched: number) => tick?.({ policy: name, index, count: names.length, fetched, pages: most });
    at(0);
    const key = opts.reuse ? runKey(name, opts) : '';
    const result = opts.reuse?.runs.get(key) ?? runOne(p, name, opts, history, historySource, tick ? at : undefined);
    opts.reuse?.runs.set(key, result);
    const outcome = evaluateRun(result, p.truth, opts.points ?? 400, measured);
    log(
      `  ${name}: ${outcome.pagesFetched} pages, avg cumulative PageRank ${outcome.averageCumulativePageRank.toFixed(3)}, ` +
        `tau ${outcome.kendallTau.toFixed(3)}, ${formatDuration(outcome.simulatedSeconds)} simulated, ${outcome.wallSeconds.toFixed(1)} s`,
    );
    policies.push(outcome);
  }
  return {
    graph: opts.graph,
    pages: p.g.n,
    links: p.g.graph.targets.length,
    sites: p.g.sites.length,
    seeds: p.seeds.length,
    reachable: p.reachableCount,
    addresses: opts.perIp ? addressCount(p.g) : null,
    settings: {
      r: opts.r,
      w: opts.w,
      wSmall: opts.wSmall ?? null,
      smallSite: opts.smallSite ?? null,
      c: opts.c,
      bandwidth: opts.bandwidth,
      latency: opts.latency ?? true,
      networkSeed: opts.networkSeed ?? 1,
      batch: opts.batch ?? null,
      perIp: opts.perIp ?? false,
    },
    history: historySource === null ? null : { source: historySource, pages: history!.size },
    loadSeconds: p.loadSeconds,
    measure: { ...measured.info, g: measured.g, hotPages: measured.hotTotal },
    policies,
  };
}

/** Distinct addresses of the graph's sites, a site with none recorded counting as its own. */
export function addressCount(g: SimGraph): number {
  return new Set(g.sites.map((_, s) => siteAddress(g, s))).size;
}

/** The previous crawl the historical policies need: --history's database, else derived from the graph. */
export function historyFor(
  names: string[],
  opts: Pick<SimulateOptions, 'history' | 'historyShare' | 'networkSeed'>,
  p: Prepared,
): { history?: ReadonlyMap<string, number>; historySource: string | null } {
  if (!names.some((n) => n.startsWith('historical-'))) return { historySource: null };
  if (opts.history !== undefined) {
    const history = pageRankByUrl(opts.history);
    let matched = 0;
    for (const url of history.keys()) if (p.oracle.has(url)) matched++;
    if (matched === 0) throw badOption('--history', `${opts.history} holds no page of the graph ${p.g.source} (URLs are matched exactly)`);
    return { history, historySource: opts.history };
  }
  const share = opts.historyShare ?? 0.55;
  return {
    history: deriveHistory(p.g, share, opts.networkSeed ?? 1),
    historySource: `derived: ${Math.round(share * 100)}% of the graph's pages, with their PageRank`,
  };
}

/** One policy over the prepared graph. */
export function runOne(
  p: Prepared,
  name: string,
  opts: Omit<SimulateOptions, 'graph' | 'policies'>,
  history?: ReadonlyMap<string, number>,
  historySource?: string | null,
  onFetched?: (fetched: number) => void,
): SimulationResult {
  const params: Record<string, unknown> = {};
  if (name.startsWith('historical-')) params.history = historySource ?? 'history';
  if (name === 'topic') Object.assign(params, { topic: opts.topic }, opts.topicOrder !== undefined ? { topicOrder: opts.topicOrder } : {}, opts.topicRadius !== undefined ? { topicRadius: opts.topicRadius } : {});
  // The topic policy reads the anchor text of the link that discovered a page, as in a crawl.
  if (name === 'topic' && p.g.anchors === undefined) p.g.anchors = loadAnchors(p.g);
  return new Simulation(p.g, {
    policy: name,
    params,
    r: opts.r,
    w: opts.w,
    smallSites: smallSiteWait(opts, history),
    c: opts.c,
    bandwidth: opts.bandwidth,
    batch: opts.batch ?? null,
    network: { latency: opts.latency ?? true, seed: opts.networkSeed ?? 1 },
    seeds: p.seeds,
    maxPages: opts.maxPages ?? null,
    maxPagesPerSite: opts.maxPagesPerSite ?? null,
    perIp: opts.perIp ?? false,
    history,
    oracle: p.oracle,
    onFetched,
    progressEvery: opts.progressEvery,
  }).run();
}

export function evaluateRun(r: SimulationResult, truth: Float64Array, points: number, measured?: SimMeasure): PolicyOutcome {
  const values = new Float64Array(r.pagesFetched);
  let covered = 0;
  for (let i = 0; i < r.pagesFetched; i++) covered += values[i] = truth[r.order[i]!]!;
  const m = metrics({ values, times: r.times }, { points, tauSample: measured?.tauSample });
  return {
    policy: r.policy,
    pagesFetched: r.pagesFetched,
    averageCumulativePageRank: m.averageCumulativePageRank,
    upperBoundAverage: m.upperBoundAverage,
    kendallTau: m.kendallTau,
    kendallTauSampled: m.kendallTauSampled,
    cho: measured ? choOutcome(r.order, measured, 100) : null,
    pagesAt: [0.5, 0.8, 0.95].map((share) => {
      // Shares of the whole graph's (reachable) PageRank, not only of what was fetched.
      let i = 0;
      let acc = 0;
      while (i < values.length && acc < share - 1e-12) acc += values[i++]!;
      const reached = acc >= share - 1e-12;
      return { share, pages: reached ? i : null, fraction: reached && r.pagesFetched > 0 ? i / r.pagesFetched : null };
    }),
    pageRankCovered: covered,
    simulatedSeconds: r.durationMs / 1000,
    meanOpenConnections: r.meanOpen,
    connections: r.connections,
    wallSeconds: r.wallMs / 1000,
    curve: m.curve.map((c) => ({ fractionPages: c.fractionPages, cumulativePageRank: c.cumulativePageRank, seconds: c.seconds })),
    openSeries: r.openSeries,
    batches: r.batches,
    middleBatch: r.middleBatch,
  };
}

export function formatDuration(seconds: number): string {
  if (seconds < 120) return `${seconds.toFixed(1)} s`;
  if (seconds < 7200) return `${(seconds / 60).toFixed(1)} min`;
  if (seconds < 172800) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86400).toFixed(1)} d`;
}
