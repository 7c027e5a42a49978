/** The Page inspector: one page of one crawl, with its in- and out-links. */
import { defineStore } from 'pinia';
import type { PageDetail } from '../../core/api/contract.js';
import { useApi } from '../api/instance.js';
import { userError } from '../lib/user-error.js';

export const useInspectorStore = defineStore('inspector', {
  state: () => ({
    url: '',
    page: null as PageDetail | null,
    notFound: false,
    error: null as string | null,
    loading: false,
  }),
  actions: {
    async lookup(crawlId: string, url: string) {
      this.url = url.trim();
      this.error = null;
      this.notFound = false;
      if (!this.url) return;
      this.loading = true;
      try {
        this.page = await useApi().getPage(crawlId, this.url);
        this.notFound = this.page === null;
      } catch (err) {
        this.page = null;
        this.error = userError(err).text;
      } finally {
        this.loading = false;
      }
    },
  },
});
