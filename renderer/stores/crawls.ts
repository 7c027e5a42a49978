/** Crawls in the workspace, the policies, and the actions that change a crawl's state. */
import { defineStore } from 'pinia';
import type { CrawlInfo, CreateCrawlRequest, CrawlStateEvent, ParsedSeeds, PolicyDescription } from '../../core/api/contract.js';
import { errorText, useApi } from '../api/instance.js';

export const useCrawlsStore = defineStore('crawls', {
  state: () => ({
    crawls: [] as CrawlInfo[],
    policies: [] as PolicyDescription[],
    /** The crawl the Live and Inspector views show. */
    selectedId: null as string | null,
    busy: false,
    error: null as string | null,
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
    async run<T>(fn: () => Promise<T>): Promise<T | null> {
      this.busy = true;
      this.error = null;
      try {
        return await fn();
      } catch (err) {
        this.error = errorText(err);
        return null;
      } finally {
        this.busy = false;
      }
    },
    async create(req: CreateCrawlRequest): Promise<CrawlInfo | null> {
      const info = await this.run(() => useApi().createCrawl(req));
      if (info) {
        this.selectedId = info.id;
        await this.refresh();
      }
      return info;
    },
    async start(id: string) {
      this.selectedId = id;
      await this.run(() => useApi().start(id));
      await this.refresh();
    },
    async pause(id: string) {
      await this.run(() => useApi().pause(id));
      await this.refresh();
    },
    async resume(id: string) {
      this.selectedId = id;
      await this.run(() => useApi().resume(id));
      await this.refresh();
    },
    async stop(id: string) {
      await this.run(() => useApi().stop(id));
      await this.refresh();
    },
    async remove(id: string) {
      await this.run(() => useApi().deleteCrawl(id));
      if (this.selectedId === id) this.selectedId = null;
      await this.refresh();
    },
  },
});
