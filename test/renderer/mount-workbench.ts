/**
 * The workbench opened at an address for the renderer tests: the real App with fresh stores and
 * a fresh router (as a page load), over whatever API the test file's beforeEach provided. The
 * wrapper is remembered so that `unmountWorkbench` (the files' afterEach) takes it down, and a
 * second `openAt` in one test takes the first one down before mounting.
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia } from 'pinia';
import { createMemoryHistory, type Router } from 'vue-router';
import App from '../../renderer/App.vue';
import { createWorkbenchRouter } from '../../renderer/router.js';

export interface OpenOptions {
  /** Components stubbed, over the default; `{ EChart: false }` draws EChart for real. */
  stubs?: Record<string, boolean>;
}

// Charts draw on a canvas, which happy-dom has not: the charts are the e2e tests'.
const chartStubs = { LineChart: true, EChart: true };

let wrapper: VueWrapper | null = null;

/** The workbench opened at `path`, as a fresh page load (new stores, new router). */
export async function openAt(path: string, opts: OpenOptions = {}): Promise<{ router: Router; w: VueWrapper }> {
  unmountWorkbench();
  const router = createWorkbenchRouter(createMemoryHistory());
  await router.push(path);
  const stubs = { ...chartStubs, ...opts.stubs };
  wrapper = mount(App, { global: { plugins: [createPinia(), router], stubs }, attachTo: document.body });
  await router.isReady();
  await flushPromises();
  return { router, w: wrapper };
}

/** Takes down the workbench last opened, if any (for afterEach). */
export function unmountWorkbench(): void {
  wrapper?.unmount();
  wrapper = null;
}
