/**
 * The simulator through the engine's API (issue 18): a run in a worker thread with progress
 * events, kept as a file that a new engine on the same workspace lists and reads back with the
 * same numbers as `crawlbench simulate --json` on the same graph; Cancel leaves no file; every
 * bad field refused with its name. Needs the built worker (dist/, as npm test builds it).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimulationDto, SimulationProgressEvent, SimulationReportDto, SimulationRequest } from '../../core/api/contract.js';
import { EngineApi } from '../../core/api/engine-api.js';
import { generateWeb } from '../../core/testweb/generator.js';
import { exportGraphDir } from '../../core/testweb/graph-files.js';
import { crawlbench } from '../helpers/run.js';
import { tmpDir } from '../helpers/tmp.js';

const dir = tmpDir();
const workspace = join(dir, 'workspace');
const datasets = join(dir, 'datasets');
const REQUEST: SimulationRequest = { source: { kind: 'dataset', id: 'small' }, policies: ['breadth-first', 'opic', 'omniscient'], r: 4, w: 1000, c: 2, bandwidth: 200_000 };

function ended(api: EngineApi, id: () => string | null, events: SimulationProgressEvent[]): Promise<SimulationProgressEvent> {
  return new Promise((resolve) => {
    const off = api.onSimulationProgress((e) => {
      if (e.simulationId !== id()) return;
      events.push(e);
      if (e.state !== 'running') {
        off();
        resolve(e);
      }
    });
  });
}

/** What the wall clock and the file's place change between two runs of the same simulation. */
function numbers(r: SimulationReportDto): unknown {
  return { ...r, graph: undefined, loadSeconds: undefined, policies: r.policies.map((p) => ({ ...p, wallSeconds: undefined })) };
}

describe('simulations through the engine API', () => {
  let api: EngineApi;
  beforeAll(async () => {
    await exportGraphDir(generateWeb({ seed: 7, sites: 30, pages: 1200, latency: false }), join(datasets, 'small'));
    api = new EngineApi(workspace, { datasetsDir: datasets });
  });
  afterAll(() => api?.close());

  it('lists the dataset folders and the simulator policies, the references included', async () => {
    const s = await api.listSimulationSources();
    expect(s.datasets).toEqual([{ kind: 'dataset', id: 'small', pages: null, sites: null, bytes: expect.any(Number) }]);
    expect(s.crawls).toEqual([]);
    expect(s.datasetsDir).toBe(datasets);
    expect(s.policies.map((p) => p.name)).toEqual(expect.arrayContaining(['breadth-first', 'omniscient', 'historical-pagerank-omniscient']));
    expect(s.policies.map((p) => p.summary).join(' ')).not.toMatch(/--\w/);
  });

  let runId = '';
  it('runs in a worker with progress events, keeps the result as a file equal to the CLI’s', async () => {
    const events: SimulationProgressEvent[] = [];
    let id: string | null = null;
    const end = ended(api, () => id, events);
    const t0 = performance.now();
    id = (await api.startSimulation(REQUEST)).simulationId;
    // Returned at once; the engine keeps answering while the worker runs.
    expect(performance.now() - t0).toBeLessThan(1000);
    expect((await api.listSimulations()).find((s) => s.simulationId === id)?.state).toBe('running');
    const last = await end;
    expect(last).toMatchObject({ state: 'finished', fraction: 1 });
    const running = events.filter((e) => e.state === 'running');
    expect(running.length).toBeGreaterThan(0);
    expect(running.some((e) => /opic \(policy 2 of 3\)/.test(e.step))).toBe(true);
    for (let i = 1; i < running.length; i++) expect(running[i]!.done).toBeGreaterThanOrEqual(running[i - 1]!.done);

    runId = id;
    expect(readdirSync(join(workspace, 'simulations'))).toEqual([`${id}.json`]);
    const got = await api.getSimulation(id);
    expect(got).toMatchObject({ simulationId: id, state: 'finished', error: null, request: { r: 4, w: 1000, c: 2, bandwidth: 200_000, latency: true, networkSeed: 1, siteKey: 'host' } });
    const report = got.report!;
    expect(report.policies.map((p) => p.policy)).toEqual(['breadth-first', 'opic', 'omniscient']);
    for (const p of report.policies) expect(p.curve.length).toBeLessThanOrEqual(500);

    const cli = await crawlbench(['simulate', '--graph', join(datasets, 'small'), '--policy', 'breadth-first,opic,omniscient', '--r', '4', '--w', '1s', '--c', '2', '--bandwidth', '200KB', '--json']);
    expect(cli.code, cli.stderr).toBe(0);
    expect(numbers(report)).toEqual(numbers(JSON.parse(cli.stdout) as SimulationReportDto));
  }, 120_000);

  it('a new engine on the workspace lists the kept run and reads the same report', async () => {
    const again = new EngineApi(workspace, { datasetsDir: datasets });
    try {
      const list = await again.listSimulations();
      expect(list.map((s) => [s.simulationId, s.state, s.report])).toEqual([[runId, 'finished', null]]);
      expect((await again.getSimulation(runId)).report).toEqual((await api.getSimulation(runId)).report);
    } finally {
      await again.close();
    }
  });

  it('Cancel ends the worker and leaves no file; the server answers meanwhile', async () => {
    const slow = new EngineApi(workspace, { datasetsDir: datasets, simulationThrottleMs: 300 });
    try {
      const events: SimulationProgressEvent[] = [];
      let id: string | null = null;
      const firstTick = new Promise<void>((resolve) => {
        const off = slow.onSimulationProgress((e) => {
          if (e.simulationId === id && e.state === 'running' && e.done > 0) {
            off();
            resolve();
          }
        });
      });
      const end = ended(slow, () => id, events);
      id = (await slow.startSimulation({ ...REQUEST, policies: ['all'] })).simulationId;
      await firstTick;
      const t0 = performance.now();
      await slow.listCrawls();
      expect(performance.now() - t0).toBeLessThan(250);
      const dto: SimulationDto = await slow.cancelSimulation(id);
      expect(dto.state).toBe('cancelled');
      expect((await end).state).toBe('cancelled');
      expect(readdirSync(join(workspace, 'simulations')).filter((f) => f.startsWith(id!))).toEqual([]);
      expect((await slow.listSimulations()).find((s) => s.simulationId === id)?.state).toBe('cancelled');
      await slow.deleteSimulation(id);
      expect((await slow.listSimulations()).map((s) => s.simulationId)).toEqual([runId]);
    } finally {
      await slow.close();
    }
  }, 60_000);

  it('refuses every bad field by name, and sources that are paths or absent', async () => {
    const refused = async (req: unknown) =>
      api.startSimulation(req as SimulationRequest).then(
        () => 'started',
        (e: { code: string; field?: string }) => `${e.code} ${e.field}`,
      );
    expect(await refused({ ...REQUEST, source: { kind: 'file', id: 'small' } })).toBe('CRAWL_BAD_OPTION source');
    expect(await refused({ ...REQUEST, source: { kind: 'dataset', id: '../datasets/small' } })).toBe('CRAWL_BAD_OPTION source');
    expect(await refused({ ...REQUEST, source: { kind: 'dataset', id: 'small', path: '/etc' } })).toBe('CRAWL_BAD_OPTION source');
    expect(await refused({ ...REQUEST, source: { kind: 'dataset', id: 'none' } })).toBe('CRAWL_BAD_OPTION source');
    expect(await refused({ ...REQUEST, source: { kind: 'crawl', id: 'none' } })).toBe('CRAWL_DB_MISSING source');
    expect(await refused({ ...REQUEST, graph: '/etc' })).toBe('CRAWL_BAD_OPTION graph');
    expect(await refused({ ...REQUEST, policies: [] })).toBe('CRAWL_BAD_OPTION policies');
    expect(await refused({ ...REQUEST, policies: ['fastest'] })).toBe('CRAWL_BAD_OPTION policies');
    expect(await refused({ ...REQUEST, policies: ['topic'] })).toBe('CRAWL_BAD_OPTION topic');
    expect(await refused({ ...REQUEST, r: 0 })).toBe('CRAWL_BAD_OPTION r');
    expect(await refused({ ...REQUEST, c: 1.5 })).toBe('CRAWL_BAD_OPTION c');
    expect(await refused({ ...REQUEST, w: -1 })).toBe('CRAWL_BAD_OPTION w');
    expect(await refused({ ...REQUEST, w: '15s' })).toBe('CRAWL_BAD_OPTION w');
    expect(await refused({ ...REQUEST, bandwidth: 0 })).toBe('CRAWL_BAD_OPTION bandwidth');
    expect(await refused({ ...REQUEST, latency: 'on' })).toBe('CRAWL_BAD_OPTION latency');
    expect(await refused({ ...REQUEST, networkSeed: -1 })).toBe('CRAWL_BAD_OPTION networkSeed');
    expect(await refused({ ...REQUEST, siteKey: 'ip' })).toBe('CRAWL_BAD_OPTION siteKey');
    expect(await refused({ ...REQUEST, historyShare: 1.5 })).toBe('CRAWL_BAD_OPTION historyShare');
    expect(await refused({ ...REQUEST, historyCrawl: 'x' })).toBe('CRAWL_BAD_OPTION historyCrawl');
    expect(await refused({ ...REQUEST, maxPages: 0 })).toBe('CRAWL_BAD_OPTION maxPages');
    expect(await refused({ ...REQUEST, seeds: ['not a url'] })).toBe('CRAWL_BAD_OPTION seeds');
    expect(await api.getSimulation('../etc/passwd').catch((e: { field?: string }) => e.field)).toBe('simulationId');
    expect(existsSync(join(workspace, 'simulations'))).toBe(true);
    expect(readdirSync(join(workspace, 'simulations'))).toEqual([`${runId}.json`]);
  });

  it('a seed that is not a page of the graph fails the run at the seeds field', async () => {
    const events: SimulationProgressEvent[] = [];
    let id: string | null = null;
    const end = ended(api, () => id, events);
    id = (await api.startSimulation({ ...REQUEST, seeds: ['http://nowhere.example/'] })).simulationId;
    expect((await end).state).toBe('failed');
    const dto = await api.getSimulation(id);
    expect(dto.error).toMatchObject({ code: 'CRAWL_BAD_OPTION', field: 'seeds', message: expect.stringMatching(/^seeds: http:\/\/nowhere\.example\/ is not a page of the graph/) });
    expect(readdirSync(join(workspace, 'simulations'))).toEqual([`${runId}.json`]);
  });
});
