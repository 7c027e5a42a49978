/** Crawls in the workspace, the policies, and the actions that change a crawl's state. */
import { defineStore } from 'pinia';
import type { CrawlInfo, CreateCrawlRequest, CrawlStateEvent, ParsedSeeds, PolicyDescription } from '../../core/api/contract.js';
import { useApi } from '../api/instance.js';
import { userError, type UserError } from '../lib/user-error.js';

/**
 * Every action has a key ('create', 'pause:demo1', ...) with its own pending flag and error,
 * so that an error is shown where its action was taken, and goes away when dismissed or when
 * the action is tried again, instead of one banner following the user from view to view.
 */
export const useCrawlsStore = defineStore('crawls', {
  state: () => ({
    crawls: [] as CrawlInfo[],
    policies: [] as PolicyDescription[],
    /** The crawl the Live and Inspector views show. */
    selectedId: null as string | null,
    pending: {} as Record<string, boolean>,
    errors: {} as Record<string, UserError>,
  }),
  getters: {
    selected(state): CrawlInfo | null {
      return state.crawls.find((c) => c.id === state.selectedId) ?? null;
    },
  },
  actions: {
    async refresh() {
      this.crawls = await useApi().listCrawls();
    },
    async loadPolicies() {
      if (this.policies.length === 0) this.policies = await useApi().listPolicies();
    },
    parseSeeds(text: string): Promise<ParsedSeeds> {
      return useApi().parseSeeds(text);
    },
    /** Applies a state event at once, so buttons follow without waiting for a refresh. */
    applyState(e: CrawlStateEvent) {
      const c = this.crawls.find((x) => x.id === e.crawlId);
      if (c) c.status = e.status;
      void this.refresh();
    },
    errorOf(key: string): UserError | null {
      return this.errors[key] ?? null;
    },
    dismiss(key: string) {
      delete this.errors[key];
    },
    async run<T>(key: string, fn: () => Promise<T>): Promise<T | null> {
      this.pending[key] = true;
      delete this.errors[key];
      try {
        return await fn();
      } catch (err) {
        this.errors[key] = userError(err);
        return null;
      } finally {
        delete this.pending[key];
      }
    },
    async create(req: CreateCrawlRequest): Promise<CrawlInfo | null> {
      const info = await this.run('create', () => useApi().createCrawl(req));
      if (info) {
        this.selectedId = info.id;
        await this.refresh();
      }
      return info;
    },
    async start(id: string) {
      this.selectedId = id;
      await this.run(`start:${id}`, () => useApi().start(id));
      await this.refresh();
    },
    async pause(id: string) {
      await this.run(`pause:${id}`, () => useApi().pause(id));
      await this.refresh();
    },
    async resume(id: string) {
      this.selectedId = id;
      await this.run(`start:${id}`, () => useApi().resume(id));
      await this.refresh();
    },
    /** Ends the crawl for good (the view asks for confirmation first). */
    async stop(id: string) {
      await this.run(`stop:${id}`, () => useApi().stop(id));
      await this.refresh();
    },
    async remove(id: string) {
      await this.run(`delete:${id}`, () => useApi().deleteCrawl(id));
      if (this.selectedId === id && !this.errors[`delete:${id}`]) this.selectedId = null;
      await this.refresh();
    },
  },
});
