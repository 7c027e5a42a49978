/**
 * What the New crawl form asks the engine: the policies to choose from, what a seed text
 * holds, an earlier crawl's settings (for "Crawl again"), and the creation itself (whose
 * refusal the form shows at the field it names). Seed text longer than one message may carry
 * (API_LIMITS.seedTextChars: a seed file of a few hundred thousand URLs) goes up in chunks
 * (uploadSeeds) and is then named by its upload, for parseSeeds and for createCrawl.
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { CrawlInfo, CrawlSettingsDto, CreateCrawlRequest, ParsedSeeds, PolicyDescription } from '../../core/api/contract.js';
import { API_LIMITS } from '../../core/api/limits.js';
import { useApi } from '../api/instance.js';
import { asyncActions } from '../lib/async-action.js';
import { useCrawlsStore } from './crawls.js';

export type NewCrawlActionKey = 'policies' | 'seeds' | 'again' | 'create';

export const useNewCrawlStore = defineStore('new-crawl', () => {
  const { run, status } = asyncActions<NewCrawlActionKey>();
  const policies = ref<PolicyDescription[]>([]);
  /** The engine's reading of the latest seed text (null for an empty one). */
  const seeds = ref<ParsedSeeds | null>(null);
  /** The last long text sent up in chunks and its upload, reused by Create while the engine holds it. */
  let uploaded: { text: string; uploadId: string } | null = null;

  /** Sends `text` up in chunks (or names the upload already made of it); resolves with the upload's id. */
  async function upload(text: string): Promise<string> {
    if (uploaded?.text === text) return uploaded.uploadId;
    const uploadId = `seeds-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
    const size = API_LIMITS.seedChunkChars;
    for (let part = 0; part * size < text.length; part++) await useApi().uploadSeeds(uploadId, text.slice(part * size, (part + 1) * size), part);
    uploaded = { text, uploadId };
    return uploadId;
  }

  /** Whether `text` is too long for one message and goes up in chunks. */
  const tooLongForOneMessage = (text: string) => text.length > API_LIMITS.seedTextChars;

  async function loadPolicies(): Promise<void> {
    if (policies.value.length > 0) return;
    const out = await run('policies', () => useApi().listPolicies());
    if (out.ok) policies.value = out.value;
  }

  /** Asks the engine, which knows what a seed is; an answer for an older text is dropped. */
  async function parseSeeds(text: string): Promise<void> {
    const out = await run('seeds', async () => {
      if (!text.trim()) return null;
      return useApi().parseSeeds(tooLongForOneMessage(text) ? { uploadId: await upload(text) } : text);
    });
    if (out.ok && !out.stale) seeds.value = out.value;
  }

  /** An earlier crawl's settings, or null (the error kept as `again`'s); an answer for an older ask is dropped. */
  async function settingsOf(id: string): Promise<CrawlSettingsDto | null> {
    const out = await run('again', () => useApi().crawlSettings(id));
    return out.ok && !out.stale ? out.value : null;
  }

  /** The new crawl, or null with the refusal kept as `create`'s error. */
  async function create(req: CreateCrawlRequest): Promise<CrawlInfo | null> {
    const out = await run('create', async () => {
      const text = req.seedText;
      if (text === undefined || !tooLongForOneMessage(text)) return useApi().createCrawl(req);
      const { seedText: _inUpload, ...rest } = req;
      let info: CrawlInfo;
      try {
        info = await useApi().createCrawl({ ...rest, seedUploadId: await upload(text) });
      } catch (err) {
        // The engine dropped the upload (unused for a long while): sent again, once.
        if ((err as { field?: string }).field !== 'seedUploadId') throw err;
        uploaded = null;
        info = await useApi().createCrawl({ ...rest, seedUploadId: await upload(text) });
      }
      // The engine drops an upload once its crawl exists.
      uploaded = null;
      return info;
    });
    if (!out.ok) return null;
    await useCrawlsStore().refresh();
    return out.value;
  }

  return { ...status, policies, seeds, loadPolicies, parseSeeds, settingsOf, create };
});
