/** The Pages view's search: one result page of a crawl's pages, asked of the engine. */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { PageSearchDto, PageSearchQuery } from '../../core/api/contract.js';
import { useApi } from '../api/instance.js';
import { asyncActions } from '../lib/async-action.js';

export const usePagesStore = defineStore('pages', () => {
  const { run, status } = asyncActions<'search'>();
  /** The crawl and search the result belongs to. */
  const crawlId = ref<string | null>(null);
  const query = ref<PageSearchQuery>({});
  const result = ref<PageSearchDto | null>(null);

  /** Asks for one result page; a later search wins over a slower earlier one. */
  async function search(id: string, q: PageSearchQuery): Promise<void> {
    if (id !== crawlId.value) result.value = null;
    crawlId.value = id;
    query.value = q;
    const out = await run('search', () => useApi().searchPages(id, q));
    if (out.stale) return;
    result.value = out.ok ? out.value : null;
  }

  return { ...status, crawlId, query, result, search };
});
