/** The Page inspector: one page of one crawl, with its in- and out-links (a page of each list at a time). */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { PageDetail, PageLinksQuery } from '../../core/api/contract.js';
import { useApi } from '../api/instance.js';
import { asyncActions } from '../lib/async-action.js';
import { pageLinksRefusal } from '../lib/request-errors.js';

export const useInspectorStore = defineStore('inspector', () => {
  const { run, status } = asyncActions<'lookup'>();
  /** The crawl and URL last looked up (the page shown belongs to them). */
  const crawlId = ref<string | null>(null);
  const url = ref('');
  const page = ref<PageDetail | null>(null);
  const notFound = ref(false);

  /** Looks a URL up; an empty one clears the page. A later lookup wins over a slower earlier one. */
  async function lookup(id: string, rawUrl: string, links?: PageLinksQuery): Promise<void> {
    const target = rawUrl.trim();
    if (id !== crawlId.value) page.value = null;
    crawlId.value = id;
    url.value = target;
    notFound.value = false;
    // The links asked for checked with the engine's schema first: a refusal shows as the engine's would, nothing sent.
    const refused = target && links !== undefined ? pageLinksRefusal(links) : null;
    const out = await run('lookup', async () => {
      if (refused) throw refused;
      return target ? useApi().getPage(id, target, links) : null;
    });
    if (out.stale) return;
    page.value = out.ok ? out.value : null;
    notFound.value = out.ok && out.value === null && target !== '';
  }

  return { ...status, crawlId, url, page, notFound, lookup };
});
