/**
 * What the New crawl form asks the engine: the policies to choose from, what a seed text
 * holds, an earlier crawl's settings (for "Crawl again"), and the creation itself (whose
 * refusal the form shows at the field it names).
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { CrawlInfo, CrawlSettingsDto, CreateCrawlRequest, ParsedSeeds, PolicyDescription } from '../../core/api/contract.js';
import { useApi } from '../api/instance.js';
import { asyncActions } from '../lib/async-action.js';
import { useCrawlsStore } from './crawls.js';

export type NewCrawlActionKey = 'policies' | 'seeds' | 'again' | 'create';

export const useNewCrawlStore = defineStore('new-crawl', () => {
  const { run, status } = asyncActions<NewCrawlActionKey>();
  const policies = ref<PolicyDescription[]>([]);
  /** The engine's reading of the latest seed text (null for an empty one). */
  const seeds = ref<ParsedSeeds | null>(null);

  async function loadPolicies(): Promise<void> {
    if (policies.value.length > 0) return;
    const out = await run('policies', () => useApi().listPolicies());
    if (out.ok) policies.value = out.value;
  }

  /** Asks the engine, which knows what a seed is; an answer for an older text is dropped. */
  async function parseSeeds(text: string): Promise<void> {
    const out = await run('seeds', async () => (text.trim() ? useApi().parseSeeds(text) : null));
    if (out.ok && !out.stale) seeds.value = out.value;
  }

  /** An earlier crawl's settings, or null (the error kept as `again`'s); an answer for an older ask is dropped. */
  async function settingsOf(id: string): Promise<CrawlSettingsDto | null> {
    const out = await run('again', () => useApi().crawlSettings(id));
    return out.ok && !out.stale ? out.value : null;
  }

  /** The new crawl, or null with the refusal kept as `create`'s error. */
  async function create(req: CreateCrawlRequest): Promise<CrawlInfo | null> {
    const out = await run('create', () => useApi().createCrawl(req));
    if (!out.ok) return null;
    await useCrawlsStore().refresh();
    return out.value;
  }

  return { ...status, policies, seeds, loadPolicies, parseSeeds, settingsOf, create };
});
