/**
 * The Simulate view's state: the graphs the engine can replay (crawls, dataset folders) with
 * the simulator's policies, the runs under way and kept (newest first), and the reports of
 * the runs opened. The simulator runs in the engine's worker thread; this store only follows
 * its simulationProgress events, so nothing here can freeze the window. A run's report is
 * fetched once it has finished and kept, so coming back to it shows it at once.
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { SimulationDto, SimulationProgressEvent, SimulationRequest, SimulationSourcesDto } from '../../core/api/contract.js';
import { useApi } from '../api/instance.js';
import { asyncActions } from '../lib/async-action.js';

export type SimulateActionKey = 'sources' | 'list' | 'start' | `open:${string}` | `cancel:${string}` | `delete:${string}`;

export const useSimulateStore = defineStore('simulate', () => {
  const { run, status } = asyncActions<SimulateActionKey>();
  const sources = ref<SimulationSourcesDto | null>(null);
  /** Runs of this session and kept ones, newest first, without reports. */
  const runs = ref<SimulationDto[]>([]);
  /** Opened runs with their reports, by id. */
  const opened = ref<Record<string, SimulationDto>>({});
  /** The last progress event of each run under way (or just ended). */
  const progress = ref<Record<string, SimulationProgressEvent>>({});
  let off: (() => void) | null = null;

  /** Follows the engine's progress events (once per store). */
  function follow(): void {
    if (off) return;
    off =
      useApi().onSimulationProgress((e) => {
        progress.value[e.simulationId] = e;
        const listed = runs.value.find((r) => r.simulationId === e.simulationId);
        if (listed) Object.assign(listed, { state: e.state, progress: e });
        const open = opened.value[e.simulationId];
        if (open) Object.assign(open, { state: e.state, progress: e });
        if (e.state !== 'running') {
          void loadRuns();
          if (open) void openRun(e.simulationId);
        }
      }) ?? null;
  }

  async function loadSources(): Promise<void> {
    follow();
    const out = await run('sources', () => useApi().listSimulationSources());
    if (out.ok && !out.stale) sources.value = out.value;
  }

  async function loadRuns(): Promise<void> {
    follow();
    const out = await run('list', () => useApi().listSimulations());
    if (out.ok && !out.stale) runs.value = out.value;
  }

  /** Starts a simulation; its id, or null when the engine refused the request (the error is start's). */
  async function start(req: SimulationRequest): Promise<string | null> {
    follow();
    const out = await run('start', () => useApi().startSimulation(req));
    if (!out.ok) return null;
    const id = out.value.simulationId;
    await openRun(id);
    void loadRuns();
    return id;
  }

  /** A run with its report (a kept one is read from its file in the engine). */
  async function openRun(id: string): Promise<void> {
    follow();
    const out = await run(`open:${id}`, () => useApi().getSimulation(id));
    if (out.ok && !out.stale) {
      opened.value[id] = out.value;
      if (out.value.progress) progress.value[id] = out.value.progress;
    }
  }

  async function cancel(id: string): Promise<void> {
    const out = await run(`cancel:${id}`, () => useApi().cancelSimulation(id));
    if (out.ok) {
      opened.value[id] = { ...out.value, report: null };
      void loadRuns();
    }
  }

  async function remove(id: string): Promise<boolean> {
    const out = await run(`delete:${id}`, () => useApi().deleteSimulation(id));
    if (!out.ok) return false;
    delete opened.value[id];
    runs.value = runs.value.filter((r) => r.simulationId !== id);
    return true;
  }

  return { ...status, sources, runs, opened, progress, loadSources, loadRuns, start, openRun, cancel, remove };
});
