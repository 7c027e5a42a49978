/**
 * The Sites view's one page of a crawl's sites, asked of the engine (listSites pages, sorts
 * and filters there: a crawl can have 50,000 sites). An answer to an older question (a filter
 * typed over, another crawl opened) is dropped, so the table never shows rows for a query
 * that is no longer the one on screen. A refused question keeps the page of the crawl shown.
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { SitesPage, SitesQuery } from '../../core/api/contract.js';
import { useApi } from '../api/instance.js';
import { asyncActions } from '../lib/async-action.js';
import { sitesQueryRefusal } from '../lib/request-errors.js';

export const useSitesStore = defineStore('sites', () => {
  const { run, status } = asyncActions<'sites'>();
  /** The page shown, with the crawl and query it answers. */
  const page = ref<(SitesPage & { crawlId: string; query: SitesQuery }) | null>(null);

  async function load(crawlId: string, query: SitesQuery): Promise<void> {
    // Checked with the engine's schema first: a refusal shows as the engine's would, nothing sent.
    const refused = sitesQueryRefusal(query);
    const out = await run('sites', () => (refused ? Promise.reject(refused) : useApi().listSites(crawlId, query)));
    if (out.stale) return;
    // A refusal keeps the page shown (its error says why the new one is not); another crawl's page goes.
    if (out.ok) page.value = { ...out.value, crawlId, query };
    else if (page.value?.crawlId !== crawlId) page.value = null;
  }

  return { ...status, page, load };
});
